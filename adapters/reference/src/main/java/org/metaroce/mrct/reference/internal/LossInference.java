package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.Psn;

/**
 * Loss inference of one QP's requester (MetaRoCE v1 section 13.3): a PSN not delivered is lost when enough later PSNs
 * sent after its latest transmission were delivered (the reordering threshold), or when one was and the reordering
 * time has passed since. It reads the flight through its {@link Requester} and reports each loss event back to it;
 * it owns only its scratch arrays and the pending reordering-time check.
 */
final class LossInference {
    private static final int[] NO_COUNTS = new int[0];
    private static final PsnState[] NO_STATES = new PsnState[0];
    private final Device device;
    private final QueuePair qp;
    private final Requester requester;
    /** Scratch of {@link #inferLoss}: per window index, the delivered later PSNs, and the states. */
    private int[] laterCounts = NO_COUNTS;
    private PsnState[] states = NO_STATES;
    private Scheduler.Event reorderCheck;

    LossInference(final Device device, final QueuePair qp, final Requester requester) {
        this.device = device;
        this.qp = qp;
        this.requester = requester;
    }

    /** Delivered PSNs after index {@code from} of the window whose latest transmission came after {@code txSeq}. */
    private int countLater(final int from, final int span, final long txSeq) {
        int later = 0;
        for (int k = from + 1; k < span; k++) {
            final PsnState y = states[k];
            if (y != null && y.delivered && y.txSeq > txSeq) {
                later++;
            }
        }
        return later;
    }

    /** Section 13.3: loss events by threshold and by time. */
    void inferLoss() {
        if (requester.waitingOnRnr() || qp.state != QpState.RTS) {
            return;
        }
        final long now = device.scheduler.now();
        long nextCheck = Long.MAX_VALUE;
        final int una = requester.una(); // loss events leave una where it is
        final int end = requester.sendPoint();
        final int span = Psn.distance(una, end);
        if (laterCounts.length < span) {
            laterCounts = new int[Math.max(Math.max(span, 64), laterCounts.length * 2)];
            states = new PsnState[laterCounts.length];
        }
        // one backward pass: for each PSN, the delivered PSNs after it whose latest transmission followed its own
        // (section 13.3). Usually every delivered PSN above x was sent after x, so the count is the running total;
        // only a PSN retransmitted after some of them needs a look at each (the rare slow path).
        int deliveredAbove = 0;
        long oldestAbove = Long.MAX_VALUE;
        for (int i = span - 1; i >= 0; i--) {
            final PsnState y = requester.inFlight(Psn.add(una, i));
            states[i] = y;
            if (y == null) {
                laterCounts[i] = 0;
                continue;
            }
            if (!y.delivered) {
                laterCounts[i] = y.txSeq < oldestAbove ? deliveredAbove : countLater(i, span, y.txSeq);
            } else {
                deliveredAbove++;
                oldestAbove = Math.min(oldestAbove, y.txSeq);
            }
        }
        for (int i = 0; i < span; i++) {
            final PsnState x = states[i];
            states[i] = null;
            if (x == null || x.delivered || x.retransmitQueued) {
                continue;
            }
            final int p = Psn.add(una, i);
            final int later = laterCounts[i];
            final boolean eager = device.has(Fault.EAGER_RETRANSMIT) && later > 0;
            if (later >= qp.reorderThreshold + (device.has(Fault.THRESHOLD_OFF_BY_ONE) ? 1 : 0) || eager) {
                requester.lossEvent(p, x);
            } else if (later > 0 && x.eligibleSince >= 0) {
                if (now - x.eligibleSince >= qp.reorderTimeNs) {
                    requester.lossEvent(p, x);
                } else {
                    nextCheck = Math.min(nextCheck, x.eligibleSince + qp.reorderTimeNs);
                }
            }
            if (qp.state != QpState.RTS) {
                java.util.Arrays.fill(states, null);
                return;
            }
        }
        if (nextCheck != Long.MAX_VALUE && (reorderCheck == null || reorderCheck.time() > nextCheck)) {
            if (reorderCheck != null) {
                reorderCheck.cancel();
            }
            reorderCheck = device.scheduler.at(nextCheck, () -> {
                reorderCheck = null;
                inferLoss();
                device.kick(qp);
            });
        }
    }
}

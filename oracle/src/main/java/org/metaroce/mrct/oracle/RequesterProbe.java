package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.Psn;

/**
 * The acknowledgement probe of section 13.4, the one retransmission of a delivered PSN that MR-RTX-001 allows. An
 * acknowledgement is <em>awaited</em> while some sent PSN of a SEND or RDMA WRITE WQE that has not completed lies at or
 * after the highest cumulative point received; with no PSN in flight, the requester then sends the highest such PSN
 * again, with bth.ackreq 1, each time its timer (rto_low_ns) expires (MR-RTX-020).
 *
 * <p>Both judges ask this class whether a retransmission is the probe: the live engine from the work requests it
 * posted, {@code mrct analyze} from the requests of the capture, each through a {@link SendQueue} view. PSNs are named
 * as the caller names them (relative to sq_psn live, the wire's in a capture) and compared in 24-bit arithmetic.
 * When the probe is due and when it is late (MR-RTX-020's timer) only the live engine judges: a capture does not know
 * the timer.
 */
public final class RequesterProbe {
    /** The rule of the probe's timer. */
    public static final String RULE = "MR-RTX-020";
    /** No acknowledgement awaited. */
    public static final int NONE = -1;

    private RequesterProbe() {
    }

    /** What the requester has sent, as the caller knows it. */
    public interface SendQueue {
        /** The lowest sent PSN not delivered ({@link #nextPsn()} when every PSN sent is delivered). */
        int una();

        /** One past the highest PSN sent for the first time (a READ's span included). */
        int nextPsn();

        /** True when {@code psn} was sent and belongs to a SEND or RDMA WRITE (not a READ's span, not an atomic). */
        boolean sendOrWrite(int psn);
    }

    /**
     * The PSN an acknowledgement probe carries: the highest sent SEND or RDMA WRITE PSN in {@code [point, nextPsn)},
     * or {@link #NONE} when no acknowledgement is awaited. {@code point} is the highest cumulative point received (a
     * WQE ending before it has completed); a caller that knows more (a response that let earlier WQEs complete under
     * MR-CMP-015) may pass a later one.
     */
    public static int awaited(final SendQueue queue, final int point) {
        final int next = queue.nextPsn();
        final int n = Psn.distance(point, next);
        if (n >= Psn.HALF) {
            return NONE;
        }
        for (int i = n - 1; i >= 0; i--) {
            final int q = Psn.add(point, i);
            if (queue.sendOrWrite(q)) {
                return q;
            }
        }
        return NONE;
    }

    /** True when no PSN is in flight and an acknowledgement is awaited: the timer runs for the probe. */
    public static boolean due(final SendQueue queue, final int point) {
        return queue.una() == queue.nextPsn() && awaited(queue, point) != NONE;
    }

    /**
     * True when a retransmission of {@code psn} with AckReq {@code ackReq} is the acknowledgement probe: no PSN is in
     * flight, and it is the PSN of {@link #awaited}, sent with bth.ackreq 1 (a resend of that PSN without AckReq asks
     * for nothing and is no probe: MR-RTX-001 judges it).
     */
    public static boolean is(final SendQueue queue, final int point, final int psn, final boolean ackReq) {
        return ackReq && queue.una() == queue.nextPsn() && psn == awaited(queue, point);
    }
}

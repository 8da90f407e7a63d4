package org.metaroce.mrct.oracle;

import java.util.Arrays;

/**
 * Loss inference on one QP's requests (section 13.3), fed with what the requester sent and learnt delivered, in time
 * order. An in-flight PSN x is inferred lost when reorder_threshold PSNs after it are delivered (threshold) or
 * reorder_time_ns have passed since a PSN after it was first delivered while it was not (time); after x is sent again
 * at t only deliveries of packets last sent after t count. A loss event must be answered by the retransmission of x
 * before any PSN is sent for the first time: MR-RTX-003 (threshold), MR-RTX-004 (time), judged by {@link #pending}.
 * {@link #inferredLost} tells whether a retransmission had a loss event as its cause (MR-RTX-002, MR-RTX-005);
 * {@link #lostByOldEvidence} whether a retransmission without one reused evidence its earlier retransmission spent
 * (MR-RTX-005).
 *
 * <p>PSNs are indices from the stream's first PSN (the live engine's PSNs relative to sq_psn): the caller that names
 * wire PSNs maps them first. Times in ns; the observer's tolerance is the caller's ({@code toleranceNs}). The live
 * engine feeds it from the work requests it posted and the answers it sent; {@code mrct analyze} does not judge these
 * rules yet (a capture may miss the deliveries a device saw).
 */
public final class RequesterLoss {
    /** The threshold condition's rule. */
    public static final String THRESHOLD_RULE = "MR-RTX-003";
    /** The time condition's rule. */
    public static final String TIME_RULE = "MR-RTX-004";
    /** No time: never delivered, never sent again, no later PSN delivered. */
    public static final long NONE = Long.MIN_VALUE;

    private final int reorderThreshold;
    private final long reorderTimeNs;
    private int[] tx = new int[64];
    private long[] lastTx = new long[64];
    private long[] lastRetx = filled(64);
    private long[] deliveredAt = filled(64);
    private long[] laterAt = filled(64);

    /** A QP with these reorder_threshold and reorder_time_ns (Appendix B). */
    public RequesterLoss(final int reorderThreshold, final long reorderTimeNs) {
        this.reorderThreshold = reorderThreshold;
        this.reorderTimeNs = reorderTimeNs;
    }

    private static long[] filled(final int n) {
        final long[] a = new long[n];
        Arrays.fill(a, NONE);
        return a;
    }

    private void ensure(final int psn) {
        if (psn < tx.length) {
            return;
        }
        int n = tx.length;
        while (n <= psn) {
            n *= 2;
        }
        final int old = tx.length;
        tx = Arrays.copyOf(tx, n);
        lastTx = Arrays.copyOf(lastTx, n);
        lastRetx = Arrays.copyOf(lastRetx, n);
        deliveredAt = Arrays.copyOf(deliveredAt, n);
        laterAt = Arrays.copyOf(laterAt, n);
        Arrays.fill(lastRetx, old, n, NONE);
        Arrays.fill(deliveredAt, old, n, NONE);
        Arrays.fill(laterAt, old, n, NONE);
    }

    // ---------------------------------------------------------------------------------------------------- events

    /** PSN {@code psn} is sent for the first time at {@code time}. */
    public void sent(final int psn, final long time) {
        ensure(psn);
        tx[psn] = 1;
        lastTx[psn] = time;
    }

    /**
     * PSN {@code psn} is sent again at {@code time}: a retransmission of an undelivered PSN (only deliveries of
     * packets sent after it make a further loss event), or the acknowledgement probe of a delivered one.
     */
    public void resent(final int psn, final long time) {
        ensure(psn);
        tx[psn]++;
        lastTx[psn] = time;
        if (!delivered(psn)) {
            lastRetx[psn] = time;
            laterAt[psn] = NONE;
        }
    }

    /**
     * The requester learns at {@code time} that {@code psn} was delivered: the time condition starts for every
     * in-flight PSN from {@code una} before it that it counts for (sent, and not sent again after {@code psn}).
     */
    public void deliver(final int psn, final int una, final long time) {
        ensure(psn);
        if (delivered(psn)) {
            return;
        }
        deliveredAt[psn] = time;
        for (int x = una; x < psn; x++) {
            if (!delivered(x) && tx[x] > 0 && laterAt[x] == NONE
                && (lastRetx[x] == NONE || lastTx[psn] > lastRetx[x])) {
                laterAt[x] = time;
            }
        }
    }

    // --------------------------------------------------------------------------------------------------- queries

    /** True when the requester learnt {@code psn} delivered. */
    public boolean delivered(final int psn) {
        return psn >= 0 && psn < tx.length && deliveredAt[psn] != NONE;
    }

    /** PSNs of {@code [from, to)} not learnt delivered: from una to the next PSN, those in flight. */
    public int undelivered(final int from, final int to) {
        int n = 0;
        for (int q = from; q < to; q++) {
            if (!delivered(q)) {
                n++;
            }
        }
        return n;
    }

    /**
     * The first PSN of {@code [first, last]} not learnt delivered, or {@code last} when every PSN before it was: where
     * a READ of that span is re-requested from (section 13.6).
     */
    public int firstUndelivered(final int first, final int last) {
        int x = first;
        while (x < last && delivered(x)) {
            x++;
        }
        return x;
    }

    /** When the requester learnt {@code psn} delivered, or {@link #NONE}. */
    public long deliveredAt(final int psn) {
        return psn >= 0 && psn < tx.length ? deliveredAt[psn] : NONE;
    }

    /** Transmissions of {@code psn} (0 when never sent). */
    public int transmissions(final int psn) {
        return psn >= 0 && psn < tx.length ? tx[psn] : 0;
    }

    /** When {@code psn} was last retransmitted while in flight, or {@link #NONE}. */
    public long lastRetransmission(final int psn) {
        return psn >= 0 && psn < tx.length ? lastRetx[psn] : NONE;
    }

    /** When a PSN after {@code x} was first delivered while {@code x} was not (since its last retransmission). */
    public long laterDeliveredAt(final int x) {
        return x >= 0 && x < tx.length ? laterAt[x] : NONE;
    }

    /** The PSNs after {@code x} (and before {@code next}) delivered that count for its threshold condition. */
    public int deliveredAfter(final int x, final int next) {
        int later = 0;
        for (int y = x + 1; y < Math.min(next, tx.length); y++) {
            if (counts(x, y)) {
                later++;
            }
        }
        return later;
    }

    private boolean counts(final int x, final int y) {
        return delivered(y) && (lastRetx[x] == NONE || lastTx[y] > lastRetx[x]);
    }

    /** When the threshold condition for {@code x} became true, or {@link #NONE}. */
    public long thresholdEventTime(final int x, final int next) {
        final long[] times = new long[Math.max(0, Math.min(next, tx.length) - x - 1)];
        int n = 0;
        for (int y = x + 1; y < Math.min(next, tx.length); y++) {
            if (counts(x, y)) {
                times[n++] = deliveredAt[y];
            }
        }
        if (n < reorderThreshold || reorderThreshold <= 0) {
            return NONE;
        }
        Arrays.sort(times, 0, n);
        return times[reorderThreshold - 1];
    }

    /** True when {@code x} is inferred lost by {@code time} (by either condition, within the tolerance). */
    public boolean inferredLost(final int x, final int next, final long time, final long toleranceNs) {
        if (x >= 0 && x < tx.length && laterAt[x] != NONE && laterAt[x] + reorderTimeNs <= time + toleranceNs) {
            return true;
        }
        final long at = thresholdEventTime(x, next);
        return at != NONE && at <= time + toleranceNs;
    }

    /**
     * True when {@code x}, retransmitted before, would be inferred lost by {@code time} if every delivery of a later PSN
     * counted, those of packets last sent before its retransmission included: the evidence MR-RTX-005 forbids using
     * again (a retransmission from it, without another cause, breaks that rule rather than MR-RTX-002).
     */
    public boolean lostByOldEvidence(final int x, final int next, final long time, final long toleranceNs) {
        if (x < 0 || x >= tx.length || lastRetx[x] == NONE || delivered(x)) {
            return false;
        }
        int later = 0;
        long first = NONE;
        for (int y = x + 1; y < Math.min(next, tx.length); y++) {
            if (delivered(y)) {
                later++;
                first = first == NONE ? deliveredAt[y] : Math.min(first, deliveredAt[y]);
            }
        }
        return reorderThreshold > 0 && later >= reorderThreshold
            || first != NONE && first + reorderTimeNs <= time + toleranceNs;
    }

    /**
     * A loss event not answered: the in-flight PSN whose retransmission was due before a first transmission, and the
     * rule (MR-RTX-003 by the threshold, MR-RTX-004 by the time).
     */
    public record Pending(int psn, String rule) {
        /** As a finding on bth.psn of the first transmission {@code frame}. */
        public Finding finding(final long frame, final Basis basis) {
            return new Finding(rule, "bth.psn", "retransmission of " + psn + " first", "a first transmission", frame,
                basis);
        }
    }

    /**
     * The loss event a first transmission at {@code time} leaves unanswered: the lowest in-flight PSN of
     * {@code [una, next)} with a loss event older than the tolerance, or null.
     */
    public Pending pending(final int una, final int next, final long time, final long toleranceNs) {
        for (int x = Math.max(0, una); x < Math.min(next, tx.length); x++) {
            if (delivered(x) || laterAt[x] == NONE) {
                continue;
            }
            final long thresholdAt = thresholdEventTime(x, next);
            if (thresholdAt != NONE && thresholdAt + toleranceNs < time) {
                return new Pending(x, THRESHOLD_RULE);
            }
            if (laterAt[x] + reorderTimeNs + toleranceNs < time) {
                return new Pending(x, TIME_RULE);
            }
        }
        return null;
    }
}

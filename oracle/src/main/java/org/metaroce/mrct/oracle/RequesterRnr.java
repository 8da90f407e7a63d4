package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.RnrTimer;

/**
 * One QP's RNR waits (section 13.5), as a judge follows them from the RNR NAKs the requester took and the requests it
 * sent: MR-RTX-012 (no request during the wait, the next one at its end), MR-RTX-013 (at the end, every in-flight PSN
 * from the resume PSN in one increasing order before any new PSN), MR-RTX-014 (the RNR retry counter: an RNR NAK
 * outside a wait after rnr_retry waits since the last progress ends the QP, unless rnr_retry is 7) and MR-RTX-015 (an
 * RNR NAK during a wait neither restarts it nor counts as a retry; it lowers the resume PSN when it names a lower one).
 *
 * <p>Feed it in time order: {@link #onNak} for each RNR NAK for an in-flight PSN the requester takes,
 * {@link #progress} on each progress, {@link #request} for each request packet it sends. What the caller owes at the
 * end of a wait it states through {@link Owed} (in flight, not delivered, not sent again since the wait ended). The
 * live engine knows the QP's rnr_retry; {@code mrct analyze} does not ({@link #UNKNOWN}) and then does not judge
 * MR-RTX-014. PSNs as the caller names them, compared in 24-bit arithmetic; times in nanoseconds.
 */
public final class RequesterRnr {
    /** Silence during the wait, the next request at its end. */
    public static final String WAIT_RULE = "MR-RTX-012";
    /** The resume order at the end of the wait. */
    public static final String RESUME_RULE = "MR-RTX-013";
    /** The RNR retry limit. */
    public static final String RETRY_RULE = "MR-RTX-014";
    /** An RNR NAK during a wait. */
    public static final String DURING_RULE = "MR-RTX-015";
    /** rnr_retry not known to the judge. */
    public static final int UNKNOWN = -1;
    private static final long NONE = Long.MIN_VALUE;

    /** What an RNR NAK did. */
    public enum Nak {
        /** A wait began (and, unless rnr_retry is 7, counted one RNR retry). */
        STARTED,
        /** It came during a wait: the resume PSN is now the lower of the two; the wait goes on unchanged. */
        DURING,
        /** It exhausted the RNR retries: the QP goes to ERROR and sends no more requests. */
        EXHAUSTED
    }

    /** Whether the caller's requester owes PSN {@code psn} a retransmission at the end of the wait. */
    @FunctionalInterface
    public interface Owed {
        /** True when {@code psn} is in flight, not delivered, and not sent again since the wait ended. */
        boolean owed(int psn);
    }

    private final int rnrRetry;
    private int retries;
    private long started = NONE;
    private long until;
    private int resume;
    /** The end of a wait restarted by the latest RNR NAK during it, as a device breaking MR-RTX-015 would wait. */
    private long restartedUntil = NONE;
    /** True from the end of a wait until the first request that leaves the resume order behind. */
    private boolean resumeDue;
    private long endedAt = NONE;
    private long exhaustedAt = NONE;
    /** RNR NAKs taken during waits since the last progress (a device counting them would exhaust sooner). */
    private int during;

    /** A QP with this rnr_retry (0 to 7), or {@link #UNKNOWN}. */
    public RequesterRnr(final int rnrRetry) {
        this.rnrRetry = rnrRetry;
    }

    /** An RNR NAK with timer code {@code code} (aeth.syndrome bits 4-0) for in-flight PSN {@code psn} at {@code time}. */
    public Nak onNak(final long time, final int psn, final int code) {
        if (waiting(time)) {
            if (Psn.isBefore(psn, resume)) {
                resume = psn;
            }
            restartedUntil = time + RnrTimer.nanos(code);
            during++;
            return Nak.DURING;
        }
        if (rnrRetry != UNKNOWN && rnrRetry != 7 && retries >= rnrRetry) {
            exhaustedAt = time;
            started = NONE;
            resumeDue = false;
            return Nak.EXHAUSTED;
        }
        if (rnrRetry != 7) {
            retries++;
        }
        started = time;
        until = time + RnrTimer.nanos(code);
        resume = psn;
        restartedUntil = NONE;
        resumeDue = true;
        return Nak.STARTED;
    }

    /** Progress (una moved): the RNR retry counter returns to 0. */
    public void progress() {
        retries = 0;
        during = 0;
    }

    /** True while a wait that began runs at {@code time} (its last nanosecond excluded). */
    public boolean waiting(final long time) {
        return started != NONE && time < until;
    }

    /** True from an RNR NAK until the first request after the wait's end: the requester is held back. */
    public boolean held() {
        return started != NONE;
    }

    /** True once the RNR retries were exhausted: the QP is in ERROR. */
    public boolean exhausted() {
        return exhaustedAt != NONE;
    }

    /** The latest a conforming requester sends its next request: the timer window of the front matter. */
    public long latest(final long toleranceNs) {
        return until + (until - started) / 10 + 2000 + toleranceNs;
    }

    /** When the current (or last) wait began and ends. */
    public long started() {
        return started;
    }

    /** The end of the current (or last) wait. */
    public long until() {
        return until;
    }

    /** The resume PSN (section 13.5). */
    public int resume() {
        return resume;
    }

    /** True from the end of a wait until the resume order is left behind. */
    public boolean resumeDue() {
        return resumeDue;
    }

    /**
     * The finding when nothing was sent by {@code now} although the wait ended and its timer window passed: the
     * next request is late (MR-RTX-012), or, when an RNR NAK during the wait would have restarted it to end later,
     * the wait was restarted (MR-RTX-015). Null while no wait is held or its window has not passed.
     */
    public Finding overdue(final long now, final long toleranceNs, final long frame, final Basis basis) {
        if (started == NONE || now <= latest(toleranceNs)) {
            return null;
        }
        if (rnrRetry != UNKNOWN && rnrRetry != 7 && during > 0 && retries - 1 + during >= rnrRetry) {
            return new Finding(DURING_RULE, "time", "a request by " + latest(toleranceNs) + " (the RNR wait begun at "
                + started + " is RNR retry " + retries + " of rnr_retry " + rnrRetry + "; the " + during + " RNR NAK(s)"
                + " taken during earlier waits do not count)", "none by " + now, frame, basis);
        }
        return restartedUntil != NONE && restartedUntil > until
            ? new Finding(DURING_RULE, "time", "a request by " + latest(toleranceNs) + " (the wait begun at "
                + started + " ends at " + until + "; an RNR NAK during it does not restart it)", "none by " + now,
                frame, basis)
            : new Finding(WAIT_RULE, "time", "a request by " + latest(toleranceNs) + " (the RNR wait ends at "
                + until + ")", "none by " + now, frame, basis);
    }

    /**
     * A request packet sent at {@code time}: the finding when it breaks MR-RTX-012 (during the wait, later than
     * {@code toleranceNs} after it began and earlier than {@code toleranceNs} before its end), MR-RTX-015 (during the
     * wait or after its window, where a wait restarted by an RNR NAK during it would end), MR-RTX-012 (after the
     * wait's window otherwise), or MR-RTX-014
     * (any request after the RNR retries were exhausted); null otherwise. The first request after the wait ends it.
     */
    public Finding request(final long time, final long toleranceNs, final long frame, final Basis basis) {
        if (exhaustedAt != NONE) {
            if (time <= exhaustedAt + toleranceNs) {
                return null; // crossed the RNR NAK on its way
            }
            return new Finding(RETRY_RULE, "bth.psn", "none (the RNR retries were exhausted: QP in ERROR, "
                + "RNR_RETRY_EXCEEDED)", "a request at " + time, frame, basis);
        }
        if (started == NONE) {
            return null;
        }
        if (time > started + toleranceNs && time + toleranceNs < until) {
            if (restartedUntil != NONE && time + toleranceNs >= restartedUntil) {
                return new Finding(DURING_RULE, "time", "at least " + until + " (the RNR wait begun at " + started
                    + "; an RNR NAK during it does not restart it)", time + " (where the wait, restarted, would end)",
                    frame, basis);
            }
            return new Finding(WAIT_RULE, "time", "at least " + until + " (the RNR wait begun at " + started + ")",
                Long.toString(time), frame, basis);
        }
        if (time + toleranceNs < until) {
            return null; // crossed the RNR NAK on its way
        }
        final Finding late = overdue(time, toleranceNs, frame, basis);
        started = NONE;
        endedAt = until;
        return late == null ? null : new Finding(late.rule(), late.field(), late.expected(), Long.toString(time),
            frame, basis);
    }

    /**
     * MR-RTX-013 on the retransmission of {@code psn} after a wait: the finding when a PSN from the resume PSN (or
     * from {@code una}, when later) before it is still owed, so the resends do not go in one increasing order.
     */
    public Finding resend(final int una, final int psn, final Owed owed, final long frame, final Basis basis) {
        if (!resumeDue || started != NONE || Psn.isBefore(psn, resume)) {
            return null;
        }
        final int from = Psn.isAfter(una, resume) ? una : resume;
        for (int y = from; Psn.isBefore(y, psn); y = Psn.add(y, 1)) {
            if (owed.owed(y)) {
                return new Finding(RESUME_RULE, "bth.psn", "retransmission of " + y + " (the resume PSN " + resume
                    + " and every in-flight PSN after it in increasing order)", "retransmission of " + psn, frame,
                    basis);
            }
        }
        return null;
    }

    /**
     * MR-RTX-013 on a first transmission after a wait, {@code next} being the PSN it carries: the finding when an
     * in-flight PSN from the resume PSN (or {@code una}) is still owed; after this the resume order is behind.
     */
    public Finding firstTransmission(final int una, final int next, final Owed owed, final long frame,
                                     final Basis basis) {
        if (!resumeDue || started != NONE) {
            return null;
        }
        resumeDue = false;
        final int from = Psn.isAfter(una, resume) ? una : resume;
        for (int y = from; Psn.isBefore(y, next); y = Psn.add(y, 1)) {
            if (owed.owed(y)) {
                return new Finding(RESUME_RULE, "bth.psn", "retransmission of " + y + " (every in-flight PSN from "
                    + "the resume PSN " + resume + " before any new PSN)", "a first transmission (" + next + ")", frame,
                    basis);
            }
        }
        return null;
    }

    /** When the last wait ended (its end time), or {@link Long#MIN_VALUE} before any. */
    public long endedAt() {
        return endedAt;
    }
}

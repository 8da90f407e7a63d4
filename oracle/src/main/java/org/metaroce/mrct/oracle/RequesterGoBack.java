package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.Psn;

/**
 * Go-back-N recovery of a TVer 0 requester (section 16), fed in time order with the NAKs it took and the requests it
 * sent: after a NAK 0x60 for PSN p it sends again every PSN it had sent from p on, in increasing order, before any new
 * PSN (MR-LEG-008); without a NAK, a retransmission is a timeout's, which sends again every in-flight PSN from una on,
 * in order (MR-LEG-009), and cannot come sooner than the shortest retransmission timeout (rto_low_ns) after the timer
 * last started. An RNR NAK's wait ends with the retransmission of its PSN, which is no timeout's.
 *
 * <p>Both judges feed it: the live engine's {@code RequesterChecker} (the PSNs it learnt from the answers the harness
 * sent, una exact, the QP's rto_low_ns less its tolerance) and the analyzer's {@code RequesterStream} (the capture's
 * PSN ring, una as the capture shows it and, within the reaction time of a change, the PSNs it moved over, the lenient
 * end of rto_low_ns's range). What each knows of its PSNs is its {@link Psns} view; PSNs are absolute or relative as
 * the caller numbers them, consistently.
 */
public final class RequesterGoBack {
    public static final String NAK_RULE = "MR-LEG-008";
    public static final String TIMEOUT_RULE = "MR-LEG-009";

    /** What the caller knows of the requester's PSNs. */
    public interface Psns {
        /** Whether {@code psn} was sent and is not known delivered. */
        boolean owed(int psn);

        /** The most PSNs from one point the view can answer for (a ring's capacity). */
        default int reach() {
            return Integer.MAX_VALUE;
        }
    }

    /**
     * Una as the caller knows it when a retransmission comes: {@code una}, and {@code lowest} (at most una) the lowest
     * PSN also taken for una (it moved over it so recently that the requester may not have learnt it yet);
     * {@code timerStartNs} the latest moment the caller knows the retransmission timer (re)started, or
     * {@code Long.MIN_VALUE}.
     */
    public record Una(int una, int lowest, long timerStartNs) {
    }

    /** How a recovery broke its rule. */
    public enum Kind {
        /** MR-LEG-008: a new PSN sent before every PSN the NAK asked for was sent again. */
        NEW_BEFORE_RESENT,
        /** MR-LEG-008: after the NAK, a PSN sent again before an earlier one the NAK asked for. */
        SKIPPED_AFTER_NAK,
        /** MR-LEG-009: within a timeout's round, a PSN sent again before an earlier in-flight one. */
        SKIPPED_IN_ROUND,
        /** MR-LEG-009: a retransmission no NAK 0x60 asked for that does not start at una. */
        NOT_FROM_UNA,
        /** MR-LEG-009: a retransmission no NAK 0x60 asked for, sooner than rto_low_ns after the timer started. */
        EARLY
    }

    /**
     * One violation: its {@link Finding}, its kind, the PSN sent and the PSN owed before it (una for
     * {@link Kind#NOT_FROM_UNA}), the NAK that asked (its PSN, frame and the end of the PSNs it asked for, exclusive)
     * for MR-LEG-008, the time waited and the timeout for {@link Kind#EARLY}.
     */
    public record Violation(Kind kind, Finding finding, int psn, int owed, int nakPsn, long nakFrame, int nakUpTo,
                            long waitedNs, long rtoNs) {
    }

    private boolean nakActive;
    private int nakCursor;
    private int nakUpTo;
    private long nakNs;
    private long nakFrame;
    private int nakPsn;
    private boolean roundActive;
    private int roundCursor;
    private long lastRoundNs = Long.MIN_VALUE;
    private boolean rnrKnown;
    private int rnrPsn;

    /** Forgets everything: a new incarnation of the QP. */
    public void restart() {
        nakActive = false;
        roundActive = false;
        rnrKnown = false;
        lastRoundNs = Long.MIN_VALUE;
    }

    /** Whether a NAK 0x60's go-back is still owed: the next retransmission is its (MR-LEG-008), not a timeout's. */
    public boolean recovering() {
        return nakActive;
    }

    /**
     * A NAK 0x60 for PSN {@code psn}, in flight, that the requester took at {@code timeNs}, {@code next} the PSN its
     * next first transmission would carry: every sent PSN from {@code psn} to {@code next} is owed again first.
     */
    public void onNak(final int psn, final int next, final long timeNs, final long frame) {
        nakActive = true;
        nakPsn = psn;
        nakCursor = psn;
        nakUpTo = next;
        nakNs = timeNs;
        nakFrame = frame;
        roundActive = false;
    }

    /** An RNR NAK for PSN {@code psn} that the requester took: the retransmission of that PSN ends its wait. */
    public void onRnrNak(final int psn) {
        rnrKnown = true;
        rnrPsn = psn;
    }

    /**
     * A first transmission of {@code psn} at {@code timeNs}: MR-LEG-008 when a NAK's go-back is still owed and the NAK
     * is more than {@code slackNs} old. Null otherwise; within the slack the requester may have sent the PSN before it
     * took the NAK (the two crossed on the link), and then the NAK asks for it again too: the go-back owed extends to
     * it.
     */
    public Violation onFirstTransmission(final int psn, final long timeNs, final long slackNs, final Psns psns,
                                         final long frame, final Basis basis) {
        if (!nakActive) {
            return null;
        }
        if (timeNs <= nakNs + slackNs) {
            if (!Psn.isBefore(psn, nakUpTo)) {
                nakUpTo = Psn.add(psn, 1);
            }
            return null;
        }
        nakActive = false;
        final int owed = firstOwed(nakCursor, nakUpTo, psns);
        if (owed < 0) {
            return null;
        }
        return new Violation(Kind.NEW_BEFORE_RESENT, new Finding(NAK_RULE, "bth.psn", "a retransmission of " + owed,
            "new PSN " + psn, frame, basis), psn, owed, nakPsn, nakFrame, nakUpTo, 0, 0);
    }

    /**
     * A retransmission of {@code psn} at {@code timeNs}: the next of a NAK's go-back (MR-LEG-008), of a timeout's
     * round (MR-LEG-009), or the first of a round, which must start at una no sooner than {@code rtoNs} after the timer
     * started (MR-LEG-009), unless it ends an RNR wait. Null when it meets the rules.
     */
    public Violation onRetransmission(final int psn, final long timeNs, final Una una, final long rtoNs,
                                      final Psns psns, final long frame, final Basis basis) {
        if (nakActive) {
            Violation found = null;
            if (Psn.isAfter(psn, nakCursor)) {
                final int owed = firstOwed(nakCursor, psn, psns);
                if (owed >= 0) {
                    found = new Violation(Kind.SKIPPED_AFTER_NAK, new Finding(NAK_RULE, "bth.psn",
                        Integer.toString(owed), Integer.toString(psn), frame, basis), psn, owed, nakPsn, nakFrame,
                        nakUpTo, 0, 0);
                }
            }
            nakCursor = Psn.add(psn, 1);
            if (!Psn.isBefore(nakCursor, nakUpTo)) {
                nakActive = false;
            }
            return found;
        }
        if (roundActive && psn == roundCursor) {
            roundCursor = Psn.add(psn, 1);
            return null;
        }
        if (roundActive && Psn.isAfter(psn, roundCursor)) {
            final int owed = firstOwed(roundCursor, psn, psns);
            roundCursor = Psn.add(psn, 1);
            return owed < 0 ? null : new Violation(Kind.SKIPPED_IN_ROUND, new Finding(TIMEOUT_RULE, "bth.psn",
                Integer.toString(owed), Integer.toString(psn), frame, basis), psn, owed, -1, -1, -1, 0, 0);
        }
        return startRound(psn, timeNs, una, rtoNs, frame, basis);
    }

    /** A retransmission that no NAK 0x60 asked for and no round explains: a timeout (or the end of an RNR wait). */
    private Violation startRound(final int psn, final long timeNs, final Una una, final long rtoNs, final long frame,
                                 final Basis basis) {
        final boolean fromUna = psn == una.una()
            || !Psn.isBefore(psn, una.lowest()) && !Psn.isAfter(psn, una.una());
        final boolean fromRnr = rnrKnown && psn == rnrPsn;
        roundActive = true;
        roundCursor = Psn.add(psn, 1);
        final long timerStart = Math.max(una.timerStartNs(), lastRoundNs);
        lastRoundNs = timeNs;
        if (fromRnr) {
            rnrKnown = false;
            return null;
        }
        if (!fromUna && Psn.isAfter(psn, una.una())) {
            return new Violation(Kind.NOT_FROM_UNA, new Finding(TIMEOUT_RULE, "bth.psn", "una = " + una.una(),
                Integer.toString(psn), frame, basis), psn, una.una(), -1, -1, -1, 0, 0);
        }
        final long waited = timeNs - timerStart;
        if (timerStart != Long.MIN_VALUE && waited < rtoNs) {
            return new Violation(Kind.EARLY, new Finding(TIMEOUT_RULE, "time since the timer started", "at least "
                + rtoNs + " ns", waited + " ns", frame, basis), psn, una.una(), -1, -1, -1, waited, rtoNs);
        }
        return null;
    }

    /** The lowest PSN of {@code [from, to)} that was sent and is not delivered, or -1. */
    private static int firstOwed(final int from, final int to, final Psns psns) {
        final int n = Math.min(Psn.distance(from, to), psns.reach());
        for (int i = 0; i < n; i++) {
            final int psn = Psn.add(from, i);
            if (psns.owed(psn)) {
                return psn;
            }
        }
        return -1;
    }
}

package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.Psn;

/**
 * The acknowledgements of a TVer 0 responder (section 16), fed in the order it sent them: MR-LEG-003 (one NAK 0x60 per
 * hole: after a NAK 0x60 for ePSN, none again until a packet at ePSN was accepted, which moves the cumulative point)
 * and MR-LEG-002 as an acknowledgement shows it (a TVer 0 responder accepts only the packet at ePSN, so its
 * acknowledgements cover only PSNs the requester sent).
 *
 * <p>Both judges use it, for both rules: the live engine on every TVer 0 ACKNOWLEDGE the device sends
 * ({@code LiveOracle}: {@link #onAcknowledge} and {@link #onCoverage}, against what the harness sent) and
 * {@code mrct analyze} ({@code Answers}: {@link #onNak60}, and {@link SentPsns} against what the capture shows sent,
 * {@link #coversUnsent} naming what a PSN never sent breaks). PSNs are as the caller numbers them, consistently.
 */
public final class LegacyAnswers {
    public static final String IN_ORDER_RULE = "MR-LEG-002";
    public static final String NAK_RULE = "MR-LEG-003";

    /** A second NAK 0x60 for the same ePSN: the finding and the frame of the first. */
    public record RepeatedNak(Finding finding, long firstFrame) {
    }

    private boolean cumulativeKnown;
    private int cumulative;
    private boolean nakKnown;
    private int nakPsn;
    private int nakCumulative;
    private long nakFrame;
    /** Every PSN before this one was checked as covered by some acknowledgement ({@link #onCoverage}). */
    private boolean coveredKnown;
    private int coveredUpTo;

    /** Forgets everything: a new incarnation of the QP (its ePSN set again on entry into RTR). */
    public void restart() {
        cumulativeKnown = false;
        nakKnown = false;
        coveredKnown = false;
    }

    /**
     * MR-LEG-002 on an ACKNOWLEDGE the responder sent with {@code syndrome} and {@code psn} (its bth.psn), for a caller
     * that knows every request it sent since the QP's ePSN was set to {@code firstPsn}: an ACK covers every PSN up to
     * bth.psn, a NAK 0x60 those before bth.psn (ePSN), other NAKs none. The PSNs newly covered (from the point an
     * earlier acknowledgement reached, else {@code firstPsn}) are asked of {@code sent}: the finding for the first one
     * never sent that some later request follows (a hole the responder went past: it took a packet after ePSN), else
     * null. An acknowledgement reaching only beyond every request sent shows a wrong bth.psn, not a packet taken out
     * of order (MR-LEG-005's ePSN - 1, MR-ACK-001), and is left to the caller's expectations of that rule; one seen
     * only with a wrong ICRC is MR-WIRE-015's.
     */
    public Finding onCoverage(final int syndrome, final int psn, final int firstPsn, final SentPsns.View sent,
                              final long frame, final Basis basis) {
        final boolean nak60 = syndrome == 0x60;
        if ((syndrome & 0xE0) != 0 && !nak60) {
            return null;
        }
        final int point = nak60 ? psn : Psn.add(psn, 1);
        int from = coveredKnown ? coveredUpTo : firstPsn;
        if (Psn.isBefore(from, firstPsn)) {
            from = firstPsn;
        }
        final SentPsns tally = new SentPsns().span(sent, from, point);
        if (!coveredKnown || Psn.isAfter(point, coveredUpTo)) {
            coveredUpTo = point;
            coveredKnown = true;
        }
        return tally.neverSent() == 0 || sent.noneFrom(tally.firstNeverSent()) ? null
            : coversUnsent(Integer.toString(tally.firstNeverSent()), frame, basis);
    }

    /**
     * An ACKNOWLEDGE the responder sent with {@code syndrome} and {@code psn} (its bth.psn), for a caller that has no
     * cumulative point of its own: an ACK acknowledges up to bth.psn, a NAK 0x60 names ePSN, the first PSN not
     * received; the point never moves back here (a frame that moves it back is another rule's). MR-LEG-003 as
     * {@link #onNak60}.
     */
    public RepeatedNak onAcknowledge(final int syndrome, final int psn, final long frame, final Basis basis) {
        final boolean nak60 = syndrome == 0x60;
        if ((syndrome & 0xE0) == 0 || nak60) {
            final int point = nak60 ? psn : Psn.add(psn, 1);
            if (!cumulativeKnown || !Psn.isBefore(point, cumulative)) {
                cumulative = point;
                cumulativeKnown = true;
            }
        }
        return nak60 ? onNak60(psn, cumulative, frame, basis) : null;
    }

    /**
     * A NAK 0x60 for ePSN {@code psn}, the responder's cumulative point (as the caller follows it, this NAK's
     * included) being {@code point}: MR-LEG-003's finding when the previous NAK 0x60 named the same PSN and the point
     * has not moved since (no packet at ePSN accepted in between), else null.
     */
    public RepeatedNak onNak60(final int psn, final int point, final long frame, final Basis basis) {
        final RepeatedNak found = nakKnown && nakPsn == psn && nakCumulative == point
            ? new RepeatedNak(new Finding(NAK_RULE, "aeth.syndrome", "no second NAK 0x60 for ePSN " + psn, "0x60",
                frame, basis), nakFrame) : null;
        nakKnown = true;
        nakPsn = psn;
        nakCumulative = point;
        nakFrame = frame;
        return found;
    }

    /**
     * MR-LEG-002: a TVer 0 acknowledgement covers PSN {@code psn} (as the caller prints PSNs), which the requester
     * never sent: the responder took a packet after ePSN.
     */
    public static Finding coversUnsent(final String psn, final long frame, final Basis basis) {
        return new Finding(IN_ORDER_RULE, "bth.psn", "only PSNs sent", "covers " + psn, frame, basis);
    }
}

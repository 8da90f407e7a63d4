package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.Psn;

/**
 * The PSNs a requester sends for the first time (MR-REQ-001 to MR-REQ-003): the first request after RTS carries
 * sq_psn, each message follows the span of the one before, each PSN is sent for the first time in increasing order.
 * The caller states the next PSN to send (one past the highest sent for the first time, a READ's span included) and
 * places each request against it ({@link #place}); PSNs as the caller names them, compared in 24-bit arithmetic.
 *
 * <p>A PSN sent ahead of the next leaves a hole, and breaks MR-REQ-003 whether the skipped PSNs come later or never
 * (spec v1.1, change 19: MR-REQ-002 governs the PSNs given to each message). Both judges name it through
 * {@link #skipped}: the live engine, which saw every frame, at once ({@link #firstTransmission}, or MR-REQ-001 on the
 * first request); {@code mrct analyze}, which may have missed the skipped PSNs, only for a hole that never fills (a
 * skipped PSN seen sent later is {@link #late}, MR-REQ-003 as well).
 */
public final class RequesterOrder {
    /** The first request after RTS carries sq_psn. */
    public static final String FIRST_RULE = "MR-REQ-001";
    /** Consecutive PSNs, each message right after the span of the one before. */
    public static final String CONSECUTIVE_RULE = "MR-REQ-002";
    /** First transmissions in increasing PSN order. */
    public static final String ORDER_RULE = "MR-REQ-003";

    /** Where a request's PSN lies against the next PSN to send. */
    public enum Place {
        /** The next PSN: a first transmission in order. */
        NEXT,
        /** After the next PSN: a first transmission that skips PSNs. */
        AHEAD,
        /** Before the next PSN: a retransmission, or a first transmission out of order. */
        BEHIND
    }

    private RequesterOrder() {
    }

    /** Where {@code psn} lies against {@code next}. */
    public static Place place(final int next, final int psn) {
        final int d = Psn.diff(psn, next);
        return d == 0 ? Place.NEXT : d > 0 ? Place.AHEAD : Place.BEHIND;
    }

    /**
     * The finding on a first transmission at {@code psn} when the next PSN to send is {@code next}, or null when it is
     * that one: on the QP's first request ({@code first}, the caller knowing sq_psn) MR-REQ-001, else MR-REQ-003.
     */
    public static Finding firstTransmission(final int next, final int psn, final boolean first, final long frame,
                                            final Basis basis) {
        if (psn == next) {
            return null;
        }
        return first ? new Finding(FIRST_RULE, "bth.psn", next + " (sq_psn)", Integer.toString(psn), frame, basis)
            : skipped(next, psn, frame, basis);
    }

    /**
     * MR-REQ-003 on the first transmission of {@code psn} while {@code next}, a lower PSN, was never sent: the skip,
     * judged the same by the live engine (at the frame) and by {@code mrct analyze} (once the hole stays unfilled).
     */
    public static Finding skipped(final int next, final int psn, final long frame, final Basis basis) {
        return new Finding(ORDER_RULE, "bth.psn", next + " (the next PSN to send)", Integer.toString(psn), frame,
            basis);
    }

    /**
     * The finding on a request at {@code psn} that no message covers ({@code span}: the PSNs the messages cover, in
     * words): MR-REQ-001 on the QP's first request, else MR-REQ-002.
     */
    public static Finding outsideMessages(final int psn, final String span, final boolean first, final long frame,
                                          final Basis basis) {
        return new Finding(first ? FIRST_RULE : CONSECUTIVE_RULE, "bth.psn", span, Integer.toString(psn), frame,
            basis);
    }

    /**
     * MR-REQ-002 on a request at {@code psn}, after the first PSN of a READ whose span is {@code first..last}, that is
     * not a request for the rest of that READ ({@code readRequest} false: another opcode; {@code sameMessage} false:
     * another message's pleth.msn): a later message given PSNs the READ's responses use (a READ REQUEST of L bytes
     * uses max(1, ceil(L / PMTU)) PSNs), or null.
     */
    public static Finding insideReadSpan(final int psn, final int first, final int last, final boolean readRequest,
                                         final boolean sameMessage, final long frame, final Basis basis) {
        if (Psn.diff(psn, first) <= 0 || Psn.diff(psn, last) > 0 || readRequest && sameMessage) {
            return null;
        }
        return new Finding(CONSECUTIVE_RULE, "bth.psn", "after " + last + " (the end of the READ's span " + first
            + ".." + last + ")", Integer.toString(psn), frame, basis);
    }

    /** MR-REQ-003 on PSN {@code psn} sent for the first time after {@code highest}, a higher PSN. */
    public static Finding late(final int highest, final int psn, final long frame, final Basis basis) {
        return new Finding(ORDER_RULE, "bth.psn", "after " + highest, Integer.toString(psn), frame, basis);
    }
}

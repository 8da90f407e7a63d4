package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.Psn;

/**
 * Which of the PSNs an acknowledgement covers were never sent (MR-ACK-002 for a SACK, MR-LEG-002 for a TVer 0
 * acknowledgement) or reached the responder only with a wrong ICRC (MR-WIRE-015): the one place that decides it. The
 * judge says what it knows of each PSN through a {@link View}; a PSN it cannot tell about (before its record starts,
 * inside a READ's span) is {@link Sent#SENT_OR_UNKNOWN}, so that only a sure gap is a finding.
 *
 * <p>Both judges use it: {@code mrct analyze} ({@code Answers}, from what the capture shows sent) and the live engine
 * (on every TVer 0 acknowledgement the device sends, from what the harness sent, through {@link LegacyAnswers}). A
 * tally is filled by {@link #span} (a cumulative range) and {@link #one} (a SACK bit); PSNs are as the caller numbers
 * them, consistently.
 */
public final class SentPsns {
    /** What the judge knows of one PSN. */
    public enum Sent {
        /** Sent with a right ICRC, or the judge cannot tell. */
        SENT_OR_UNKNOWN,
        /** Surely never sent. */
        NEVER_SENT,
        /** Sent, but every copy seen had a wrong ICRC, which a receiver drops. */
        BAD_ICRC_ONLY
    }

    /** The judge's record of the PSNs sent. */
    public interface View {
        /** What is known of {@code psn}. */
        Sent of(int psn);

        /**
         * Whether {@code psn}, found {@link Sent#NEVER_SENT}, and every PSN after it were never sent, so that the rest
         * of a range is counted without asking about each; false when unsure.
         */
        default boolean noneFrom(final int psn) {
            return false;
        }
    }

    private int neverSent;
    private int firstNeverSent;
    private int badIcrc;
    private int firstBadIcrc;

    /** Starts over: nothing counted, for a tally reused acknowledgement after acknowledgement. */
    public SentPsns clear() {
        neverSent = 0;
        firstNeverSent = 0;
        badIcrc = 0;
        firstBadIcrc = 0;
        return this;
    }

    /** Counts the PSNs in {@code [from, to)} (nothing when {@code to} is not after {@code from}). */
    public SentPsns span(final View view, final int from, final int to) {
        final int n = Psn.distance(from, to);
        if (n <= 0 || n >= Psn.HALF) {
            return this;
        }
        for (int i = 0; i < n; i++) {
            final int psn = Psn.add(from, i);
            final Sent sent = one(view, psn);
            if (sent == Sent.NEVER_SENT && view.noneFrom(psn)) {
                neverSent += n - i - 1;
                break;
            }
        }
        return this;
    }

    /** Counts one PSN (a bit of a SACK bitmap, or a step of {@link #span}) and says what it is. */
    public Sent one(final View view, final int psn) {
        final Sent sent = view.of(psn);
        if (sent == Sent.NEVER_SENT && neverSent++ == 0) {
            firstNeverSent = psn;
        } else if (sent == Sent.BAD_ICRC_ONLY && badIcrc++ == 0) {
            firstBadIcrc = psn;
        }
        return sent;
    }

    /** How many PSNs counted were never sent. */
    public int neverSent() {
        return neverSent;
    }

    /** The first PSN counted that was never sent (meaningful when {@link #neverSent} is above 0). */
    public int firstNeverSent() {
        return firstNeverSent;
    }

    /** How many PSNs counted were seen only with a wrong ICRC. */
    public int badIcrc() {
        return badIcrc;
    }

    /** The first PSN counted that was seen only with a wrong ICRC (meaningful when {@link #badIcrc} is above 0). */
    public int firstBadIcrc() {
        return firstBadIcrc;
    }
}

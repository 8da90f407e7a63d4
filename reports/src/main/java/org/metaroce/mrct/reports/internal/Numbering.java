package org.metaroce.mrct.reports.internal;

/**
 * The one numbering every report shows. The result model counts from 0 (a step's index in its case, a frame's index in
 * the case's evidence); what people read counts from 1: step 1 is the case's first step, as the terminal and the
 * case's reason say, and a frame is named by its number in {@code evidence.pcapng}, the number Wireshark shows (and
 * {@code frame.number} filters on), with its 0-based index in the case beside it.
 */
public final class Numbering {
    private Numbering() {
    }

    /** The 1-based number of the step at {@code index}, 0 when the index is negative (not tied to a step). */
    public static int step(final int index) {
        return index < 0 ? 0 : index + 1;
    }

    /**
     * The number Wireshark gives the case's frame {@code index} in {@code evidence.pcapng}, when the file held
     * {@code base} packets before the case's first frame; -1 when either is unknown (negative).
     */
    public static long pcapngFrame(final long base, final int index) {
        return base < 0 || index < 0 ? -1 : base + index + 1;
    }

    /**
     * Which frame, as the text reports put it after {@code frame: }: {@code 263862 in evidence.pcapng (#3 of the
     * case)}, or {@code #3 of the case} when the file's number is not known.
     */
    public static String frame(final long pcapngFrame, final int index) {
        if (pcapngFrame > 0) {
            return pcapngFrame + " in evidence.pcapng (#" + index + " of the case)";
        }
        return "#" + index + " of the case";
    }
}

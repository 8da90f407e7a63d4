package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;

/**
 * Turns what the checks see into findings: a violation when the frames prove it, otherwise a reason the check is
 * inconclusive ({@link Basis}). It also drops findings about frames that are not judged (in an mrct evidence file, the
 * frames the harness sent on purpose), and builds a finding's text and frame copies only when the check's tally will
 * keep them.
 */
final class Judge {
    /** Text built only when needed. */
    @FunctionalInterface
    interface Text {
        String get();
    }

    private final boolean complete;
    private final boolean atDevice;
    private final boolean declared;

    /**
     * @param complete every frame of both directions is in the capture, once, from each connection's start
     * @param atDevice the judged frames were captured at the device that sent them (mrct evidence)
     * @param declared the parameters are a profile's declarations, not the defaults
     */
    Judge(final boolean complete, final boolean atDevice, final boolean declared) {
        this.complete = complete;
        this.atDevice = atDevice;
        this.declared = declared;
    }

    boolean complete() {
        return complete;
    }

    boolean atDevice() {
        return atDevice;
    }

    /** True when a finding on this basis is a violation. */
    boolean proves(final Basis basis) {
        switch (basis) {
            case DEFINITE:
                return true;
            case CAPTURE_GAP:
            case CAPTURE_START:
            case CAPTURE_COPY:
                return complete;
            case NETWORK_ORDER:
                return atDevice;
            case PARAMETER:
                return declared;
            default:
                return false;
        }
    }

    /** Counts one observation of {@code check} on the connection, when the offending side is judged. */
    static void observe(final Connection connection, final Flow offender, final Check check) {
        if (offender.judged) {
            connection.observe(check, 1);
        }
    }

    /** A finding on the current frame, without related frames. */
    void report(final Connection connection, final Flow offender, final Check check, final Basis basis,
                final Frame frame, final Text message, final Text alternative, final FieldDiff... diffs) {
        report(connection, offender, check, basis, frame, null, message, alternative, diffs);
    }

    /**
     * A finding.
     *
     * @param connection  the connection the check runs on
     * @param offender    the flow whose sender the finding is about (nothing is reported when it is not judged)
     * @param check       the check
     * @param basis       what the finding rests on
     * @param frame       the offending frame (the current one), or null
     * @param related     copies of related frames, or null
     * @param message     what was seen, one sentence
     * @param alternative what could explain it instead, when the basis does not prove it; may be null
     * @param diffs       fields expected against actual
     */
    void report(final Connection connection, final Flow offender, final Check check, final Basis basis,
                final Frame frame, final List<FrameSnapshot> related, final Text message, final Text alternative,
                final FieldDiff... diffs) {
        if (!offender.judged) {
            return;
        }
        final boolean violation = proves(basis) && !connection.segmentDoubts(basis);
        final Tally tally = connection.tally(check);
        if (!tally.mentions(violation)) {
            tally.count(violation);
            return;
        }
        final String text = violation ? message.get() : connection.segmentDoubts(basis) && proves(basis)
            ? doubt(Basis.CAPTURE_START, message.get(), "the connection's state before or after this segment "
                + "was not kept (released when idle, or to bound the heap)") : doubt(basis, message.get(),
            alternative == null ? null : alternative.get());
        final List<FrameSnapshot> frames = new ArrayList<>(2);
        if (tally.keeps(violation)) {
            if (frame != null) {
                frames.add(FrameSnapshot.of(frame));
            }
            if (related != null) {
                frames.addAll(related);
            }
        }
        final long number = frame != null ? frame.number
            : related != null && !related.isEmpty() ? related.get(0).number() : 0;
        tally.add(new Finding(check, violation, number, text, List.of(diffs), frames));
    }

    /** The sentence of an inconclusive finding: what was seen, and why it does not prove a violation. */
    static String doubt(final Basis basis, final String seen, final String alternative) {
        final String why;
        switch (basis) {
            case CAPTURE_GAP:
                why = "the capture may have missed a frame (--complete says it holds every frame)";
                break;
            case CAPTURE_START:
                why = "the capture may start mid-connection";
                break;
            case CAPTURE_COPY:
                why = "the capture may hold two copies of one frame (taken on both hosts or on two interfaces)";
                break;
            case NETWORK_ORDER:
                why = "the sender sprayed over several UDP source ports, so the capture order need not be the "
                    + "order sent";
                break;
            case PARAMETER:
                why = "this holds with the defaults of Appendix B, but the device may declare other values "
                    + "(--profile gives them)";
                break;
            case UNKNOWN_STATE:
                why = "it depends on state the capture does not show";
                break;
            default:
                why = "the capture cannot tell";
                break;
        }
        return seen + "; not a proven violation: " + why + (alternative != null ? ": " + alternative : "");
    }
}

package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;

/**
 * On real time, after a frame the case expected did not come within its window: what the device sent in the
 * {@link #LOOK_NANOS} that follow, kept in the case's evidence (noted "after the failure, not judged") and summed up in
 * one note, so that whoever reads a "no frame arrived" failure of a device on a live link can tell a frame that came
 * late (and how late) from one that never came. The verdict and its blame are decided before this looks: nothing it
 * sees changes them. On virtual time a missing frame is missing for good (the device's clock is the case's), so it
 * is not used there.
 */
final class AfterMissingFrame {
    /** How long the harness keeps listening after the expectation gave up. */
    static final long LOOK_NANOS = 20_000_000L;
    /** The most frames it takes (a requester's burst at line rate would be thousands in that time). */
    static final int MAX_FRAMES = 256;
    /** The note of the frames taken in that time. */
    static final String NOTE = "after the failure (not judged)";

    private AfterMissingFrame() {
    }

    /** Whether {@code failure} at {@code step} is an expected frame that did not come. */
    static boolean applies(final RuntimeException failure, final Step step) {
        return failure instanceof StepFailure f && f.frame < 0 && f.missingTemplate != null
            && (step instanceof Step.Expect || step instanceof Step.ExpectUnordered);
    }

    /**
     * Takes what the device sends from now for {@link #LOOK_NANOS} into {@code evidence} and returns the note that
     * sums it up.
     */
    static String look(final DataPlane data, final Evidence evidence) {
        final long from = data.now();
        final long until = from + LOOK_NANOS;
        int count = 0;
        String first = null;
        try {
            CapturedFrame frame;
            while (count < MAX_FRAMES && (frame = data.poll(until)) != null) {
                final byte[] bytes = frame.unsafeBytes();
                final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1, NOTE);
                if (count++ == 0) {
                    first = "#" + index + " (" + kind(bytes) + ") " + Timing.nanos(frame.timestampNanos() - from)
                        + " after the expectation gave up";
                }
            }
        } catch (RuntimeException e) {
            return "after the failure the harness could not go on listening: " + e.getMessage();
        }
        return count == 0 ? "after the failure the device sent nothing in the " + Timing.nanos(LOOK_NANOS)
            + " the harness went on listening (a frame never sent, or lost on the way)"
            : "after the failure the device sent " + count + " frame(s)" + (count == MAX_FRAMES ? " (the harness "
            + "stopped listening at " + MAX_FRAMES + ")" : "") + " in the " + Timing.nanos(LOOK_NANOS)
            + " the harness went on listening, the first " + first;
    }

    /** The opcode and PSN of a frame, or what the decoder says it is. */
    private static String kind(final byte[] bytes) {
        final DecodedFrame decoded = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        return decoded.isRoce() ? decoded.opcode().name() + " psn " + decoded.bth().psn() : decoded.status().toString();
    }
}

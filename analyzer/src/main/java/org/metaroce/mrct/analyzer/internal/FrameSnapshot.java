package org.metaroce.mrct.analyzer.internal;

import java.util.Arrays;
import java.util.Map;
import org.metaroce.mrct.wire.FrameDescription;

/**
 * A copy of a frame a finding names, taken when the finding is made (the analysed frame is reused afterwards): its
 * number and capture timestamp, the flow that sent it, its bytes and its decoded fields as {@code mrct decode} shows
 * them. Only findings take snapshots, and each check keeps a bounded number, so memory stays flat.
 *
 * @param number    1-based record number in its capture
 * @param tsNs      capture timestamp, nanoseconds since the epoch
 * @param flow      the flow that sent it
 * @param bytes     the frame as captured
 * @param decoded   the fields, as {@link FrameDescription#describe} gives them
 * @param cut       true when the capture cut the frame short (snap length)
 */
record FrameSnapshot(long number, long tsNs, Flow flow, byte[] bytes, Map<String, Object> decoded, boolean cut) {
    /** Copies the current frame. */
    static FrameSnapshot of(final Frame frame) {
        final byte[] bytes = frame.decoded.bytes();
        return new FrameSnapshot(frame.number, frame.tsNs, frame.flow, frame.cut ? trim(bytes, frame) : bytes,
            FrameDescription.describe(frame.decoded, frame.number, frame.tsNs), frame.cut);
    }

    /** A cut frame was decoded from a zero-filled copy of its original length; keep only the captured bytes. */
    private static byte[] trim(final byte[] bytes, final Frame frame) {
        return Arrays.copyOf(bytes, Math.min(bytes.length, frame.captured));
    }
}

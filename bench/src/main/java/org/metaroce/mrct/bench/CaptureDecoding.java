package org.metaroce.mrct.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.capture.CaptureReader;

/** Reads a capture, decodes every frame and verifies every RoCE frame's ICRC: the work that is measured. */
public final class CaptureDecoding {
    private CaptureDecoding() {
    }

    /**
     * What one pass found.
     *
     * @param frames    records read
     * @param roce      frames that decoded as RoCE
     * @param icrcValid RoCE frames whose ICRC verified
     * @param bytes     captured bytes of all frames
     */
    public record Counts(long frames, long roce, long icrcValid, long bytes) {
    }

    /** One pass over {@code file} with a fresh reader and the given decoder. */
    public static Counts pass(final Path file, final FrameDecoder decoder) throws IOException {
        long frames = 0;
        long roce = 0;
        long valid = 0;
        long bytes = 0;
        try (CaptureReader reader = CaptureReader.open(file)) {
            while (reader.next()) {
                frames++;
                bytes += reader.capturedLength();
                final DecodedFrame frame = decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength());
                if (frame.isRoce()) {
                    roce++;
                    if (frame.icrcValid()) {
                        valid++;
                    }
                }
            }
        }
        return new Counts(frames, roce, valid, bytes);
    }
}

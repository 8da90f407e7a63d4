package org.metaroce.mrct.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * Writes a nanosecond pcap of {@link BenchFrames} frames (frame n has PSN n mod 2^24, its own VA and payload), one
 * microsecond apart: about 1.1 GB per million frames.
 */
public final class CaptureGenerator {
    /** First timestamp: 2024-01-01T00:00:00Z. */
    private static final long START_NANOS = 1_704_067_200_000_000_000L;

    private CaptureGenerator() {
    }

    /** Writes {@code count} frames to {@code file} (created or truncated). */
    public static void write(final Path file, final int count) throws IOException {
        final BenchFrames frames = new BenchFrames();
        final ByteBuffer frame = ByteBuffer.allocate(BenchFrames.FRAME_LENGTH);
        final byte[] payload = new byte[BenchFrames.PAYLOAD];
        try (PcapWriter writer = PcapWriter.create(file,
                PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            for (int n = 0; n < count; n++) {
                BenchFrames.fillPayload(payload, n);
                frames.write(frame, 0, n, payload);
                writer.write(START_NANOS + n * 1_000L, frame, 0, BenchFrames.FRAME_LENGTH);
            }
        }
    }
}

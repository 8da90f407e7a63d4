package org.metaroce.mrct.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code java -cp benchmarks.jar org.metaroce.mrct.bench.GenerateCapture FILE [FRAMES]}: writes a pcap of FRAMES
 * (default 1,000,000) RoCEv2 RDMA WRITE ONLY frames with 1 KiB of payload, for {@code bench/tshark-compare.sh}.
 */
public final class GenerateCapture {
    private GenerateCapture() {
    }

    /** Entry point. */
    public static void main(final String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: GenerateCapture FILE [FRAMES]");
            System.exit(2);
        }
        final Path file = Path.of(args[0]);
        final int frames = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        final long start = System.nanoTime();
        CaptureGenerator.write(file, frames);
        System.out.printf("wrote %d frames of %d bytes (%d bytes in all) to %s in %.1f s%n", frames,
            BenchFrames.FRAME_LENGTH, Files.size(file), file, (System.nanoTime() - start) / 1e9);
    }
}

package org.metaroce.mrct.bench;

import java.io.IOException;
import java.nio.file.Path;
import org.metaroce.mrct.wire.FrameDecoder;

/**
 * {@code java -cp benchmarks.jar org.metaroce.mrct.bench.DecodeThroughput FILE [PASSES]}: reads, decodes and
 * ICRC-verifies every frame of FILE PASSES times (default 3) and prints the rate of each pass, then one summary line
 * {@code first_pass_fps=... best_fps=... frames=... roce=... icrc_valid=...} for scripts. The first pass includes the
 * JIT's warm-up (but not the JVM's start); later passes show the steady state. Exits with 1 when a RoCE frame's ICRC
 * does not verify.
 */
public final class DecodeThroughput {
    private DecodeThroughput() {
    }

    /** Entry point. */
    public static void main(final String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: DecodeThroughput FILE [PASSES]");
            System.exit(2);
        }
        final Path file = Path.of(args[0]);
        final int passes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        if (passes < 1) {
            System.err.println("PASSES must be at least 1");
            System.exit(2);
        }
        final FrameDecoder decoder = new FrameDecoder();
        double first = 0;
        double best = 0;
        CaptureDecoding.Counts counts = null;
        for (int pass = 1; pass <= passes; pass++) {
            final long start = System.nanoTime();
            counts = CaptureDecoding.pass(file, decoder);
            final double seconds = (System.nanoTime() - start) / 1e9;
            final double rate = counts.frames() / seconds;
            first = pass == 1 ? rate : first;
            best = Math.max(best, rate);
            System.out.printf("pass %d: %d frames in %.3f s: %.0f frames/s, %.0f MB/s%n", pass, counts.frames(),
                seconds, rate, counts.bytes() / seconds / 1e6);
        }
        System.out.printf("first_pass_fps=%.0f best_fps=%.0f frames=%d roce=%d icrc_valid=%d%n", first, best,
            counts.frames(), counts.roce(), counts.icrcValid());
        if (counts.icrcValid() != counts.roce()) {
            System.exit(1);
        }
    }
}

package org.metaroce.mrct.analyzer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code java -cp mrct.jar org.metaroce.mrct.analyzer.GenerateTraffic FILE [FRAMES] [clean|eventful|connections] [SEED]}:
 * writes a conforming MetaRoCE v1 conversation ({@link TrafficGenerator}) of about FRAMES frames (default 1,000,000)
 * to a nanosecond pcap, for {@code bench/analyze-compare.sh} and for trying {@code mrct analyze}; {@code connections}
 * writes FRAMES one-frame connections instead (memory per connection), 1 us apart ({@code connections:NS}: NS ns
 * apart, so that most are idle longer than the release window, docs/analyze-at-scale.md); {@code clean:N} and {@code eventful:N} write N
 * independent host pairs' conversations merged in time order ({@link TrafficGenerator#writePairs}).
 */
public final class GenerateTraffic {
    private GenerateTraffic() {
    }

    /** Entry point; prints one line with what it wrote. */
    public static void main(final String[] args) throws IOException {
        if (args.length < 1 || args.length > 4) {
            System.err.println("usage: GenerateTraffic FILE [FRAMES] [clean|eventful|connections[:NS]|clean:PAIRS"
                + "|eventful:PAIRS] [SEED]");
            System.exit(2);
        }
        final Path file = Path.of(args[0]);
        final long frames = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
        final boolean eventful = args.length > 2 && "eventful".equals(args[2]);
        final long seed = args.length > 3 ? Long.decode(args[3]) : 1;
        final long start = System.nanoTime();
        if (args.length > 2 && args[2].startsWith("connections")) {
            final long spacing = args[2].startsWith("connections:") ? Long.parseLong(args[2].substring(12)) : 1_000;
            TrafficGenerator.writeConnections(file, (int) Math.min(Integer.MAX_VALUE, frames), seed, spacing);
            System.out.printf("wrote %d one-frame connections %d ns apart (seed %d; %d bytes) to %s%n", frames,
                spacing, seed, Files.size(file), file);
            return;
        }
        final String kind = args.length > 2 ? args[2] : "clean";
        final int pairs = kind.contains(":") ? Integer.parseInt(kind.substring(kind.indexOf(':') + 1)) : 0;
        final boolean eventfulKind = eventful || kind.startsWith("eventful:");
        final TrafficGenerator.Options options = eventfulKind ? TrafficGenerator.Options.eventful(frames, seed)
            : TrafficGenerator.Options.clean(frames, seed);
        final long written = pairs > 0 ? TrafficGenerator.writePairs(file, options, pairs)
            : TrafficGenerator.write(file, options);
        System.out.printf("wrote %d frames (%s, seed %d; %d bytes) to %s in %.1f s%n", written,
            kind, seed, Files.size(file), file, (System.nanoTime() - start) / 1e9);
    }
}

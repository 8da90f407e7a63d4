package org.metaroce.mrct.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code /usr/bin/time java -cp benchmarks.jar org.metaroce.mrct.bench.FileReadCost read|map FILE}: what it costs to
 * bring a capture's bytes (already in the page cache) into the process, the way {@code mrct analyze} reads it
 * ({@code read}: {@link FileChannel#read} into one reused 1 MiB direct buffer, as the capture reader refills its window)
 * or mapped ({@code map}: the file mapped 1 GiB at a time). Either way one long every 64 bytes is read and summed, so
 * that every cache line is touched once and nothing more is done with it; the sum is printed so that it is not
 * optimised away. The figures to compare are the process's user and system CPU from {@code /usr/bin/time} (the kernel's
 * copy is system time for {@code read}; page faults are system time for {@code map} and reading the mapped pages from
 * memory is user time). Run each a few times, alternated, once the file is in the page cache.
 */
public final class FileReadCost {
    private static final int BUFFER = 1 << 20;
    private static final long MAP_CHUNK = 1L << 30;

    private FileReadCost() {
    }

    /** Entry point. */
    public static void main(final String[] args) throws IOException {
        if (args.length != 2 || !args[0].equals("read") && !args[0].equals("map")) {
            System.err.println("usage: FileReadCost read|map FILE");
            System.exit(2);
        }
        final long start = System.nanoTime();
        long sum = 0;
        try (FileChannel channel = FileChannel.open(Path.of(args[1]))) {
            final long size = channel.size();
            if (args[0].equals("map")) {
                for (long position = 0; position < size; position += MAP_CHUNK) {
                    final long length = Math.min(MAP_CHUNK, size - position);
                    final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, position, length);
                    for (int i = 0; i + 8 <= length; i += 64) {
                        sum += mapped.getLong(i);
                    }
                }
            } else {
                final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
                while (channel.read(buffer) > 0) {
                    buffer.flip();
                    final int limit = buffer.limit();
                    for (int i = 0; i + 8 <= limit; i += 64) {
                        sum += buffer.getLong(i);
                    }
                    buffer.clear();
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s %s: %.2f s wall, sum %d, load average %.1f%n", args[0], args[1],
            (System.nanoTime() - start) / 1e9, sum, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}

package org.metaroce.mrct.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The limit for {@link DecodeBenchmark}: a bare {@link CRC32} over every byte of the same frames from the same ring,
 * with no parsing and no masking. One operation is one frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Crc32Benchmark {
    private final CRC32 crc = new CRC32();
    private byte[] frames;
    private int next;

    /** Builds the ring. */
    @Setup
    public void setUp() {
        frames = BenchFrames.ring(DecodeBenchmark.RING).array();
    }

    /** CRC-32 of the next frame. */
    @Benchmark
    public long crc32() {
        final int i = next;
        next = (i + 1) & (DecodeBenchmark.RING - 1);
        crc.reset();
        crc.update(frames, i * BenchFrames.FRAME_LENGTH, BenchFrames.FRAME_LENGTH);
        return crc.getValue();
    }

    /** The ring as a buffer, for tests. */
    ByteBuffer ring() {
        return ByteBuffer.wrap(frames);
    }
}

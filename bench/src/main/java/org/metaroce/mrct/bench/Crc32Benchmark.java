package org.metaroce.mrct.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.metaroce.mrct.wire.Icrc;
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
 * with no parsing and no masking; and beside it the ICRC alone ({@link Icrc} at the frames' known offsets, no
 * decoding), to show what the ICRC costs over the bare CRC. One operation is one frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class Crc32Benchmark {
    /** Offsets in a frame (RoCEv2 over untagged IPv4 without options): IP header, UDP header, BTH. */
    private static final int IP = 14;
    private static final int UDP = IP + 20;
    private static final int BTH = UDP + 8;

    private final CRC32 crc = new CRC32();
    private final Icrc icrc = new Icrc();
    private byte[] frames;
    private ByteBuffer buffer;
    private int next;

    /** Builds the ring. */
    @Setup
    public void setUp() {
        buffer = BenchFrames.ring(DecodeBenchmark.RING);
        frames = buffer.array();
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

    /** The ICRC of the next frame (the covered bytes: IP header to the ICRC, 1080 of the frame's 1098). */
    @Benchmark
    public int icrc() {
        final int i = next;
        next = (i + 1) & (DecodeBenchmark.RING - 1);
        final int frame = i * BenchFrames.FRAME_LENGTH;
        return icrc.compute(buffer, frame + IP, 20, false, frame + UDP, frame + BTH,
            frame + BenchFrames.FRAME_LENGTH - 4);
    }

    /** The ring as a buffer, for tests. */
    ByteBuffer ring() {
        return ByteBuffer.wrap(frames);
    }
}

package org.metaroce.mrct.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
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
 * Decoding plus ICRC verification of RoCEv2/IPv4 RDMA WRITE ONLY frames with 1 KiB of payload ({@link BenchFrames}),
 * taken in turn from a ring of 512 distinct frames (560 KiB, more than L2 holds). One operation is one frame, so the
 * score is frames per second; times {@link BenchFrames#FRAME_LENGTH} it is bytes per second. {@code decodeOnly} leaves
 * the ICRC out to show what the parsing costs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DecodeBenchmark {
    /** Frames in the ring (a power of two). */
    public static final int RING = 512;

    private final FrameDecoder decoder = new FrameDecoder();
    private ByteBuffer frames;
    private int next;

    /** Builds the ring. */
    @Setup
    public void setUp() {
        frames = BenchFrames.ring(RING);
    }

    /** Decodes the next frame and verifies its ICRC; true when it is a RoCE frame with a valid ICRC. */
    @Benchmark
    public boolean decodeAndVerify() {
        final DecodedFrame frame = decoder.decode(frames, nextOffset(), BenchFrames.FRAME_LENGTH);
        return frame.isRoce() && frame.icrcValid();
    }

    /** Decodes the next frame without the ICRC; returns its PSN. */
    @Benchmark
    public int decodeOnly() {
        final DecodedFrame frame = decoder.decode(frames, nextOffset(), BenchFrames.FRAME_LENGTH);
        return frame.bth().psn();
    }

    private int nextOffset() {
        final int i = next;
        next = (i + 1) & (RING - 1);
        return i * BenchFrames.FRAME_LENGTH;
    }
}

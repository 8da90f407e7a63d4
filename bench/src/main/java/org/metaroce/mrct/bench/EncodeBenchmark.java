package org.metaroce.mrct.bench;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.metaroce.mrct.wire.FrameBuilder;
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
 * Building the {@link BenchFrames} frame two ways: {@code flyweights} writes it allocation-free into one reused
 * buffer ({@link org.metaroce.mrct.wire.Encapsulation#write}, BTH and RETH flyweights, payload copy,
 * {@link org.metaroce.mrct.wire.Encapsulation#sealIcrc}); {@code frameBuilder} takes the crafting path, a
 * {@link FrameBuilder} with a new PSN that builds a new array. Both include the ICRC. One operation is one frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class EncodeBenchmark {
    private final BenchFrames writer = new BenchFrames();
    private final ByteBuffer buffer = ByteBuffer.allocate(BenchFrames.FRAME_LENGTH);
    private byte[] payload;
    private FrameBuilder template;
    private int psn;

    /** Prepares the payload and the builder template. */
    @Setup
    public void setUp() {
        payload = BenchFrames.payload(0);
        template = BenchFrames.builder(0, payload);
    }

    /** Writes the next frame into the reused buffer; returns its ICRC bytes as an int. */
    @Benchmark
    public int flyweights() {
        writer.write(buffer, 0, psn++, payload);
        return buffer.getInt(BenchFrames.FRAME_LENGTH - 4);
    }

    /** Builds the next frame with {@link FrameBuilder}. */
    @Benchmark
    public byte[] frameBuilder() {
        return template.psn(psn++ & 0xFFFFFF).build();
    }
}

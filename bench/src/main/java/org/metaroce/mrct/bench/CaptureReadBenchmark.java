package org.metaroce.mrct.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.metaroce.mrct.wire.FrameDecoder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading, decoding and ICRC-verifying every frame of a 1,000,000-frame pcap of 1 KiB RDMA WRITEs (1.1 GB, written
 * once per trial into a temporary directory and deleted afterwards). One invocation is one pass over the file and
 * counts as 1,000,000 operations, so the score is frames per second. After the first pass the file is in the page
 * cache: this measures the reader and decoder, not the disk.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(1)
public class CaptureReadBenchmark {
    /** Frames in the capture. */
    public static final int FRAMES = 1_000_000;

    private final FrameDecoder decoder = new FrameDecoder();
    private Path directory;
    private Path capture;

    /** Writes the capture. */
    @Setup(Level.Trial)
    public void writeCapture() throws IOException {
        directory = Files.createTempDirectory("mrct-bench-");
        capture = directory.resolve("write-1k.pcap");
        CaptureGenerator.write(capture, FRAMES);
    }

    /** Deletes the capture and its directory. */
    @TearDown(Level.Trial)
    public void deleteCapture() throws IOException {
        Files.deleteIfExists(capture);
        Files.deleteIfExists(directory);
    }

    /** One pass; fails loudly if any frame did not decode or verify, so a broken decoder cannot look fast. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long readDecodeVerify() throws IOException {
        final CaptureDecoding.Counts counts = CaptureDecoding.pass(capture, decoder);
        if (counts.icrcValid() != FRAMES) {
            throw new IllegalStateException("only " + counts.icrcValid() + " of " + FRAMES + " frames verified");
        }
        return counts.bytes();
    }
}

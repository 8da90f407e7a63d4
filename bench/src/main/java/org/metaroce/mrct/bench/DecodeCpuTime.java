package org.metaroce.mrct.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.function.LongSupplier;

/**
 * {@code java -cp benchmarks.jar org.metaroce.mrct.bench.DecodeCpuTime [ROUNDS]}: the operations of
 * {@link Crc32Benchmark#crc32}, {@link DecodeBenchmark#decodeOnly} and {@link DecodeBenchmark#decodeAndVerify}, timed
 * by the thread's CPU time instead of the wall clock, so that other jobs sharing the machine (which take the CPU away
 * and make JMH's scores swing by a factor of two) barely move the figures. Each operation runs ROUNDS (default 10)
 * rounds of 2,000,000 calls after a warm-up; the best round is printed in nanoseconds per frame, with the ratio
 * crc32 / decodeAndVerify (the goal is at least 0.5). It complements JMH and does not replace it: the calls are not
 * guarded against dead-code elimination the way a JMH blackhole is (the results are summed and printed instead).
 */
public final class DecodeCpuTime {
    private static final int CALLS = 2_000_000;

    private DecodeCpuTime() {
    }

    /** Entry point. */
    public static void main(final String[] args) {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        final Crc32Benchmark crc = new Crc32Benchmark();
        crc.setUp();
        final DecodeBenchmark decode = new DecodeBenchmark();
        decode.setUp();
        final LongSupplier crc32 = crc::crc32;
        final LongSupplier decodeOnly = decode::decodeOnly;
        final LongSupplier decodeAndVerify = () -> decode.decodeAndVerify() ? 1 : 0;
        final long[] sink = new long[1];
        for (final LongSupplier op : new LongSupplier[] {crc32, decodeOnly, decodeAndVerify}) {
            best(op, CALLS / 4, 5, sink);
        }
        final double crcNs = best(crc32, CALLS, rounds, sink);
        final double onlyNs = best(decodeOnly, CALLS, rounds, sink);
        final double verifyNs = best(decodeAndVerify, CALLS, rounds, sink);
        System.out.printf("crc32 %.1f ns/frame, decodeOnly %.1f ns/frame, decodeAndVerify %.1f ns/frame,"
            + " crc32/decodeAndVerify %.2f (checksum %d)%n", crcNs, onlyNs, verifyNs, crcNs / verifyNs, sink[0]);
    }

    /** The lowest CPU time per call over {@code rounds} rounds of {@code calls} calls. */
    private static double best(final LongSupplier op, final int calls, final int rounds, final long[] sink) {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        for (int round = 0; round < rounds; round++) {
            final long start = threads.getCurrentThreadCpuTime();
            long sum = 0;
            for (int i = 0; i < calls; i++) {
                sum += op.getAsLong();
            }
            best = Math.min(best, threads.getCurrentThreadCpuTime() - start);
            sink[0] += sum;
        }
        return (double) best / calls;
    }
}

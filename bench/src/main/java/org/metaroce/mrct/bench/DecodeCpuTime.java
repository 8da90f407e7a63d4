package org.metaroce.mrct.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * {@code java -cp benchmarks.jar org.metaroce.mrct.bench.DecodeCpuTime [ROUNDS]}: the operations of
 * {@link Crc32Benchmark#crc32}, {@link Crc32Benchmark#icrc}, {@link DecodeBenchmark#decodeOnly} and
 * {@link DecodeBenchmark#decodeAndVerify}, timed by the thread's CPU time instead of the wall clock, so that other jobs
 * sharing the machine (which take the CPU away and make JMH's scores swing by a factor of two) barely move the
 * figures. After a warm-up, each of ROUNDS (default 10) rounds runs 1,000,000 calls of every operation in turn, so that
 * a change of load affects all of them alike; the best round of each is printed in nanoseconds per frame, with the
 * ratios crc32 / decodeAndVerify (the goal is at least 0.5) and crc32 / icrc, and the system load average before and
 * after. It complements JMH and does not replace it: the calls are not guarded against dead-code elimination the way a
 * JMH blackhole is (the results are summed and printed instead).
 */
public final class DecodeCpuTime {
    private static final int CALLS = 1_000_000;

    private DecodeCpuTime() {
    }

    /** Entry point. */
    public static void main(final String[] args) {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        final double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        final Crc32Benchmark crc = new Crc32Benchmark();
        crc.setUp();
        final DecodeBenchmark decode = new DecodeBenchmark();
        decode.setUp();
        final LongSupplier[] ops = {crc::crc32, crc::icrc, decode::decodeOnly,
            () -> decode.decodeAndVerify() ? 1 : 0};
        final long[] sink = new long[1];
        for (final LongSupplier op : ops) {
            best(op, CALLS / 2, 5, sink);
        }
        final double[] best = new double[ops.length];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < ops.length; k++) {
                best[k] = Math.min(best[k], best(ops[k], CALLS, 1, sink));
            }
        }
        System.out.printf(Locale.ROOT, "crc32 %.1f ns/frame, icrc %.1f ns/frame, decodeOnly %.1f ns/frame,"
                + " decodeAndVerify %.1f ns/frame, crc32/decodeAndVerify %.2f, crc32/icrc %.2f (load average %.1f"
                + " then %.1f; %s; checksum %d)%n", best[0], best[1], best[2], best[3], best[0] / best[3],
            best[0] / best[1], loadBefore, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
            System.getProperty("java.vm.version"), sink[0]);
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

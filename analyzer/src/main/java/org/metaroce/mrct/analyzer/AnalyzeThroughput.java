package org.metaroce.mrct.analyzer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * {@code java -cp mrct.jar org.metaroce.mrct.analyzer.AnalyzeThroughput FILE [PASSES] [THREADS]}: runs the whole
 * analysis of {@code mrct analyze} over FILE PASSES times (default 3) in one JVM with THREADS threads (default 0: one
 * per processor; 1: all on the calling thread), without writing reports, and prints the rate of each pass (and the CPU
 * time the whole process used, every thread, JIT and GC included, which other processes on the machine do not
 * inflate), then one summary line {@code first_pass_fps=... best_fps=... best_cpu_fps=... frames=... checks=...
 * failed=...} for {@code bench/analyze-compare.sh}. The first pass includes the JIT's warm-up (not the JVM's start);
 * later passes show the steady state.
 */
public final class AnalyzeThroughput {
    private AnalyzeThroughput() {
    }

    /** Entry point. */
    public static void main(final String[] args) {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: AnalyzeThroughput FILE [PASSES] [THREADS]");
            System.exit(2);
        }
        final Path file = Path.of(args[0]);
        final int passes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        final int threads = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        final java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        final com.sun.management.OperatingSystemMXBean process = os instanceof com.sun.management.OperatingSystemMXBean
            p ? p : null;
        final Specification spec = Specification.bundled();
        final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double first = 0;
        double best = 0;
        double bestCpu = 0;
        Outcome outcome = null;
        for (int pass = 1; pass <= passes; pass++) {
            final long start = System.nanoTime();
            final long own = mx.getCurrentThreadCpuTime();
            final long cpu = process != null ? process.getProcessCpuTime() : mx.getCurrentThreadCpuTime();
            outcome = new CaptureAnalyzer(spec, CaptureAnalyzer.Options.defaults().withThreads(threads))
                .analyze(List.of(file), new RunListener() { });
            final double seconds = (System.nanoTime() - start) / 1e9;
            final double cpuSeconds = ((process != null ? process.getProcessCpuTime() : mx.getCurrentThreadCpuTime())
                - cpu) / 1e9;
            final double ownSeconds = (mx.getCurrentThreadCpuTime() - own) / 1e9;
            final long frames = outcome.files().get(0).frames();
            final double rate = frames / seconds;
            first = pass == 1 ? rate : first;
            best = Math.max(best, rate);
            bestCpu = Math.max(bestCpu, frames / cpuSeconds);
            System.out.printf("pass %d: %d frames in %.3f s (%.3f s of CPU, %.3f s on the analysing thread): "
                + "%.0f frames/s%n", pass, frames, seconds, cpuSeconds, ownSeconds, rate);
        }
        final int checks = outcome.checks().values().stream().mapToInt(Integer::intValue).sum();
        System.out.printf("first_pass_fps=%.0f best_fps=%.0f best_cpu_fps=%.0f frames=%d checks=%d failed=%d%n",
            first, best, bestCpu,
            outcome.files().get(0).frames(), checks, outcome.checks().get(Verdict.FAIL));
        if (threads != 1) {
            threadBalance(spec, file, threads > 0 ? threads : Runtime.getRuntime().availableProcessors(), mx);
        }
        if (outcome.unreadable()) {
            System.exit(2);
        }
    }

    /**
     * One more pass of the file's analysis (no report) on a pool of its own, printing the CPU time of the calling
     * thread and of each worker: on a machine that other jobs share, the busiest thread's CPU time bounds what the
     * threads could do on idle cores better than the wall clock does.
     */
    private static void threadBalance(final Specification spec, final Path file, final int threads,
                                      final ThreadMXBean mx) {
        final java.util.Map<String, Long> cpu = new java.util.concurrent.ConcurrentSkipListMap<>();
        final java.util.concurrent.atomic.AtomicInteger number = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.ExecutorService pool = new java.util.concurrent.ThreadPoolExecutor(threads, threads,
            0, java.util.concurrent.TimeUnit.MILLISECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                final Thread thread = new Thread(r, "worker-" + number.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            }) {
            @Override
            protected void afterExecute(final Runnable task, final Throwable failure) {
                cpu.put(Thread.currentThread().getName(), mx.getCurrentThreadCpuTime());
            }
        };
        final long own = mx.getCurrentThreadCpuTime();
        final long start = System.nanoTime();
        new org.metaroce.mrct.analyzer.internal.Analysis(spec, null,
            org.metaroce.mrct.analyzer.internal.Analysis.Mode.AUTO, false).analyze(file, file.toString(), "", pool,
            threads, null);
        final double wall = (System.nanoTime() - start) / 1e9;
        final double caller = (mx.getCurrentThreadCpuTime() - own) / 1e9;
        pool.shutdown();
        try {
            pool.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        final StringBuilder line = new StringBuilder();
        double busiest = caller;
        for (final java.util.Map.Entry<String, Long> e : cpu.entrySet()) {
            line.append(String.format(java.util.Locale.ROOT, " %s %.3f s", e.getKey(), e.getValue() / 1e9));
            busiest = Math.max(busiest, e.getValue() / 1e9);
        }
        System.out.printf(java.util.Locale.ROOT, "threads: %.3f s wall, CPU: calling thread %.3f s,%s; busiest "
            + "thread %.3f s%n", wall, caller, line, busiest);
    }
}

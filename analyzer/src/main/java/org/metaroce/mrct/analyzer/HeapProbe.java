package org.metaroce.mrct.analyzer;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * {@code java -Xmx256m -XX:+UseSerialGC -cp mrct.jar org.metaroce.mrct.analyzer.HeapProbe FILE [THREADS]}: analyses
 * FILE with a listener that keeps nothing and measures the heap the analysis keeps: live bytes (after a full
 * collection) before it, and when the first case is handed to the listener, the moment every connection of the
 * capture is held at once (their results, kept for the reports, which then build and release them one connection at
 * a time), and when the run is finished (the summary built: what the reports' turn leaves, which does not grow with
 * the connections). Prints one line: {@code connections=N frames=F cases=C live_before=B live_with_all_connections=L
 * bytes_per_connection=(L-B)/N live_after_reports=E max_heap=M released=R released_early=X resumed_flows=U}: with
 * connections released before the capture's end (issue 12), L holds only those still held at the end and the index of
 * the released ones' spilled cases, R of them released, X of those before their window ran out (the cap on the flows
 * held). The JVM's -Xmx is the promise tested: the run
 * fails with OutOfMemoryError (exit 1) when the capture does not fit. {@code bench/heap-connections.sh} runs it over growing numbers of connections.
 */
public final class HeapProbe {
    private HeapProbe() {
    }

    /** Entry point. */
    public static void main(final String[] args) {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: HeapProbe FILE [THREADS]");
            System.exit(2);
        }
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        final Specification spec = Specification.bundled();
        final long before = live(memory);
        final long[] atReport = {-1};
        final long[] cases = {0};
        final long[] atEnd = {-1};
        final Outcome outcome = new CaptureAnalyzer(spec, CaptureAnalyzer.Options.defaults()
            .withThreads(args.length > 1 ? Integer.parseInt(args[1]) : 0))
            .analyze(List.of(Path.of(args[0])), new RunListener() {
                @Override
                public void caseFinished(final CaseResult result) {
                    if (cases[0]++ == 0) {
                        atReport[0] = live(memory);
                    }
                }

                @Override
                public void runFinished(final RunInfo info, final RunSummary summary) {
                    atEnd[0] = live(memory);
                }
            });
        final FileOutcome file = outcome.files().get(0);
        System.out.printf(Locale.ROOT, "connections=%d frames=%d cases=%d live_before=%d live_with_all_connections=%d"
                + " bytes_per_connection=%d live_after_reports=%d max_heap=%d released=%d released_early=%d"
                + " resumed_flows=%d%n", file.connections(), file.frames(),
            cases[0], before, atReport[0], file.connections() == 0 ? 0 : (atReport[0] - before) / file.connections(),
            atEnd[0], Runtime.getRuntime().maxMemory(), file.released(), file.releasedEarly(), file.resumedFlows());
    }

    /** The heap in use after a full collection. */
    private static long live(final MemoryMXBean memory) {
        System.gc();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }
}

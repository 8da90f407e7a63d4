package org.metaroce.mrct.reports.internal;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * Measures the heap {@link RunState} keeps: {@code RunStateProbe [CASES]} (default 1,000,000) feeds that many cases
 * shaped like a capture analysis's (21 a connection, each citing one of 60 rules; 1 in 50 failing, of 2,000 causes; 1
 * in 200 a WARN), asks for the rule matrix and the counts every 2,000 cases as the writers do, and prints the
 * live heap after a full collection before and after, and the bytes per case. Run with the serial collector, where
 * {@code System.gc()} is a full collection, in a small heap to show that it fits:
 * {@code java -Xmx64m -XX:+UseSerialGC -cp cli/target/mrct.jar:reports/target/test-classes
 * org.metaroce.mrct.reports.internal.RunStateProbe 1000000}.
 */
public final class RunStateProbe {
    private RunStateProbe() {
    }

    public static void main(final String[] args) {
        final int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        final Specification spec = Specification.bundled();
        final List<String> rules = spec.rules().keySet().stream().limit(60).toList();
        final RunState state = new RunState(spec);
        final RunInfo info = new RunInfo("probe", spec.version(), "capture", null, null, null, null, null, List.of(),
            Map.of(), 1L, false, null, List.of(), n, Instant.EPOCH);
        final Random random = new Random(1);
        final long before = live();
        state.start(info);
        for (int i = 0; i < n; i++) {
            final String rule = rules.get(random.nextInt(rules.size()));
            final int roll = random.nextInt(200);
            final Verdict verdict = roll < 4 ? Verdict.FAIL : roll == 4 ? Verdict.WARN : Verdict.PASS;
            final Failure failure = verdict == Verdict.PASS ? null : new Failure(rule, 0, "check", 0, 3, List.of(),
                null, null, "frame 3 broke " + rule, "bth.psn", "cause " + random.nextInt(2_000), "");
            final String id = "10.0.0." + (i / 21 % 250) + ":" + (i / 21) + "/" + rule + "#" + i;
            state.add(new CaseResult(id, rule, "check " + rule, "capture", List.of(rule), Level.MUST, Role.ANY,
                "capture.pcap", Map.of(), verdict, verdict == Verdict.PASS ? "held" : "broken at frame 3", failure,
                1_000L, 0L, 1, List.of(), List.of(), Map.of()));
            if (i % 2_000 == 0) {
                state.rules();
                state.counts();
            }
        }
        state.rules();
        final long after = live();
        // only what RunState has always had, so that the same probe measures an older RunState too
        System.out.printf("cases %d (%d FAIL, %d matrix rows): live before %.1f MB, after %.1f MB, %.2f bytes per case,"
                + " max heap %.0f MB%n", state.done(), state.counts().get(Verdict.FAIL), state.rules().size(),
            before / 1e6, after / 1e6, (after - before) / (double) n, Runtime.getRuntime().maxMemory() / 1e6);
    }

    private static long live() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}

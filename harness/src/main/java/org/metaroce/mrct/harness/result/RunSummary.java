package org.metaroce.mrct.harness.result;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The end of a run.
 *
 * @param end when it ended
 * @param counts cases per verdict
 * @param overall {@link Overall#CONFORMANT}, {@link Overall#NON_CONFORMANT}, {@link Overall#INCONCLUSIVE} or {@link Overall#ERROR}
 * @param reason one sentence behind the overall verdict
 * @param rules the rule matrix
 * @param baseline the comparison with a baseline, or null
 * @param complete false when the run stopped early (fail-fast, interruption)
 */
public record RunSummary(Instant end, Map<Verdict, Integer> counts, Overall overall, String reason,
                         List<RuleVerdict> rules, BaselineComparison baseline, boolean complete) {
    public RunSummary {
        counts = Map.copyOf(counts);
        rules = List.copyOf(rules);
    }

    /** True when the device conforms: no applicable MUST failing beyond the baseline. */
    public boolean conformant() {
        return overall == Overall.CONFORMANT;
    }
}

package org.metaroce.mrct.analyzer;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * What {@link CaptureAnalyzer#analyze} found.
 *
 * @param files      per capture file, in the order given
 * @param summary    the summary written to the reports
 * @param checks     check cases per verdict (the per-connection summary cases are not counted)
 * @param violations one line per failing check case, {@code ID: reason}
 */
public record Outcome(List<FileOutcome> files, RunSummary summary, Map<Verdict, Integer> checks,
                      List<String> violations) {
    public Outcome {
        files = List.copyOf(files);
        checks = Map.copyOf(checks);
        violations = List.copyOf(violations);
    }

    /** True when a check found a violation. */
    public boolean violated() {
        return checks.getOrDefault(Verdict.FAIL, 0) > 0;
    }

    /** True when a file could not be read whole (damage, or records larger than any frame skipped). */
    public boolean unreadable() {
        return files.stream().anyMatch(FileOutcome::incomplete);
    }
}

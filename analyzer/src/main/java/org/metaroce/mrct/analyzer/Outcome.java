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
 * @param views      with several captures, what matching them showed: frames lost between two of them, frames one
 *                   received that the one upstream never saw (at most 20 per flow and kind; the cases count them all)
 */
public record Outcome(List<FileOutcome> files, RunSummary summary, Map<Verdict, Integer> checks,
                      List<String> violations, List<ViewFinding> views) {
    public Outcome {
        files = List.copyOf(files);
        checks = Map.copyOf(checks);
        violations = List.copyOf(violations);
        views = List.copyOf(views);
    }

    /** Without findings across captures. */
    public Outcome(final List<FileOutcome> files, final RunSummary summary, final Map<Verdict, Integer> checks,
                   final List<String> violations) {
        this(files, summary, checks, violations, List.of());
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

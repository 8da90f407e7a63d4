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
 * @param violations one line per failing check case, {@code ID: reason}, the first {@link #VIOLATIONS_LISTED}
 * @param views      with several captures, what matching them showed: frames lost between two of them, frames one
 *                   received that the one upstream never saw (at most 20 per flow and kind; the cases count them all)
 * @param violationsNotListed failing check cases beyond those {@code violations} lists
 */
public record Outcome(List<FileOutcome> files, RunSummary summary, Map<Verdict, Integer> checks,
                      List<String> violations, List<ViewFinding> views, int violationsNotListed) {
    /** The failing check cases {@link #violations} lists at most; the others are counted. */
    public static final int VIOLATIONS_LISTED = 1000;

    public Outcome {
        files = List.copyOf(files);
        checks = Map.copyOf(checks);
        violations = List.copyOf(violations);
        views = List.copyOf(views);
        if (violationsNotListed < 0) {
            throw new IllegalArgumentException("violations not listed cannot be negative");
        }
    }

    /** Every failing check case listed. */
    public Outcome(final List<FileOutcome> files, final RunSummary summary, final Map<Verdict, Integer> checks,
                   final List<String> violations, final List<ViewFinding> views) {
        this(files, summary, checks, violations, views, 0);
    }

    /** Without findings across captures. */
    public Outcome(final List<FileOutcome> files, final RunSummary summary, final Map<Verdict, Integer> checks,
                   final List<String> violations) {
        this(files, summary, checks, violations, List.of(), 0);
    }

    /** The failing check cases, listed or not. */
    public int violationCount() {
        return violations.size() + violationsNotListed;
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

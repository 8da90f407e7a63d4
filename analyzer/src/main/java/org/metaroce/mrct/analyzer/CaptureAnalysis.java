package org.metaroce.mrct.analyzer;

import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;

/**
 * One capture analysed on its own ({@link CaptureAnalyzer#analyzeCapture}): what the file gave, its cases (one per
 * (connection, rule) check and one summary per connection, in report order) and one line per failing case. Captures
 * analysed apart, e.g. in parallel or on a cluster, are reported together by {@link CaptureAnalyzer#report}, with the
 * same result as {@link CaptureAnalyzer#analyze} over the same files.
 *
 * @param file       what the file gave
 * @param cases      its cases, in report order
 * @param violations one line per failing case: {@code ID: reason}
 */
public record CaptureAnalysis(FileOutcome file, List<CaseResult> cases, List<String> violations) {
    public CaptureAnalysis {
        cases = List.copyOf(cases);
        violations = List.copyOf(violations);
    }
}

package org.metaroce.mrct.analyzer;

import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;

/**
 * Several captures of the same traffic matched ({@link CaptureAnalyzer#match}): one {@code views/F<n>} case per flow
 * seen in two captures or more, and the frames found lost or never sent (at most 20 per flow and kind).
 *
 * @param cases    the flows' cases, in order of first sighting
 * @param findings the frames named
 */
public record CaptureMatch(List<CaseResult> cases, List<ViewFinding> findings) {
    public CaptureMatch {
        cases = List.copyOf(cases);
        findings = List.copyOf(findings);
    }
}

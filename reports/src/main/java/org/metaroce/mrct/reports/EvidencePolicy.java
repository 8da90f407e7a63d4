package org.metaroce.mrct.reports;

import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * Which cases carry their frames and control-plane records in {@code report.json} and {@code report.html}. Every frame
 * and record of every case is always in {@code evidence.pcapng}; the documents that are rewritten after each case keep
 * them where someone will read them, so a full run's reports stay small enough to rewrite case by case (a scale case
 * alone makes hundreds of thousands of control calls).
 */
public enum EvidencePolicy {
    /**
     * Of cases that did not pass (FAIL, WARN, ERROR, INCONCLUSIVE), the frames around the failure (up to 32 before the
     * offending frame and 16 after it) and the control calls among them (at most 64, memory as digests); the
     * documents name the range of the rest in evidence.pcapng. The default.
     */
    FAILURES,
    /** Every frame and control call of every case, whole. */
    ALL;

    /** Whether the documents carry {@code result}'s frames. */
    public boolean keeps(final CaseResult result) {
        return this == ALL || result.verdict() != Verdict.PASS && result.verdict() != Verdict.NOT_APPLICABLE;
    }
}

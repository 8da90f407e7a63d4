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
    /** Frames of cases that did not pass (FAIL, WARN, ERROR, INCONCLUSIVE); the default. */
    FAILURES,
    /** Frames of every case. */
    ALL;

    /** Whether the documents carry {@code result}'s frames. */
    public boolean keeps(final CaseResult result) {
        return this == ALL || result.verdict() != Verdict.PASS && result.verdict() != Verdict.NOT_APPLICABLE;
    }
}

package org.metaroce.mrct.harness.result;

/**
 * A baseline of known failures compared with a run one case at a time, so that a run need keep no case to compare
 * it at the end (a run of generated cases keeps tens of kilobytes of evidence per case).
 */
public interface BaselineCheck {
    /**
     * Records a finished case. Returns whether it fails beyond the baseline: a failing verdict (FAIL and ERROR, WARN
     * when strict) the baseline does not list with that verdict.
     */
    boolean add(CaseResult result);

    /** The comparison of the cases recorded so far, in their order. */
    BaselineComparison comparison();
}

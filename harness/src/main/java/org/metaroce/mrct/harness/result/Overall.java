package org.metaroce.mrct.harness.result;

/** The verdict of a whole run, as reports and the exit code give it. */
public enum Overall {
    /** No applicable MUST rule failed beyond the baseline. */
    CONFORMANT,
    /** An applicable MUST rule (or, with {@code --strict}, a SHOULD rule) failed beyond the baseline. */
    NON_CONFORMANT,
    /**
     * No applicable case failed, but at least one could not be judged (INCONCLUSIVE: on real time the harness or the
     * device late beyond the run's tolerance in every attempt, or the harness's evidence incomplete): conformance can
     * be neither claimed nor denied. Each such case says why; run them again, on a quieter host or with a larger
     * tolerance.
     */
    INCONCLUSIVE,
    /** The harness or the adapter failed (a case ended in ERROR): the run says nothing about conformance. */
    ERROR,
    /** The run has not finished (a report written while it runs, or one cut short). */
    INCOMPLETE
}

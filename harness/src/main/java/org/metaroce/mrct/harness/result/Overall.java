package org.metaroce.mrct.harness.result;

/** The verdict of a whole run, as reports and the exit code give it. */
public enum Overall {
    /** No applicable MUST rule failed beyond the baseline. */
    CONFORMANT,
    /** An applicable MUST rule (or, with {@code --strict}, a SHOULD rule) failed beyond the baseline. */
    NON_CONFORMANT,
    /** The harness or the adapter failed: the run says nothing about conformance. */
    ERROR,
    /** The run has not finished (a report written while it runs, or one cut short). */
    INCOMPLETE
}

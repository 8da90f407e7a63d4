package org.metaroce.mrct.harness.result;

/**
 * Verdicts, ordered from least to most severe, so that the worst of several is their maximum. A verdict can only get
 * worse while a case runs, never better.
 */
public enum Verdict {
    /** The case does not apply: a PICS item not claimed, or a capability the adapter lacks. The reason says which. */
    NOT_APPLICABLE,
    /** Every expectation held. */
    PASS,
    /** A SHOULD rule was not met (not gating unless {@code --strict}, which turns it into FAIL). */
    WARN,
    /** The evidence does not allow a judgement (capture drops, a recording that cannot answer, ...). */
    INCONCLUSIVE,
    /** A MUST rule (or, with {@code --strict}, a SHOULD rule) was violated. */
    FAIL,
    /** The harness or the adapter failed; says nothing about conformance. */
    ERROR;

    /** The worse of two verdicts. */
    public Verdict worst(final Verdict other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}

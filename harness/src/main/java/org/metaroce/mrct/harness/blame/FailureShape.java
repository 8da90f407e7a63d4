package org.metaroce.mrct.harness.blame;

/** What kind of expectation failed, which decides how the failure is blamed. */
public enum FailureShape {
    /** A frame arrived where one was expected, with fields that differ. */
    FRAME_MISMATCH,
    /** An expected frame did not arrive in its window (or arrived too early or too late). */
    FRAME_MISSING,
    /** A frame arrived where none (or none of its kind) was expected. */
    FRAME_UNEXPECTED,
    /** The device's completions differ from those expected. */
    COMPLETIONS,
    /** The device's memory differs. */
    MEMORY,
    /** The device's counters differ. */
    COUNTERS,
    /** A QP is in another state than expected, or a control-plane call was answered wrongly. */
    CONTROL,
    /** Anything else: traffic and rate expectations, flows, left-over frames. */
    OTHER
}

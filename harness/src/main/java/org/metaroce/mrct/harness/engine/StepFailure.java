package org.metaroce.mrct.harness.engine;

import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;

/** Thrown inside a case run when an expectation fails; carries what the result's {@link
 * org.metaroce.mrct.harness.result.Failure} needs. */
final class StepFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final int frame;
    final transient List<FieldDiff> diffs;
    final String expectedFrame;
    final String actualFrame;
    final boolean inconclusive;
    /** The rule broken, when it is not the case's own first rule (a transmit rule, say); else null. */
    String rule;
    /** For an expected frame that did not arrive: its template (the first still open), for blame; else null. */
    transient org.metaroce.mrct.harness.cases.FrameTemplate missingTemplate;
    /**
     * For an expected frame that did not arrive: the timing tolerance its window had (the larger of the run's absolute
     * one and its percentage of the window), the slack a late device may have used up before the frame was missing;
     * else -1.
     */
    long windowToleranceNanos = -1;

    StepFailure(final String message, final int frame, final List<FieldDiff> diffs, final String expectedFrame,
                final String actualFrame) {
        this(message, frame, diffs, expectedFrame, actualFrame, false);
    }

    StepFailure(final String message, final int frame, final List<FieldDiff> diffs, final String expectedFrame,
                final String actualFrame, final boolean inconclusive) {
        super(message, null, false, false);
        this.frame = frame;
        this.diffs = List.copyOf(diffs);
        this.expectedFrame = expectedFrame;
        this.actualFrame = actualFrame;
        this.inconclusive = inconclusive;
    }

    /**
     * An expected frame that did not arrive: {@code template} (the first still open, described as
     * {@code expectedFrame}) within a window that had {@code windowTolerance} of timing tolerance.
     */
    static StepFailure missing(final String message, final org.metaroce.mrct.harness.cases.FrameTemplate template,
                               final String expectedFrame, final long windowTolerance) {
        final StepFailure missing = new StepFailure(message, -1, List.of(), expectedFrame, null);
        missing.missingTemplate = template;
        missing.windowToleranceNanos = windowTolerance;
        return missing;
    }

    /** The same failure, pointing at evidence frame {@code index} whose dump is {@code actual}. */
    StepFailure at(final int index, final String actual) {
        final StepFailure copy = new StepFailure(getMessage(), index, diffs, expectedFrame, actual, inconclusive);
        copy.rule = rule;
        copy.missingTemplate = missingTemplate;
        copy.windowToleranceNanos = windowToleranceNanos;
        return copy;
    }

    /** A failure whose rule a check names itself (a per-frame, flow or requester check), not the case's rule. */
    static StepFailure breaking(final String rule, final String message, final int frame,
                                final List<FieldDiff> diffs) {
        final StepFailure failure = new StepFailure(message, frame, diffs, null, null);
        failure.rule = rule;
        return failure;
    }

    static StepFailure of(final String message) {
        return new StepFailure(message, -1, List.of(), null, null);
    }
}

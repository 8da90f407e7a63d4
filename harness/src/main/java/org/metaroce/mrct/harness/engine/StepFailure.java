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

    static StepFailure of(final String message) {
        return new StepFailure(message, -1, List.of(), null, null);
    }
}

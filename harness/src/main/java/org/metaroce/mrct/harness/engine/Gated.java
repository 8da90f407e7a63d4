package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.NotChecked;

/**
 * What a case's {@code when} steps left out under the profile: the expectations of a branch not taken, each once
 * (by line) with the reason, and how many expectations did run. A case whose expectations were all left out judged
 * nothing and is NOT_APPLICABLE, not a silent PASS (section 17.2: a test of a rule that does not apply is reported as
 * not applicable); one whose other expectations held passes, saying what it did not check.
 */
final class Gated {
    private final Map<Integer, NotChecked> skipped = new LinkedHashMap<>();
    private int judged;

    /** Whether {@code step} judges the device (an expectation of any kind, or a flow checked on every frame). */
    static boolean judges(final Step step) {
        return step instanceof Step.Expect || step instanceof Step.ExpectUnordered || step instanceof Step.ExpectNone
            || step instanceof Step.Flow || step instanceof Step.ExpectQp || StepDispatch.judgesState(step)
            || step instanceof Step.ExpectRate;
    }

    /** {@code step} runs now. */
    void ran(final Step step) {
        if (judges(step)) {
            judged++;
        }
    }

    /**
     * The {@code steps} under {@code gate}, a {@code when} that does not hold, do not run, because of {@code why} (one
     * phrase). A {@code repeat} running no time is not a gate: a loop over the middle packets of a one-packet message
     * leaves nothing out.
     */
    void leftOut(final Step.When gate, final List<Step> steps, final String why) {
        final String reason = "when at line " + gate.line() + ": " + why;
        for (final Step step : steps) {
            if (step instanceof Step.Repeat repeat) {
                leftOut(gate, repeat.steps(), why);
            } else if (step instanceof Step.When inner) {
                leftOut(gate, inner.steps(), why);
                leftOut(gate, inner.otherwise(), why);
            } else if (judges(step)) {
                skipped.putIfAbsent(step.line(), new NotChecked(step.line(), step.describe(), reason));
            }
        }
    }

    /** The expectations left out, in the order met. */
    List<NotChecked> notChecked() {
        return new ArrayList<>(skipped.values());
    }

    /** Whether no expectation ran and some were left out: the case judged nothing under the profile. */
    boolean judgedNothing() {
        return judged == 0 && !skipped.isEmpty();
    }
}

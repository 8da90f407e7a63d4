package org.metaroce.mrct.harness.engine;

import java.util.function.Supplier;
import org.metaroce.mrct.harness.blame.Cause;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.EvidenceUnavailableException;
import org.metaroce.mrct.spi.RejectedException;

/**
 * What ended a case, as a verdict: a failed expectation is a FAIL (a WARN when only SHOULD or MAY rules are at stake
 * and the run is not strict), evidence the adapter cannot give is INCONCLUSIVE, an operation the adapter cannot do is
 * NOT_APPLICABLE, and the adapter's or the harness's own trouble is an ERROR.
 */
final class VerdictPolicy {
    /** Finds the rule a failed expectation blames (see {@link org.metaroce.mrct.harness.blame.Blame}). */
    @FunctionalInterface
    interface Blamer {
        /** The cause of {@code failure} in {@code step} (null: none) for a verdict on rules of {@code level}. */
        Cause cause(StepFailure failure, Step step, Level level);
    }

    /**
     * A case's verdict, the reason shown beside it, the failure when an expectation failed, and whether the harness's
     * own lateness made a failed expectation inconclusive (the case is then worth running again).
     */
    record Outcome(Verdict verdict, String reason, Failure failure, boolean harnessLate) {
        Outcome(final Verdict verdict, final String reason, final Failure failure) {
            this(verdict, reason, failure, false);
        }
    }

    /** Every step ran and every expectation held. */
    static final Outcome PASSED = new Outcome(Verdict.PASS, "every expectation held", null);

    private final CaseDef def;
    private final Specification spec;
    private final boolean strict;
    private final Blamer blamer;
    private final Supplier<HarnessLateness.Late> lateness;

    VerdictPolicy(final CaseDef def, final Specification spec, final boolean strict) {
        this(def, spec, strict, null, () -> null);
    }

    /**
     * @param blamer finds the rule a failed expectation blames (null: the rule the check named, else the case's first)
     * @param lateness the harness's own lateness beyond the run's tolerance so far (null: none)
     */
    VerdictPolicy(final CaseDef def, final Specification spec, final boolean strict, final Blamer blamer,
                  final Supplier<HarnessLateness.Late> lateness) {
        this.def = def;
        this.spec = spec;
        this.strict = strict;
        this.blamer = blamer;
        this.lateness = lateness;
    }

    /** The outcome of a case stopped by {@code e} in step {@code step} (index {@code stepIndex}; null: none). */
    Outcome outcome(final RuntimeException e, final int stepIndex, final Step step) {
        if (e instanceof StepFailure f) {
            final HarnessLateness.Late late = f.inconclusive ? null : lateness.get();
            if (late != null) {
                // the device may have done right on the timeline it saw; the harness did not keep the case's
                final String where = step == null ? "after the last step" : "step " + (stepIndex + 1) + " (line "
                    + step.line() + ")";
                return new Outcome(Verdict.INCONCLUSIVE, "the harness was late beyond the run's tolerance ("
                    + late.describe() + "), so what " + where + " saw says nothing about the device: "
                    + e.getMessage(), null, true);
            }
            // a per-frame check may find a MUST rule broken inside a case about a SHOULD: that is a FAIL
            final Rule broken = f.rule == null ? null : spec.rule(f.rule);
            final Level level = broken != null && broken.level().ordinal() < strongestLevel().ordinal()
                ? broken.level() : strongestLevel();
            final Verdict verdict = f.inconclusive ? Verdict.INCONCLUSIVE
                : level == Level.MUST || strict ? Verdict.FAIL : Verdict.WARN;
            Cause cause = null;
            if (blamer != null && !f.inconclusive) {
                cause = blamer.cause(f, step, level);
            }
            final Failure failure = failure(f, def, stepIndex, step, spec, cause);
            return new Outcome(verdict, failure.message(), failure);
        }
        if (e instanceof EvidenceUnavailableException) {
            return new Outcome(Verdict.INCONCLUSIVE, e.getMessage(), null);
        }
        if (e instanceof AdapterException) {
            return new Outcome(Verdict.ERROR, "adapter: " + e.getMessage(), null);
        }
        if (e instanceof OutsideProfile) {
            return new Outcome(Verdict.NOT_APPLICABLE, e.getMessage(), null);
        }
        if (e instanceof UnsupportedOperationException) {
            // an operation the adapter cannot do, found only when the case asks for it (a UDP data plane cannot send
            // a frame with IPv4 options): like a missing capability, it says nothing about the device
            return new Outcome(Verdict.NOT_APPLICABLE, "the adapter cannot do what " + (step == null
                ? "the case's setup" : "step " + (stepIndex + 1) + " (line " + step.line() + ")") + " needs: "
                + e.getMessage(), null);
        }
        if (e instanceof RejectedException) {
            return new Outcome(Verdict.ERROR, "the device rejected a control-plane call the case needs: "
                + e.getMessage(), null);
        }
        return new Outcome(Verdict.ERROR, "harness: " + (step != null ? "step " + (stepIndex + 1) + " (line "
            + step.line() + "): " : "") + e.getClass().getSimpleName() + ": " + e.getMessage(), null);
    }

    /**
     * The failure a failed expectation reports: the rule it blames (the rule the check named, else the case's first
     * rule), where it happened, and the frames and fields that differ. The failure's message is the case's reason.
     *
     * @param e the failed expectation
     * @param def the case
     * @param stepIndex the index of the step that failed (-1: after the last step, or during setup)
     * @param step the step that failed, or null
     * @param spec the specification the rules are from
     */
    static Failure failure(final StepFailure e, final CaseDef def, final int stepIndex, final Step step,
                           final Specification spec) {
        return failure(e, def, stepIndex, step, spec, null);
    }

    /**
     * The failure a failed expectation reports, blaming {@code cause}'s rule when there is a cause (the rule governing
     * the field that was wrong) and otherwise the rule the check named, else the case's first rule.
     */
    static Failure failure(final StepFailure e, final CaseDef def, final int stepIndex, final Step step,
                           final Specification spec, final Cause cause) {
        final String rule = cause != null ? cause.rule() : e.rule != null ? e.rule
            : def.rules().isEmpty() ? "" : def.rules().get(0);
        final String where = step == null ? "after the last step"
            : "step " + (stepIndex + 1) + " (" + step.describe() + ", line " + step.line() + ")";
        final String reason = rule + ": " + where + ": " + e.getMessage()
            + (cause == null || cause.pattern().isEmpty() ? "" : " [root cause: " + cause.pattern() + "]");
        return new Failure(rule, stepIndex, step == null ? "" : step.describe(), step == null ? 0 : step.line(),
            e.frame, e.diffs, e.expectedFrame, e.actualFrame, reason, cause == null ? "" : cause.field(),
            cause == null ? "" : cause.pattern(), cause == null ? "" : cause.basis().text());
    }

    /** The level the result reports: the case's strongest rule's, or the failure's rule's when that is stronger. */
    Level reportedLevel(final Failure failure) {
        Level level = strongestLevel();
        final Rule failed = failure == null ? null : spec.rule(failure.rule());
        if (failed != null && failed.level().ordinal() < level.ordinal()) {
            level = failed.level();
        }
        return level;
    }

    /** The strongest level among the case's rules (MAY when it names none the specification knows). */
    private Level strongestLevel() {
        Level best = Level.MAY;
        for (final String ruleId : def.rules()) {
            final Rule rule = spec.rule(ruleId);
            if (rule != null && rule.level().ordinal() < best.ordinal()) {
                best = rule.level();
            }
        }
        return best;
    }
}

package org.metaroce.mrct.harness.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.BaselineCheck;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;

/** Builds the end-of-run summary: counts, the rule matrix and the overall verdict. */
public final class Summaries {
    private Summaries() {
    }

    /**
     * The rule matrix: every rule with the cases that cover it and the verdict they give it (a case failing blames one
     * rule, {@link RuleVerdict#given}).
     */
    public static List<RuleVerdict> ruleMatrix(final Specification spec, final DeviceProfile profile,
                                               final List<CaseResult> results) {
        final Matrix matrix = new Matrix();
        results.forEach(matrix::add);
        return matrix.rows(spec, profile);
    }

    /**
     * The rule matrix built one case at a time, for a run whose cases are not all kept (a capture analysis): with a
     * limit, each row lists at most that many cases and counts the others ({@link RuleVerdict.Builder#Builder(int)}),
     * so what it holds does not grow with the cases.
     */
    public static final class Matrix {
        private final Map<String, RuleVerdict.Builder> byRule = new LinkedHashMap<>();
        private final int limit;

        /** Every case listed. */
        public Matrix() {
            this(Integer.MAX_VALUE);
        }

        /** At most {@code limit} cases listed per rule; the cases added must have distinct IDs. */
        public Matrix(final int limit) {
            this.limit = limit;
        }

        /** Adds a case to the rows of the rules it cites and the rule its failure blames. */
        public void add(final CaseResult result) {
            final java.util.Set<String> touched = new java.util.LinkedHashSet<>(result.rules());
            if (result.failure() != null && result.failure().rule() != null && !result.failure().rule().isBlank()) {
                touched.add(result.failure().rule());
            }
            for (final String rule : touched) {
                byRule.computeIfAbsent(rule, r -> new RuleVerdict.Builder(limit)).add(rule, result.id(),
                    result.verdict(), result.failure());
            }
        }

        /** One row per rule of the specification, in its order. */
        public List<RuleVerdict> rows(final Specification spec, final DeviceProfile profile) {
            final List<RuleVerdict> rows = new ArrayList<>();
            for (final Rule rule : spec.rules().values()) {
                rows.add(byRule.getOrDefault(rule.id(), new RuleVerdict.Builder()).build(rule.id(), rule.level(),
                    rule.role(), rule.appliesTo(profile.pics())));
            }
            return rows;
        }
    }

    /**
     * The summary built one case at a time, as a run finishes them: the device conforms when no applicable case of a
     * MUST rule is FAIL (or, strict, a SHOULD one WARN) beyond the baseline; ERROR and INCONCLUSIVE results leave the
     * run without a conformance claim (overall ERROR). It keeps counts, the rule matrix (case IDs) and the baseline's
     * IDs, never a case's evidence, so a run of any length summarises in the memory of its IDs.
     */
    public static final class Tally {
        private final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        private final Matrix matrix = new Matrix();
        private final BaselineCheck baseline;
        private final boolean strict;
        private int failing;
        private int errors;
        private int inconclusive;

        /** {@code baseline} may be null (no baseline: every failing case counts). */
        public Tally(final BaselineCheck baseline, final boolean strict) {
            this.baseline = baseline;
            this.strict = strict;
            for (final Verdict verdict : Verdict.values()) {
                counts.put(verdict, 0);
            }
        }

        /** Counts a finished case. */
        public void add(final CaseResult result) {
            counts.merge(result.verdict(), 1, Integer::sum);
            matrix.add(result);
            final boolean beyondBaseline = baseline == null || baseline.add(result);
            final boolean fails = result.verdict() == Verdict.FAIL
                || strict && result.verdict() == Verdict.WARN && result.level() == Level.SHOULD;
            if (fails && beyondBaseline) {
                failing++;
            }
            if (result.verdict() == Verdict.ERROR) {
                errors++;
            } else if (result.verdict() == Verdict.INCONCLUSIVE) {
                inconclusive++;
            }
        }

        /** The summary of the cases counted; {@code complete} false when the run stopped early. */
        public RunSummary summary(final Specification spec, final DeviceProfile profile, final boolean complete,
                                  final Instant end) {
            final Overall overall;
            final String reason;
            if (failing > 0) {
                overall = Overall.NON_CONFORMANT;
                reason = failing + " case" + (failing == 1 ? "" : "s") + " failed" + (baseline != null
                    ? " beyond the baseline" : "");
            } else if (errors > 0 || !complete) {
                overall = Overall.ERROR;
                reason = !complete ? "the run did not complete" : errors + " case" + (errors == 1 ? "" : "s")
                    + " ended in ERROR" + (inconclusive > 0 ? " and " + inconclusive + " INCONCLUSIVE" : "")
                    + ", so conformance cannot be claimed";
            } else if (inconclusive > 0) {
                overall = Overall.INCONCLUSIVE;
                reason = "no case failed, but " + inconclusive + " case" + (inconclusive == 1 ? "" : "s")
                    + " could not be judged (INCONCLUSIVE), so conformance can be neither claimed nor denied";
            } else {
                overall = Overall.CONFORMANT;
                reason = "every applicable case passed" + (counts.get(Verdict.WARN) > 0 ? " (" + counts.get(
                    Verdict.WARN) + " SHOULD warning" + (counts.get(Verdict.WARN) == 1 ? "" : "s") + ")" : "");
            }
            return new RunSummary(end, counts, overall, reason, matrix.rows(spec, profile),
                baseline == null ? null : baseline.comparison(), complete);
        }
    }
}

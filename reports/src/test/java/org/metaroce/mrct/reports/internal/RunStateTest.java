package org.metaroce.mrct.reports.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.RootCause;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.reports.CauseGroups;

/**
 * What {@link RunState} keeps of a run, which must not grow with its cases: counts, the first failing cases, the root
 * causes (bounded groups) and the rule matrix of the run in progress (bounded rows), each checked against what the
 * whole list of cases gives. Seeded: the same cases every time.
 */
class RunStateTest {
    private static final Verdict[] VERDICTS = Verdict.values();

    private static RunInfo info(final int cases) {
        return new RunInfo("1.0.0-test", "1.0", "reference", "Acme", "RN-9", "fw", "p.yaml", "00", List.of(),
            Map.of(), 1L, false, null, List.of(), cases, Instant.parse("2026-03-01T09:30:00Z"));
    }

    private static CaseResult result(final String id, final String rule, final Verdict verdict,
                                     final Failure failure) {
        return new CaseResult(id, id, "t", "area", List.of(rule), Level.MUST, Role.RESPONDER, "f.yaml", Map.of(),
            verdict, "why " + id, failure, 1L, 1L, 1, List.of(), List.of(), Map.of());
    }

    private static Failure failure(final String rule, final String field, final String cause) {
        return new Failure(rule, 1, "step", 1, 0, List.of(), null, null, "m", field, cause, "");
    }

    /** {@code n} seeded cases over 8 rules, every verdict, failures of a few causes blaming a rule not always cited. */
    private static List<CaseResult> cases(final int n, final long seed) {
        final Random random = new Random(seed);
        final List<CaseResult> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            final String rule = "MR-ORD-00" + random.nextInt(8);
            final Verdict verdict = random.nextInt(4) == 0 ? VERDICTS[random.nextInt(VERDICTS.length)] : Verdict.PASS;
            final boolean fails = verdict == Verdict.FAIL || verdict == Verdict.WARN || verdict == Verdict.ERROR;
            final Failure failure = fails && random.nextInt(5) > 0 ? failure("MR-ORD-00" + random.nextInt(8),
                random.nextBoolean() ? "bth.psn" : "", "cause " + random.nextInt(6)) : null;
            out.add(result("C-" + i, rule, verdict, failure));
        }
        return out;
    }

    @Test
    void keepsTheCountsAndOnlyTheFirstFailingCases() {
        final List<CaseResult> cases = cases(20_000, 12);
        final RunState state = new RunState(null);
        state.start(info(cases.size()));
        final Map<Verdict, Integer> expected = new EnumMap<>(Verdict.class);
        final List<String> failing = new ArrayList<>();
        for (final CaseResult result : cases) {
            assertThat(state.add(result).id()).isEqualTo(result.id());
            assertThat(state.last().id()).isEqualTo(result.id());
            expected.merge(result.verdict(), 1, Integer::sum);
            if (result.verdict() == Verdict.FAIL || result.verdict() == Verdict.ERROR) {
                failing.add(result.id());
            }
        }
        assertThat(state.done()).isEqualTo(20_000);
        for (final Verdict verdict : VERDICTS) {
            assertThat(state.counts().get(verdict)).as(verdict.name()).isEqualTo(expected.getOrDefault(verdict, 0));
        }
        assertThat(state.failingCount()).isEqualTo(failing.size()).isGreaterThan(RunState.FAILING_KEPT);
        assertThat(state.failing()).extracting(CaseEntry::id)
            .containsExactlyElementsOf(failing.subList(0, RunState.FAILING_KEPT));
        assertThat(state.reason()).isEqualTo("the run has not finished: 20000 of 20000 cases done so far");

        // a new run forgets the old one
        state.start(info(1));
        assertThat(state.done()).isZero();
        assertThat(state.failing()).isEmpty();
        assertThat(state.causes().isEmpty()).isTrue();
        assertThat(state.rules()).isEmpty();
    }

    @Test
    void theRuleMatrixInProgressHasTheWholeRunsVerdictsAndListsAtMost100CasesPerRow() {
        final List<CaseResult> cases = cases(5_000, 3);
        final RunState state = new RunState(null);
        state.start(info(cases.size()));
        final List<CaseResult> first = new ArrayList<>();
        for (final CaseResult result : cases) {
            state.add(result);
            if (first.size() < 40) {
                first.add(result);
                if (first.size() == 40) {
                    // few cases per rule: every case listed, as the unbounded matrix lists them
                    assertThat(state.rules()).isEqualTo(unbounded(first));
                }
            }
        }
        final List<RuleVerdict> all = unbounded(cases);
        final List<RuleVerdict> rows = state.rules();
        assertThat(rows).extracting(RuleVerdict::rule).containsExactlyElementsOf(all.stream().map(RuleVerdict::rule)
            .toList());
        for (int i = 0; i < rows.size(); i++) {
            final RuleVerdict row = rows.get(i);
            final RuleVerdict exact = all.get(i);
            assertThat(row.verdict()).as(row.rule()).isEqualTo(exact.verdict());
            assertThat(row.caseCount()).as(row.rule()).isEqualTo(exact.caseCount());
            assertThat(row.cases()).as(row.rule()).hasSize(RuleMatrix.LISTED).isSubsetOf(exact.cases());
            assertThat(row.citedBy().size() + row.citedByNotListed()).isEqualTo(exact.citedBy().size());
            // the cases that did not give the rule PASS are listed before those that did
            final long notPassing = exact.cases().stream().filter(id -> gives(cases, id, row.rule())).count();
            assertThat(row.cases().stream().filter(id -> gives(cases, id, row.rule())).count())
                .isEqualTo(Math.min(notPassing, RuleMatrix.LISTED));
        }
    }

    /** Whether case {@code id} gives {@code rule} something other than PASS. */
    private static boolean gives(final List<CaseResult> cases, final String id, final String rule) {
        final CaseResult result = cases.get(Integer.parseInt(id.substring(2)));
        return RuleVerdict.given(rule, result.verdict(), result.failure()) != Verdict.PASS;
    }

    /** The matrix of every case, listing every case (as a finished run's harness builds it). */
    private static List<RuleVerdict> unbounded(final List<CaseResult> cases) {
        final Map<String, RuleVerdict.Builder> rows = new TreeMap<>(RuleMatrix.RULE_ORDER);
        for (final CaseResult result : cases) {
            final List<String> touched = new ArrayList<>(result.rules());
            if (result.failure() != null && !touched.contains(result.failure().rule())) {
                touched.add(result.failure().rule());
            }
            for (final String rule : touched) {
                rows.computeIfAbsent(rule, r -> new RuleVerdict.Builder()).add(rule, result.id(), result.verdict(),
                    result.failure());
            }
        }
        final List<RuleVerdict> out = new ArrayList<>();
        rows.forEach((rule, builder) -> out.add(builder.build(rule, Level.MUST, Role.RESPONDER, true)));
        return out;
    }

    @Test
    void rootCausesAreThoseOfEveryCaseUpTo1000CausesThenCounted() {
        final List<CaseResult> cases = cases(3_000, 5);
        final RunState state = new RunState(null);
        state.start(info(cases.size()));
        cases.forEach(state::add);
        final List<RootCause> exact = RootCause.of(cases, CaseResult::id, CaseResult::verdict, CaseResult::failure);
        final List<CauseGroups.Group> groups = state.causes().groups();
        assertThat(groups).hasSameSizeAs(exact).isNotEmpty();
        for (int i = 0; i < exact.size(); i++) {
            assertThat(groups.get(i).count()).isEqualTo(exact.get(i).cases().size());
            assertThat(groups.get(i).line(3)).isEqualTo(exact.get(i).line(3));
            assertThat(groups.get(i).line(1)).isEqualTo(exact.get(i).line(1));
        }
        assertThat(state.causes().otherCases()).isZero();

        // 1,500 causes, the first 1,000 of them failing twice: 1,000 groups of their first IDs, 500 cases counted
        state.start(info(2_500));
        final Map<String, Integer> seen = new LinkedHashMap<>();
        for (int i = 0; i < 2_500; i++) {
            final int cause = i < 2_000 ? i / 2 : i - 1_000;
            seen.merge("cause " + cause, 1, Integer::sum);
            state.add(result("X-" + i, "MR-HDR-001", Verdict.FAIL, failure("MR-HDR-001", "", "cause " + cause)));
        }
        assertThat(state.causes().groups()).hasSize(CauseGroups.MAX_GROUPS)
            .allSatisfy(g -> assertThat(g.count()).isEqualTo(2))
            .allSatisfy(g -> assertThat(g.examples()).hasSize(2));
        assertThat(state.causes().groups().get(0).line(3)).isEqualTo("2 cases: MR-HDR-001: cause 0 (X-0, X-1)");
        assertThat(state.causes().otherCases()).isEqualTo(500);
        assertThat(state.failingCount()).isEqualTo(2_500);
        assertThat(seen).hasSize(1_500);
    }

    @Test
    void frameNumbersAreKeptForTheLast1024CasesOnly() {
        final RunState state = new RunState(null);
        state.start(info(3_000));
        state.evidenceOpened();
        for (int i = 0; i < 3_000; i++) {
            state.add(result("C-" + i, "MR-HDR-001", Verdict.PASS, null));
            state.evidenceAppended(2); // two frames a case
            // asked as the case finishes, as the terminal's FAIL line asks
            assertThat(state.pcapngFrame("C-" + i, 1)).isEqualTo(2L * i + 2);
        }
        assertThat(state.pcapngFrame("C-2999", 0)).isEqualTo(5_999);
        assertThat(state.pcapngFrame("C-" + (3_000 - RunState.FRAMES_KEPT), 0)).isEqualTo(2L * (3_000
            - RunState.FRAMES_KEPT) + 1);
        assertThat(state.pcapngFrame("C-" + (2_999 - RunState.FRAMES_KEPT), 0)).isEqualTo(-1);
        assertThat(state.pcapngFrame("C-0", 0)).isEqualTo(-1);
        assertThat(state.pcapngFrame("C-2999", -1)).isEqualTo(-1);
        assertThat(state.pcapngFrame("no such case", 0)).isEqualTo(-1);
    }
}

package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.BaselineEntry;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/** Baselines: loading YAML and JSON, every problem reported together with file:line, and the comparison rules. */
class BaselineTest {
    @TempDir
    Path dir;

    private Path file(final String name, final String text) throws Exception {
        final Path path = dir.resolve(name);
        Files.writeString(path, text);
        return path;
    }

    @Test
    void loadsYaml() throws Exception {
        final Baseline baseline = Baseline.load(file("known.yaml", String.join("\n",
            "# known failures of firmware 2.1",
            "- case: ORD-004",
            "  verdict: FAIL",
            "  reason: acknowledges the last PSN twice (ticket 1234)",
            "- case: PLC-003",
            "  verdict: warn",
            "  reason: 'coalescing off: \"per-message\" mode missing'",
            "- {case: QP-001, verdict: not-applicable, reason: no RTS}",
            "")));
        assertThat(baseline.source()).isEqualTo(dir.resolve("known.yaml").toString());
        assertThat(baseline.entries()).containsExactly(
            new BaselineEntry("ORD-004", Verdict.FAIL, "acknowledges the last PSN twice (ticket 1234)"),
            new BaselineEntry("PLC-003", Verdict.WARN, "coalescing off: \"per-message\" mode missing"),
            new BaselineEntry("QP-001", Verdict.NOT_APPLICABLE, "no RTS"));
    }

    @Test
    void loadsJson() throws Exception {
        final Baseline baseline = Baseline.load(file("known.json",
            "[{\"case\": \"ORD-004\", \"verdict\": \"FAIL\", \"reason\": \"r\"}]"));
        assertThat(baseline.entries()).containsExactly(new BaselineEntry("ORD-004", Verdict.FAIL, "r"));
        assertThat(Baseline.load(file("empty.json", "[]")).entries()).isEmpty();
    }

    @Test
    void everyProblemIsReportedTogetherWithFileAndLine() throws Exception {
        final Path path = file("bad.yaml", String.join("\n",
            "- case: ORD-004",            // 1
            "  verdict: FAIL",            // 2
            "  reason: ok",               // 3
            "- case: ORD-005",            // 4
            "  verdict: BROKEN",          // 5
            "  reason: unknown verdict",  // 6
            "- case: ORD-004",            // 7
            "  verdict: FAIL",            // 8
            "  reason: duplicate",        // 9
            "- case: ORD-006",            // 10
            "  reason: no verdict",       // 11
            "- case: ORD-007",            // 12
            "  verdict: ERROR",           // 13
            "  reason: extra key",        // 14
            "  ticket: 99",               // 15
            "- just a string",            // 16
            "- case: ORD-008",            // 17
            "  verdict: PASS",            // 18
            "  reason: ''",               // 19
            ""));
        final String name = path.toString();
        assertThatThrownBy(() -> Baseline.load(path)).isInstanceOfSatisfying(BaselineException.class, e -> {
            assertThat(e.problems()).extracting(BaselineProblem::toString).containsExactly(
                name + ":5: unknown verdict 'BROKEN' (verdicts are [NOT_APPLICABLE, PASS, WARN, INCONCLUSIVE, FAIL, "
                    + "ERROR])",
                name + ":7: duplicate case 'ORD-004' (first listed at line 1)",
                name + ":10: entry has no 'verdict' (an entry has case, verdict and reason)",
                name + ":15: unknown key 'ticket' (an entry has case, verdict and reason)",
                name + ":16: an entry must be a mapping with case, verdict and reason, not a string",
                name + ":19: 'reason' is empty");
            assertThat(e.getMessage()).startsWith("the baseline " + name + " has 6 problems:\n  " + name + ":5: ");
        });
    }

    @Test
    void malformedFilesAreProblemsToo() throws Exception {
        final Path yaml = file("broken.yaml", "- case: ORD-004\n  verdict: FAIL\n  reason: \"unterminated\n");
        assertThatThrownBy(() -> Baseline.load(yaml)).isInstanceOfSatisfying(BaselineException.class, e ->
            assertThat(e.problems()).singleElement().asString().startsWith(yaml + ":3: not valid YAML: ")
                .doesNotContain("\n"));
        final Path json = file("broken.json", "[\n{\"case\": \"A\",\n\"verdict\": FAIL}]");
        assertThatThrownBy(() -> Baseline.load(json)).isInstanceOfSatisfying(BaselineException.class, e ->
            assertThat(e.problems()).singleElement().asString().startsWith(json + ":3: not valid JSON: "));
        final Path map = file("map.yaml", "case: ORD-004\nverdict: FAIL\n");
        assertThatThrownBy(() -> Baseline.load(map)).isInstanceOfSatisfying(BaselineException.class, e ->
            assertThat(e.problems()).singleElement().asString().isEqualTo(map
                + ":1: a baseline is a list of {case, verdict, reason} entries, not a mapping"));
        final Path empty = file("empty.yaml", "# nothing yet\n");
        assertThatThrownBy(() -> Baseline.load(empty)).isInstanceOfSatisfying(BaselineException.class, e ->
            assertThat(e.problems()).singleElement().asString().isEqualTo(empty
                + ":1: the file is empty; a baseline with no known failures is written []"));
        final Path missing = dir.resolve("missing.yaml");
        assertThatThrownBy(() -> Baseline.load(missing)).isInstanceOfSatisfying(BaselineException.class, e ->
            assertThat(e.problems()).singleElement().asString().startsWith(missing + ":0: cannot read the file: "));
    }

    @Test
    void comparisonSortsCasesIntoNewlyFailingNewlyPassingKnownAndStale() {
        final Baseline baseline = Baseline.of("known.yaml", List.of(
            new BaselineEntry("ORD-004", Verdict.ERROR, "listed with another verdict"),
            new BaselineEntry("QP-001", Verdict.ERROR, "known"),
            new BaselineEntry("HDR-001", Verdict.FAIL, "fixed since"),
            new BaselineEntry("PLC-003", Verdict.WARN, "every row"),
            new BaselineEntry("GONE-001", Verdict.FAIL, "renamed")));
        final BaselineComparison comparison = baseline.compare(Synthetic.allVerdicts(), false);
        assertThat(comparison.baseline()).isEqualTo("known.yaml");
        assertThat(comparison.newlyFailing()).containsExactly("ORD-004");
        assertThat(comparison.known()).containsExactly("PLC-003[mode=write,pmtu=256]", "QP-001");
        assertThat(comparison.newlyPassing()).containsExactly("HDR-001", "PLC-003[mode=write,pmtu=1024]");
        assertThat(comparison.stale()).containsExactly("GONE-001");
    }

    @Test
    void strictMakesWarningsFailAndAnExactRowWinsOverTheWholeCase() {
        final Baseline none = Baseline.of("empty", List.of());
        assertThat(none.compare(Synthetic.allVerdicts(), false).newlyFailing()).containsExactly("ORD-004", "QP-001");
        assertThat(none.compare(Synthetic.allVerdicts(), true).newlyFailing())
            .containsExactly("ORD-004", "PLC-003[mode=write,pmtu=256]", "QP-001");

        final Baseline rows = Baseline.of("rows", List.of(
            new BaselineEntry("PLC-003", Verdict.WARN, "whole case"),
            new BaselineEntry("PLC-003[mode=write,pmtu=256]", Verdict.FAIL, "this row fails under strict")));
        final BaselineComparison strict = rows.compare(Synthetic.allVerdicts(), true);
        assertThat(strict.newlyFailing()).containsExactly("ORD-004", "PLC-003[mode=write,pmtu=256]", "QP-001");
        assertThat(strict.newlyPassing()).containsExactly("PLC-003[mode=write,pmtu=1024]");
        assertThat(strict.stale()).isEmpty();
        final CaseResult row = Synthetic.warn();
        assertThat(rows.entryFor(row).reason()).isEqualTo("this row fails under strict");
    }

    @Test
    void aBaselineOfTheCurrentFailuresRoundTripsThroughYaml() throws Exception {
        final CaseResult odd = new CaseResult("ROB-009", "ROB-009", "t", "robustness", List.of("MR-ROB-001"),
            Level.MUST, Role.ANY, "f", Map.of(), Verdict.FAIL, "reason: with 'quotes', \"double\", # hash and\nnewline",
            null, 1, 1, 1, List.of(), List.of(), Map.of());
        final List<CaseResult> results = new java.util.ArrayList<>(Synthetic.allVerdicts());
        results.add(odd);
        final Baseline current = Baseline.ofFailures("current", results, true);
        assertThat(current.entries()).extracting(BaselineEntry::caseId)
            .containsExactly("ORD-004", "PLC-003[mode=write,pmtu=256]", "QP-001", "ROB-009");
        final Baseline reloaded = Baseline.load(file("current.yaml", current.toYaml()));
        assertThat(reloaded.entries()).isEqualTo(current.entries());
        final BaselineComparison comparison = reloaded.compare(results, true);
        assertThat(comparison.newlyFailing()).isEmpty();
        assertThat(comparison.known()).hasSize(4);
    }

    @Test
    void duplicateEntriesAreRefusedInCodeToo() {
        assertThatThrownBy(() -> Baseline.of("x", List.of(new BaselineEntry("A", Verdict.FAIL, "r"),
            new BaselineEntry("A", Verdict.ERROR, "r")))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("duplicate case A");
    }
}

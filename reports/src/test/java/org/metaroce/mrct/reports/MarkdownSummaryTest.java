package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/** {@code summary.md}: exact content for a small run, bounded length for any run, escaping. */
class MarkdownSummaryTest {
    @TempDir
    Path dir;

    private String run(final List<CaseResult> cases, final BaselineComparison baseline) throws Exception {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.MARKDOWN), Synthetic.spec());
        Synthetic.run(listener, cases, baseline);
        return Files.readString(dir.resolve("summary.md"));
    }

    @Test
    void exactSummaryOfASmallRun() throws Exception {
        assertThat(run(Synthetic.allVerdicts(), Synthetic.baseline())).isEqualTo(String.join("\n",
            "## mrct: NON_CONFORMANT",
            "",
            "**NON_CONFORMANT**: 1 MUST rule failed: MR-ORD-001",
            "",
            "Acme RN-9 firmware fw 2.1.0 · adapter reference · spec 1.0 · seed -7354920016391124837 · 8 of 8 cases",
            "",
            "| verdict | cases |",
            "| --- | ---: |",
            "| NOT_APPLICABLE | 1 |",
            "| PASS | 3 |",
            "| WARN | 1 |",
            "| INCONCLUSIVE | 1 |",
            "| FAIL | 1 |",
            "| ERROR | 1 |",
            "",
            "### Root causes (2)",
            "",
            "| cases | rule | field | cause | examples |",
            "| ---: | --- | --- | --- | --- |",
            "| 1 | MR-ORD-001 |  |  | ORD-004 |",
            "| 1 | MR-PLC-001 |  |  | PLC-003\\[mode=write,pmtu=256\\] |",
            "",
            "### Failing cases (2)",
            "",
            "| case | verdict | rule | frame | reason |",
            "| --- | --- | --- | ---: | --- |",
            "| ORD-004 | FAIL | MR-ORD-001 |  | the responder acknowledged PSN 1 instead of 2 |",
            "| QP-001 | ERROR | MR-QP-001 |  | adapter error: modify\\_qp(RTS) timed out after 5 s |",
            "",
            "### Against the baseline known-failures.yaml",
            "",
            "- newly failing (1): ORD-004",
            "- newly passing (1): HDR-001",
            "- stale entries, matching no case of this run (1): OLD-001",
            "- known failures (1)",
            ""));
    }

    @Test
    void staysShortForAnyRun() throws Exception {
        final List<CaseResult> cases = new ArrayList<>();
        final List<String> ids = new ArrayList<>();
        final CaseResult template = Synthetic.fail();
        for (int i = 0; i < 400; i++) {
            final String id = String.format("ORD-%03d", i);
            ids.add(id);
            cases.add(new CaseResult(id, id, template.title(), "ordering", template.rules(), Level.MUST, Role.RESPONDER,
                template.file(), Map.of(), i % 2 == 0 ? Verdict.FAIL : Verdict.ERROR,
                "a reason that goes on and on ".repeat(20), template.failure(), 1, 1, 1, List.of(), List.of(),
                Map.of()));
        }
        final String summary = run(cases, new BaselineComparison("b.yaml", ids, ids, ids, ids));
        final List<String> lines = summary.lines().toList();
        assertThat(lines.size()).isLessThanOrEqualTo(60);
        assertThat(summary).contains("### Failing cases (400)", "\nand 385 more\n",
            "- newly failing (400): ORD-000, ORD-001, ORD-002, ORD-003, ORD-004, ORD-005, ORD-006, ORD-007, ORD-008, "
                + "ORD-009 and 390 more\n");
        for (final String line : lines) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(400);
        }
    }

    @Test
    void pastAThousandCausesTheRestAreCounted() throws Exception {
        final List<CaseResult> cases = new ArrayList<>();
        final CaseResult template = Synthetic.fail();
        for (int i = 0; i < CauseGroups.MAX_GROUPS + 2; i++) {
            final String id = String.format("ORD-%04d", i);
            final org.metaroce.mrct.harness.result.Failure failure = new org.metaroce.mrct.harness.result.Failure(
                "MR-ORD-001", 1, "step", 1, 0, List.of(), null, null, "m", "bth.psn", "shape " + i, "");
            cases.add(new CaseResult(id, id, template.title(), "ordering", template.rules(), Level.MUST, Role.RESPONDER,
                template.file(), Map.of(), Verdict.FAIL, "r", failure, 1, 1, 1, List.of(), List.of(), Map.of()));
        }
        final String summary = run(cases, null);
        assertThat(summary).contains("### Root causes (1000+)\n", "\nand 985 more\n",
            "\nand 2 cases failing of other causes (only the first 1000 causes are grouped)\n",
            "| 1 | MR-ORD-001 | bth.psn | shape 0 | ORD-0000 |", "### Failing cases (1002)");
        assertThat(summary.lines().count()).isLessThanOrEqualTo(60);
    }

    @Test
    void resultTextCannotBreakTheTableOrInjectMarkup() throws Exception {
        final String summary = run(List.of(Synthetic.hostile()), null);
        final String row = summary.lines().filter(l -> l.startsWith("| ROB-666 |")).findFirst().orElseThrow();
        // a table row keeps exactly its 5 cell separators: every | from the result is escaped
        assertThat(row.replace("\\|", "").chars().filter(c -> c == '|').count()).isEqualTo(6);
        assertThat(row).doesNotContain("<", "\u0001", "\u2028").contains("&lt;/script&gt;&lt;img", "\\`tick\\`");
        assertThat(summary).doesNotContain("<img");
    }

    @Test
    void namesTheOtherFilesWrittenBesideIt() throws Exception {
        Synthetic.run(Reports.open(dir, EnumSet.allOf(ReportFormat.class), null), List.of(Synthetic.pass()), null);
        assertThat(Files.readString(dir.resolve("summary.md")))
            .endsWith("\n\nDetails: `report.html`, `report.json`, `junit.xml`, `evidence.pcapng`.\n");
    }

    @Test
    void saysIncompleteUntilTheRunFinishes() throws Exception {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.MARKDOWN), null);
        listener.runStarted(Synthetic.info(8));
        listener.caseFinished(Synthetic.fail());
        String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).startsWith("## mrct: INCOMPLETE\n\n**INCOMPLETE**: the run has not finished: 1 of 8 "
            + "cases done so far\n").contains("> **Incomplete:** the run has not finished", "| FAIL | 1 |",
            "· 1 of 8 cases");
        listener.runFinished(Synthetic.info(8), Synthetic.summary(List.of(Synthetic.fail()), null, false));
        summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary).startsWith("## mrct: NON_CONFORMANT\n")
            .contains("> **Incomplete:** the run stopped before every case ran");
        listener.runFinished(Synthetic.info(8), Synthetic.summary(List.of(Synthetic.fail()), null, true));
        assertThat(Files.readString(dir.resolve("summary.md"))).doesNotContain("Incomplete");
    }
}

package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Verdict;

/** Comparing two report.json files, and the typed error for files that are not reports. */
class ReportDiffTest {
    @TempDir
    Path dir;

    private Path report(final String name, final List<CaseResult> cases, final boolean finish) throws Exception {
        final Path out = dir.resolve(name);
        final RunListener listener = Reports.open(out, EnumSet.of(ReportFormat.JSON), null);
        if (finish) {
            Synthetic.run(listener, cases, null);
        } else {
            listener.runStarted(Synthetic.info(cases.size() + 1));
            cases.forEach(listener::caseFinished);
        }
        return out.resolve("report.json");
    }

    private static CaseResult withVerdict(final CaseResult c, final Verdict verdict) {
        return new CaseResult(c.id(), c.caseId(), c.title(), c.area(), c.rules(), c.level(), c.role(), c.file(),
            c.parameters(), verdict, c.reason(), c.failure(), c.wallNanos(), c.deviceNanos(), c.attempts(),
            c.evidence(), c.notes(), c.series());
    }

    @Test
    void listsChangedVerdictsAndCasesOnlyInOneRun() throws Exception {
        final List<CaseResult> before = new ArrayList<>(Synthetic.allVerdicts());
        final List<CaseResult> after = new ArrayList<>(Synthetic.allVerdicts());
        after.set(0, withVerdict(Synthetic.pass(), Verdict.FAIL));     // HDR-001 PASS -> FAIL
        after.set(1, withVerdict(Synthetic.fail(), Verdict.PASS));     // ORD-004 FAIL -> PASS
        after.remove(4);                                               // ATM-001 only in A
        after.add(Synthetic.hostile());                                // ROB-666 only in B
        final Path a = report("a", before, true);
        final Path b = report("b", after, false);
        final ReportDiff diff = ReportDiff.compare(a, b);
        assertThat(diff.changed()).containsExactly(new ReportDiff.Change("HDR-001", Verdict.PASS, Verdict.FAIL),
            new ReportDiff.Change("ORD-004", Verdict.FAIL, Verdict.PASS));
        assertThat(diff.regressions()).extracting(ReportDiff.Change::id).containsExactly("HDR-001");
        assertThat(diff.onlyInA()).containsExactly(new ReportDiff.CaseVerdict("ATM-001", Verdict.NOT_APPLICABLE));
        assertThat(diff.onlyInB()).containsExactly(new ReportDiff.CaseVerdict("ROB-666", Verdict.FAIL));
        assertThat(diff.unchanged()).isEqualTo(5);
        assertThat(diff.completeA()).isTrue();
        assertThat(diff.completeB()).isFalse();
        assertThat(diff.isEmpty()).isFalse();
        assertThat(diff.toText()).isEqualTo(String.join("\n",
            "A: " + a,
            "B: " + b + " (incomplete run)",
            "verdict changed (2):",
            "  HDR-001: PASS -> FAIL  (regression)",
            "  ORD-004: FAIL -> PASS",
            "only in A (1):",
            "  ATM-001: NOT_APPLICABLE",
            "only in B (1):",
            "  ROB-666: FAIL",
            "unchanged: 5 cases",
            ""));
        assertThat(diff.toMarkdown()).contains(
            "| case | A | B |\n| --- | --- | --- |\n| HDR-001 | PASS | FAIL (regression) |\n| ORD-004 | FAIL | PASS |\n",
            "Only in A (1):\n\n- ATM-001: NOT_APPLICABLE\n",
            "Only in B (1):\n\n- ROB-666: FAIL\n",
            "Unchanged: 5 cases.\n");
    }

    @Test
    void identicalRunsHaveNoDifference() throws Exception {
        final ReportDiff diff = ReportDiff.compare(report("a", Synthetic.allVerdicts(), true),
            report("b", Synthetic.allVerdicts(), true));
        assertThat(diff.isEmpty()).isTrue();
        assertThat(diff.toText()).endsWith("no differences: 8 cases with the same verdicts\n");
        assertThat(diff.toMarkdown()).endsWith("No differences: 8 cases with the same verdicts.\n");
    }

    @Test
    void badInputIsATypedErrorNamingTheFile() throws Exception {
        final Path good = report("good", List.of(Synthetic.pass()), true);
        final Path missing = dir.resolve("missing.json");
        expectError(good, missing, missing + ": no such file");
        final Path notJson = write("not.json", "{\n  \"format\": \"mrct-report\",\n  oops\n}");
        expectError(notJson, good, notJson + ": line 3, column 3: not valid JSON: ");
        final Path other = write("other.json", "{\"format\": \"something-else\", \"cases\": []}");
        expectError(good, other, other + ": not an mrct report (/format is not \"mrct-report\")");
        final Path array = write("array.json", "[]");
        expectError(good, array, array + ": not an mrct report (the document is not a JSON object)");
        final Path future = write("future.json", "{\"format\": \"mrct-report\", \"version\": 2, \"cases\": []}");
        expectError(good, future, future + ": report schema version 2 is not supported (this mrct reads version 1)");
        final Path badVerdict = write("verdict.json", "{\"format\": \"mrct-report\", \"version\": 1, \"cases\": "
            + "[{\"id\": \"A\", \"verdict\": \"PASS\"}, {\"id\": \"B\", \"verdict\": \"pass\"}]}");
        expectError(good, badVerdict, badVerdict + ": /cases/1/verdict of B is \"pass\", not one of [");
        final Path noId = write("noid.json", "{\"format\": \"mrct-report\", \"version\": 1, \"cases\": [{}]}");
        expectError(good, noId, noId + ": /cases/0/id is missing or not a string");
        final Path twice = write("twice.json", "{\"format\": \"mrct-report\", \"version\": 1, \"cases\": "
            + "[{\"id\": \"A\", \"verdict\": \"PASS\"}, {\"id\": \"A\", \"verdict\": \"FAIL\"}]}");
        expectError(good, twice, twice + ": /cases/1: case A appears twice");
        final Path noCases = write("nocases.json", "{\"format\": \"mrct-report\", \"version\": 1}");
        expectError(noCases, good, noCases + ": /cases is missing or not an array");
    }

    private Path write(final String name, final String text) throws Exception {
        final Path path = dir.resolve(name);
        Files.writeString(path, text);
        return path;
    }

    private static void expectError(final Path a, final Path b, final String messageStart) {
        final String bad = messageStart.substring(0, messageStart.indexOf(": "));
        assertThatThrownBy(() -> ReportDiff.compare(a, b)).isInstanceOfSatisfying(ReportReadException.class, e -> {
            assertThat(e.getMessage()).startsWith(messageStart);
            assertThat(e.file()).isEqualTo(bad);
        });
    }
}

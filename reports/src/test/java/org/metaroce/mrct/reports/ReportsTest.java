package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.result.RunListener;
import org.w3c.dom.Document;

/** {@link Reports#open}: every file valid after every event, incomplete until the run finishes, failures named. */
class ReportsTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<ReportFormat> WRITTEN = EnumSet.allOf(ReportFormat.class);

    @TempDir
    Path dir;

    @Test
    void afterEveryCaseEveryFileIsValidAndSaysTheRunIsIncomplete() throws Exception {
        final List<CaseResult> cases = Synthetic.allVerdicts();
        final RunListener listener = Reports.open(dir, WRITTEN, Synthetic.spec());
        listener.runStarted(Synthetic.info(cases.size()));
        int frames = 0;
        int shown = 0;
        checkAll(0, cases.size(), false, frames);
        for (int i = 0; i < cases.size(); i++) {
            listener.caseStarted(cases.get(i).id(), i, cases.size());
            listener.caseFinished(cases.get(i));
            frames += cases.get(i).evidence().size();
            // a case that did not pass is in the reports at once; passes may wait for the next rewrite (500 ms)
            final int now = MAPPER.readTree(dir.resolve("report.json").toFile()).get("cases").size();
            final Verdict verdict = cases.get(i).verdict();
            if (verdict != Verdict.PASS && verdict != Verdict.NOT_APPLICABLE) {
                assertThat(now).as("after case %d (%s)", i, verdict).isEqualTo(i + 1);
            } else {
                assertThat(now).as("after case %d", i).isIn(shown, i + 1);
            }
            shown = now;
            checkAll(shown, cases.size(), false, frames);
        }
        listener.runFinished(Synthetic.info(cases.size()), Synthetic.summary(cases, null, true));
        checkAll(cases.size(), cases.size(), true, frames);
        assertThatThrownBy(() -> listener.caseFinished(Synthetic.pass())).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("after runFinished");
    }

    private void checkAll(final int done, final int total, final boolean complete, final int frames)
        throws Exception {
        final String when = done + " of " + total + " cases";
        final JsonNode json = MAPPER.readTree(dir.resolve("report.json").toFile());
        assertThat(json.get("complete").asBoolean()).as(when).isEqualTo(complete);
        assertThat(json.get("cases")).as(when).hasSize(done);
        assertThat(json.get("overall").asText()).as(when).isEqualTo(complete ? "NON_CONFORMANT" : "INCOMPLETE");
        if (!complete) {
            assertThat(json.get("reason").asText())
                .isEqualTo("the run has not finished: " + done + " of " + total + " cases done so far");
        }

        final Document junit = JunitXml.validated(dir.resolve("junit.xml"));
        final long runSuites = JunitXml.children(junit.getDocumentElement(), "testsuite").stream()
            .filter(s -> s.getAttribute("name").equals("mrct.run")).count();
        assertThat(runSuites).as(when).isEqualTo(complete ? 0 : 1);
        assertThat(Integer.parseInt(junit.getDocumentElement().getAttribute("tests"))).as(when)
            .isEqualTo(done + (complete ? 0 : 1));

        final JsonNode embedded = HtmlData.report(Files.readString(dir.resolve("report.html")));
        assertThat(embedded.get("cases")).as(when).hasSize(done);
        assertThat(embedded.get("complete").asBoolean()).as(when).isEqualTo(complete);

        final String summary = Files.readString(dir.resolve("summary.md"));
        assertThat(summary.contains("Incomplete")).as(when).isEqualTo(!complete);
        assertThat(summary).contains(done + " of " + total + " cases");

        assertThat(EvidenceTest.read(dir.resolve("evidence.pcapng"))).as("evidence is appended after every case")
            .hasSize(frames);

        try (Stream<Path> files = Files.list(dir)) {
            // until the last write the cases are also in the writers' hidden spill files (SpillTest)
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> complete || !n.endsWith(".spill"))
                .sorted()).as("only the reports, no temporary file left")
                .containsExactly("evidence.pcapng", "junit.xml", "report.html", "report.json", "summary.md");
        }
    }

    @Test
    void aRunStartedAgainForgetsTheFirst() throws Exception {
        final RunListener listener = Reports.open(dir, WRITTEN, null);
        Synthetic.run(listener, Synthetic.allVerdicts(), null);
        Synthetic.run(listener, List.of(Synthetic.pass()), null);
        assertThat(MAPPER.readTree(dir.resolve("report.json").toFile()).get("cases")).hasSize(1);
        assertThat(JunitXml.validated(dir.resolve("junit.xml")).getDocumentElement().getAttribute("tests"))
            .isEqualTo("1");
        assertThat(HtmlData.report(Files.readString(dir.resolve("report.html"))).get("cases")).hasSize(1);
        assertThat(EvidenceTest.read(dir.resolve("evidence.pcapng"))).hasSize(2);
    }

    @Test
    void aFileThatCannotBeWrittenIsNamedAndTheOthersAreStillWritten() throws Exception {
        // a non-empty directory where report.json should go: the atomic move over it fails
        Files.createDirectories(dir.resolve("report.json"));
        Files.writeString(dir.resolve("report.json/keep"), "x");
        final RunListener listener = Reports.open(dir, WRITTEN, null);
        assertThatThrownBy(() -> listener.runStarted(Synthetic.info(1)))
            .isInstanceOfSatisfying(ReportWriteException.class, e -> {
                assertThat(e.file()).isEqualTo(dir.resolve("report.json"));
                assertThat(e.getMessage()).startsWith("cannot write the report " + dir.resolve("report.json"));
            });
        assertThat(dir.resolve("summary.md")).exists();
        assertThat(dir.resolve("evidence.pcapng")).exists();
        assertThat(dir.resolve("junit.xml")).exists();
        assertThat(dir.resolve("report.html")).exists();
        assertThat(dir.resolve(".report.json.tmp")).doesNotExist();
    }

    @Test
    void misuseIsRefusedWithAReason() throws Exception {
        assertThatThrownBy(() -> Reports.open(dir, EnumSet.noneOf(ReportFormat.class), null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no report format");
        final RunListener listener = Reports.open(dir, WRITTEN, null);
        assertThatThrownBy(() -> listener.caseFinished(Synthetic.pass()))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("before runStarted");
        assertThatThrownBy(() -> listener.runFinished(null, Synthetic.summary(List.of(), null, true)))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("before runStarted");
    }

    @Test
    void theDirectoryIsCreated() throws Exception {
        final Path nested = dir.resolve("a/b/c");
        Synthetic.run(Reports.open(nested, EnumSet.of(ReportFormat.MARKDOWN), null), List.of(Synthetic.pass()), null);
        assertThat(nested.resolve("summary.md")).isRegularFile();
        assertThat(ReportFormat.EVIDENCE.fileName()).isEqualTo("evidence.pcapng");
    }
}

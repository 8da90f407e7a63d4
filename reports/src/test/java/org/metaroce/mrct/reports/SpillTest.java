package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.reports.internal.Spill;

/**
 * The writers keep no case: each case is serialised once into a hidden spill file beside its report, every rewrite
 * streams the spilled entries, and the spill files are gone once the run's last write is done.
 */
class SpillTest {
    @TempDir
    Path dir;

    private static byte[] utf8(final String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String copied(final Spill spill) throws IOException {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        spill.copyTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void entriesAreStreamedBackInOrderAndARunStartedAgainForgetsThem() throws Exception {
        final Spill spill = Spill.beside(dir.resolve("report.json"), "");
        assertThat(spill.file()).isEqualTo(dir.resolve(".report.json.spill"));
        assertThat(copied(spill)).isEmpty();
        spill.append(utf8(""), utf8("{a}"));
        spill.append(utf8(","), utf8("{\u00e9}"));
        assertThat(copied(spill)).isEqualTo("{a},{\u00e9}");
        assertThat(spill.entries()).isEqualTo(2);
        assertThat(spill.bytes()).isEqualTo(8);
        spill.append(utf8(","), utf8("{c}"));
        assertThat(copied(spill)).as("copied again after more entries").isEqualTo("{a},{\u00e9},{c}");

        spill.reset();
        assertThat(spill.file()).doesNotExist();
        spill.append(utf8(""), utf8("{d}"));
        assertThat(copied(spill)).isEqualTo("{d}");
        spill.delete();
        assertThat(spill.file()).doesNotExist();
        assertThatThrownBy(() -> copied(spill)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("deleted after the run's last write");
    }

    @Test
    void afterTheLastWriteTheEntriesAreReadFromTheReportWhereThatWritePutThem() throws Exception {
        final Path report = dir.resolve("report.json");
        final Spill spill = Spill.beside(report, "");
        spill.append(utf8(""), utf8("{a}"));
        spill.append(utf8(","), utf8("{b}"));
        try (var out = new Spill.Positioned(Files.newOutputStream(report))) {
            out.write(utf8("head["));
            spill.copyTo(out);
            out.write(utf8("]tail"));
        }
        spill.settled(report);
        assertThat(spill.file()).doesNotExist();
        Files.writeString(report, "HEAD[{a},{b}]tail", StandardCharsets.UTF_8);
        assertThat(copied(spill)).as("the bytes at the offset the last write put them").isEqualTo("{a},{b}");
    }

    @Test
    void aFailureToAppendIsThrownByTheNextCopy() throws Exception {
        final Path blocked = dir.resolve("blocked");
        Files.createDirectories(blocked.resolve("x"));
        final Spill spill = new Spill(blocked);
        spill.append(utf8(""), utf8("{a}"));
        assertThat(spill.entries()).isEqualTo(1);
        assertThatThrownBy(() -> copied(spill)).isInstanceOf(IOException.class)
            .hasMessageContaining("cannot append to " + blocked);
    }

    @Test
    void duringTheRunTheCasesAreInSpillFilesNotInTheWritersAndAfterItTheSpillFilesAreGone() throws Exception {
        // every verdict, then 600 passing cases: far more than the spill's 64 KiB buffer holds, so all but the last
        // few must be in the file while the run goes on (a writer that kept its entries would leave it empty)
        final List<CaseResult> cases = new ArrayList<>(Synthetic.allVerdicts());
        final CaseResult pass = Synthetic.pass();
        for (int i = 0; i < 600; i++) {
            cases.add(new CaseResult("PASS-" + i, pass.caseId(), pass.title(), pass.area(), pass.rules(),
                pass.level(), pass.role(), pass.file(), pass.parameters(), pass.verdict(), pass.reason(), null,
                pass.wallNanos(), pass.deviceNanos(), 1, pass.evidence(), pass.notes(), Map.of()));
        }
        final RunListener listener = Reports.open(dir, EnumSet.allOf(ReportFormat.class), Synthetic.spec());
        final RunInfo info = Synthetic.info(cases.size());
        listener.runStarted(info);
        for (int i = 0; i < cases.size(); i++) {
            listener.caseStarted(cases.get(i).id(), i, cases.size());
            listener.caseFinished(cases.get(i));
        }
        final List<String> spills = spills();
        assertThat(spills).contains(".report.json.spill", ".report.html.spill", ".junit.xml.0.spill");
        final String spilled = Files.readString(dir.resolve(".report.json.spill"), StandardCharsets.UTF_8);
        // each entry is more than 500 bytes: at most 131 of them can still be in the buffer
        for (final CaseResult result : cases.subList(0, cases.size() - 131)) {
            assertThat(spilled).contains("\"id\": \"" + result.id() + "\"");
        }
        listener.runFinished(info, Synthetic.summary(cases, null, true));
        assertThat(spills()).as("deleted after the last write").isEmpty();
        final String report = Files.readString(dir.resolve("report.json"), StandardCharsets.UTF_8);
        assertThat(report).as("the spilled cases, streamed into the report").contains(spilled);
        for (final CaseResult result : cases) {
            assertThat(report).contains("\"id\": \"" + result.id() + "\"");
        }
    }

    @Test
    void aSweepRemovesTheSpillFilesNoProcessHoldsAndNothingElse() throws Exception {
        for (final String stale : List.of(".report.json.spill", ".junit.xml.0.spill", ".junit.xml.1.warn.spill")) {
            Files.writeString(dir.resolve(stale), "left by a killed run");
        }
        for (final String other : List.of("report.json", ".report.json.tmp", "notes.spill", "a.spill.txt")) {
            Files.writeString(dir.resolve(other), "not a spill file");
        }
        final Spill held = Spill.beside(dir.resolve("report.html"), "");
        held.append(utf8(""), utf8("{mine}"));

        assertThat(Spill.sweep(dir)).extracting(p -> p.getFileName().toString())
            .containsExactlyInAnyOrder(".report.json.spill", ".junit.xml.0.spill", ".junit.xml.1.warn.spill");

        assertThat(spills()).containsExactly(".report.html.spill", "notes.spill");
        assertThat(dir.resolve("report.json")).exists();
        assertThat(dir.resolve(".report.json.tmp")).exists();
        assertThat(copied(held)).as("this JVM's own spill file, still written and read").isEqualTo("{mine}");
        held.append(utf8(","), utf8("{more}"));
        assertThat(copied(held)).isEqualTo("{mine},{more}");
        held.delete();
        assertThat(Spill.sweep(dir.resolve("no such directory"))).isEmpty();
    }

    @Test
    void anotherProcesssSpillIsLockedWhileItLivesLeftWhenItIsKilledAndGoneWhenItExits() throws Exception {
        final Path file = dir.resolve(".report.json.spill");
        final Process holder = holder(file, "hold");
        try {
            assertThat(new String(holder.getInputStream().readNBytes(4), StandardCharsets.US_ASCII)).isEqualTo("held");
            assertThat(Spill.sweep(dir)).as("locked by a live process").isEmpty();
            assertThat(file).hasContent("{held}");
        } finally {
            holder.destroyForcibly(); // SIGKILL: no exit hook runs
        }
        assertThat(holder.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(file).as("left by the killed process").exists();
        assertThat(Spill.sweep(dir)).as("its lock went with it").containsExactly(file);
        assertThat(file).doesNotExist();

        final Process exiting = holder(file, "exit");
        assertThat(exiting.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(new String(exiting.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).startsWith("held");
        assertThat(file).as("deleted when that JVM exited").doesNotExist();
    }

    private static Process holder(final Path file, final String mode) throws IOException {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
            SpillHolder.class.getName(), file.toString(), mode).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private List<String> spills() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new ArrayList<>(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".spill"))
                .sorted().toList());
        }
    }
}

package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default report directory and {@code --keep}. */
class ReportOptionsTest {
    private static Path run(final Path parent, final String name) throws IOException {
        final Path dir = Files.createDirectories(parent.resolve(name));
        Files.writeString(dir.resolve("summary.md"), "# run " + name + "\n");
        return dir;
    }

    @Test
    void theDefaultIsATimestampUnderMrctReportsNotTheReportsModule() {
        final Path dir = new ReportOptions().dir();
        assertThat(dir.getNameCount()).isEqualTo(2);
        assertThat(dir.getName(0).toString()).isEqualTo("mrct-reports");
        assertThat(dir.getName(1).toString()).matches("\\d{8}T\\d{6}Z");
    }

    @Test
    void keepRemovesTheOldestRunsBesideTheReportsAndNothingElse(@TempDir final Path parent) throws IOException {
        final Path oldest = run(parent, "20260101T000000Z");
        final Path older = run(parent, "20260102T000000Z");
        final Path old = run(parent, "20260103T000000Z");
        final Path current = run(parent, "20260104T000000Z");
        final Path notes = run(parent, "notes");
        final Path empty = Files.createDirectories(parent.resolve("20250101T000000Z"));
        final Path file = Files.writeString(parent.resolve("20250102T000000Z"), "a file");
        final Path elsewhere = run(parent.resolve("elsewhere"), "20240101T000000Z");
        final Path link = Files.createSymbolicLink(parent.resolve("20240101T000000Z"), elsewhere);
        final Path inner = Files.createSymbolicLink(oldest.resolve("outside"), notes);

        final ReportOptions options = new ReportOptions();
        options.keep = 2;
        final List<Path> deleted = options.prune(current);

        assertThat(deleted).containsExactly(oldest, older);
        assertThat(oldest).doesNotExist();
        assertThat(older).doesNotExist();
        assertThat(inner).doesNotExist();
        assertThat(old).isDirectory();
        assertThat(current).isDirectory();
        // not runs of mrct: another name, no reports, a file, a link to a directory
        assertThat(notes.resolve("summary.md")).exists();
        assertThat(empty).isDirectory();
        assertThat(file).isRegularFile();
        assertThat(link).isSymbolicLink();
        assertThat(elsewhere.resolve("summary.md")).exists();
    }

    @Test
    void withoutKeepNothingIsRemovedAndTheCurrentRunIsAlwaysKept(@TempDir final Path parent) throws IOException {
        final Path first = run(parent, "20260101T000000Z");
        final Path current = run(parent, "20260102T000000Z");
        assertThat(new ReportOptions().prune(current)).isEmpty();
        final ReportOptions one = new ReportOptions();
        one.keep = 1;
        assertThat(one.prune(current)).containsExactly(first);
        assertThat(current.resolve("summary.md")).exists();
    }

    @Test
    void keepTakesAtLeastOne(@TempDir final Path dir) {
        final Mrct.Run run = Mrct.run("run", "--quiet", "--keep", "0", "--report-dir", dir.resolve("r").toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--keep takes the number of runs to keep, at least 1, not 0");
        assertThat(dir.resolve("r")).doesNotExist();
        final Mrct.Run analyze = Mrct.run("analyze", "--keep", "-1", "x.pcap");
        assertThat(analyze.status()).isEqualTo(2);
        assertThat(analyze.err()).contains("--keep takes the number of runs to keep, at least 1, not -1");
    }
}

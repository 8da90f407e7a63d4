package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk during {@code mrct run} (issue 11 item 8): a typed error naming the file, exit 2, never
 * {@code internal error} and exit 1. The full disk is Linux's {@code /dev/full} (every write fails with ENOSPC) behind a
 * symbolic link where a report file goes, which needs no root; the evidence file's block boundary is held by the
 * writer's own test (PcapngDiskFullTest).
 */
class RunDiskFullTest {
    private static final Path FULL = Path.of("/dev/full");

    private static Mrct.Run runInto(final Path dir) {
        return Mrct.run("run", "-s", "QP-001", "--generated", "0", "--report-dir", dir.toString(), "--quiet");
    }

    @Test
    void theEvidenceOnAFullDiskStopsTheRunWithExit2NamingTheFile(@TempDir final Path tmp) throws Exception {
        assumeTrue(Files.isWritable(FULL), "needs /dev/full (Linux)");
        final Path dir = Files.createDirectories(tmp.resolve("r"));
        Files.createSymbolicLink(dir.resolve("evidence.pcapng"), FULL);

        final Mrct.Run run = runInto(dir);
        Files.delete(dir.resolve("evidence.pcapng")); // the link, before JUnit warns of it

        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("mrct run: cannot write the report " + dir.resolve("evidence.pcapng"),
            "No space left on device").doesNotContain("internal error", "Exception", "\tat ");
    }

    @Test
    void aReportOnAFullDiskStopsTheRunWithExit2NamingTheFile(@TempDir final Path tmp) throws Exception {
        assumeTrue(Files.isWritable(FULL), "needs /dev/full (Linux)");
        final Path dir = Files.createDirectories(tmp.resolve("r"));
        Files.createSymbolicLink(dir.resolve(".report.json.tmp"), FULL);

        final Mrct.Run run = runInto(dir);

        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("mrct run: cannot write the report " + dir.resolve("report.json"),
            "No space left on device").doesNotContain("internal error", "Exception", "\tat ");
        assertThat(dir.resolve(".report.json.tmp")).doesNotExist();
    }
}

package org.metaroce.mrct.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.TrafficGenerator;
import org.metaroce.mrct.spark.internal.FleetCommand;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * The application's command line, as {@code mrct analyze --spark} starts it: the reports, the Parquet table, the
 * summary lines and the exit status of {@code mrct analyze}; a usage error exits 2 before Spark starts.
 */
class FleetCommandTest {
    private static final Path ROOT = Path.of(System.getProperty("mrct.root", "..")).toAbsolutePath().normalize();

    private record Run(int status, String out, String err) {
    }

    @org.junit.jupiter.api.BeforeAll
    static void start() {
        // the command uses the session running in the JVM, and leaves it running
        TestSpark.session();
    }

    private static Run run(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = FleetCommand.run(args, o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void cleanCapturesExitZeroWithReportsAndTable(@TempDir final Path tmp) throws Exception {
        final Path soft = ROOT.resolve("fixtures/captures/soft-roce");
        final Run run = run("--master", "local[2]", "--report-dir", tmp.resolve("r").toString(), "--format",
            "JSON", "--legacy", "--", soft.resolve("pingpong_rc.pcap").toString(),
            soft.resolve("rdma_write_bw.pcap").toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains(soft.resolve("pingpong_rc.pcap") + ": ")
            .contains("CONFORMANT: no violation seen").contains("reports: " + tmp.resolve("r"))
            .contains("findings table (Parquet): " + tmp.resolve("r/findings.parquet"));
        assertThat(tmp.resolve("r/report.json")).exists();
        try (var parts = Files.list(tmp.resolve("r/findings.parquet"))) {
            assertThat(parts.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".parquet"));
        }
    }

    /**
     * A clean generated conversation whose frames from the 2,000th on are 30 s later: idle longer than the release
     * window of the defaults of Appendix B (13.264 s), so mrct analyze judges it as two segments unless told to hold
     * every connection to the end.
     */
    private static Path pausedConversation(final Path dir) throws Exception {
        final Path file = dir.resolve("paused.pcap");
        final long[] written = {0};
        try (PcapWriter writer = PcapWriter.create(file,
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            TrafficGenerator.generate(TrafficGenerator.Options.eventful(4_000, 31), (ts, bytes) -> {
                final long at = written[0]++ < 2_000 ? ts : ts + 30_000_000_000L;
                writer.write(at, ByteBuffer.wrap(bytes), 0, bytes.length);
            });
        }
        return file;
    }

    @Test
    void theReleaseOptionsReachTheExecutors(@TempDir final Path tmp) throws Exception {
        final Path capture = pausedConversation(tmp);
        final Run released = run("--master", "local[2]", "--report-dir", tmp.resolve("a").toString(), "--format",
            "JSON", "--parquet", "none", "--", capture.toString());
        final Run held = run("--master", "local[2]", "--report-dir", tmp.resolve("b").toString(), "--format",
            "JSON", "--parquet", "none", "--release-after-ms", "0", "--", capture.toString());
        assertThat(released.status()).as(released.err()).isZero();
        assertThat(held.status()).as(held.err()).isZero();
        // by default the 30 s pause ends the QPs' first segment; with 0 the connection is held to the end
        assertThat(released.out()).contains(capture + ": ").contains(" RoCE, 2 connections in ");
        assertThat(held.out()).contains(capture + ": ").contains(" RoCE, 1 connection in ");
        assertThat(run("--release-after-ms", "-2", capture.toString()).status()).isEqualTo(2);
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        final Run run = run("--no-such-option", "x.pcap");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--no-such-option");
    }
}

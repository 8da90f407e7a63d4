package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mrct} in its own JVM, stopped by a signal (issue 11 items 7 and 8): {@code mrct serve} exits 0 on SIGTERM as
 * its help says, also while it warms up (and says that it does); {@code mrct run} stopped by Ctrl-C (SIGINT) names the
 * partial reports, which stay valid. The report writers' hidden spill files (issue 12): gone after SIGTERM, left by
 * SIGKILL and removed by the next run into the same directory. The waits are guards against a hang, not timing
 * assertions.
 */
class SignalsTest {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final long GUARD_NANOS = 240_000_000_000L;

    /** A running {@code mrct}, its output (both streams) in a file: a pipe would lose the last lines at exit. */
    private static final class Mrct implements AutoCloseable {
        final Process process;
        final Path log;

        Mrct(final Path dir, final String... args) throws IOException {
            final List<String> command = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
            command.addAll(List.of(args));
            log = Files.createTempFile(dir, "mrct", ".log");
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        }

        List<String> lines() {
            try {
                return Files.readAllLines(log, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return List.of();
            }
        }

        /** Waits until a line matches (or the process ended); true when one does. */
        boolean await(final Predicate<String> line) throws InterruptedException {
            final long until = System.nanoTime() + GUARD_NANOS;
            while (lines().stream().noneMatch(line) && process.isAlive() && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            return lines().stream().anyMatch(line);
        }

        void signal(final String name) throws Exception {
            final Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            assertThat(kill.waitFor()).as("kill -" + name).isZero();
        }

        int exit() throws InterruptedException {
            if (!process.waitFor(GUARD_NANOS, TimeUnit.NANOSECONDS)) {
                process.destroyForcibly();
                return -1;
            }
            return process.exitValue();
        }

        @Override
        public void close() {
            process.destroyForcibly();
        }
    }

    private static boolean unix() {
        return Files.isExecutable(Path.of("/bin/kill")) || Files.isExecutable(Path.of("/usr/bin/kill"));
    }

    @Test
    void serveExits0OnSigtermOnceReady(@TempDir final Path dir) throws Exception {
        assumeTrue(unix(), "needs kill(1)");
        try (Mrct serve = new Mrct(dir, "serve", "--udp", hostPort(SocketEndToEndTest.freeHighPort()), "--agent",
            "127.0.0.1:0", "--warm-up", "0")) {
            assertThat(serve.await(l -> l.endsWith("; ready"))).as(String.join("\n", serve.lines())).isTrue();

            serve.signal("TERM");

            assertThat(serve.exit()).as(String.join("\n", serve.lines())).isZero();
            assertThat(serve.lines()).anySatisfy(l -> assertThat(l).startsWith("mrct serve: stopped: "));
        }
    }

    @Test
    void serveShowsItsWarmUpAndExits0OnSigtermDuringIt(@TempDir final Path dir) throws Exception {
        assumeTrue(unix(), "needs kill(1)");
        try (Mrct serve = new Mrct(dir, "serve", "--udp", hostPort(SocketEndToEndTest.freeHighPort()), "--agent",
            "127.0.0.1:0")) {
            assertThat(serve.await(l -> l.startsWith("mrct serve: warming the device up before it answers: 2 pass")))
                .as(String.join("\n", serve.lines())).isTrue();

            serve.signal("TERM");

            assertThat(serve.exit()).as(String.join("\n", serve.lines())).isZero();
            assertThat(serve.lines()).contains("mrct serve: stopped before the device was ready")
                .noneMatch(l -> l.endsWith("; ready"));
        }
    }

    /**
     * Whether this process ignores SIGINT, which its children then inherit and the JVM keeps (a background job of a
     * shell without job control): Linux's {@code SigIgn} mask, bit 1.
     */
    private static boolean sigintIgnored() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 2) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return false;
    }

    @Test
    void ctrlCDuringARunNamesThePartialReportsWhichStayValid(@TempDir final Path dir) throws Exception {
        assumeTrue(unix(), "needs kill(1)");
        // Ctrl-C is SIGINT; where this test runs with SIGINT ignored, SIGTERM takes the same path (the shutdown hook)
        final boolean interrupt = !sigintIgnored();
        final Path reports = dir.resolve("reports");
        try (Mrct run = new Mrct(dir, "run", "--report-dir", reports.toString())) {
            // the first case line: the reports have been written once
            assertThat(run.await(l -> l.startsWith("PASS ") || l.startsWith("FAIL "))).as(String.join("\n",
                run.lines())).isTrue();

            run.signal(interrupt ? "INT" : "TERM");

            assertThat(run.exit()).as(String.join("\n", run.lines())).isEqualTo(interrupt ? 130 : 143);
            assertThat(run.lines()).contains("mrct run: stopping after the current case...")
                .anySatisfy(l -> assertThat(l).startsWith("mrct run: interrupted after ")
                .endsWith("the partial reports (marked incomplete) are in " + reports.toAbsolutePath().normalize()));
        }
        // the run stopped after the current case and wrote its reports a last time: finished, not complete
        final JsonNode report = new ObjectMapper().readTree(reports.resolve("report.json").toFile());
        assertThat(report.path("finished").asBoolean(false)).as("finished").isTrue();
        assertThat(report.path("complete").asBoolean(true)).as("complete").isFalse();
        assertThat(report.path("reason").asText()).isEqualTo("the run did not complete");
        assertThat(report.path("cases").size()).isPositive();
    }

    /** The hidden spill files the report writers keep beside the reports while a run writes them. */
    private static List<String> spills(final Path reports) throws IOException {
        if (!Files.isDirectory(reports)) {
            return List.of();
        }
        try (var files = Files.list(reports)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".spill")).sorted().toList();
        }
    }

    /** Waits until the run has spilled a case (or ended); true when it has. */
    private static boolean awaitSpill(final Mrct mrct, final Path reports) throws Exception {
        final long until = System.nanoTime() + GUARD_NANOS;
        while (spills(reports).isEmpty() && mrct.process.isAlive() && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        return !spills(reports).isEmpty();
    }

    @Test
    void anAnalysisStoppedBySigtermLeavesNoSpillFile(@TempDir final Path dir) throws Exception {
        assumeTrue(unix(), "needs kill(1)");
        // 30,000 connections: 630,000 cases, minutes of report writing, so the signal comes mid-run
        final Path capture = dir.resolve("c.pcap");
        org.metaroce.mrct.analyzer.GenerateTraffic.main(new String[] {capture.toString(), "30000", "connections",
            "1"});
        final Path reports = dir.resolve("reports");
        try (Mrct analyze = new Mrct(dir, "analyze", "--no-progress", "--report-dir", reports.toString(),
            capture.toString())) {
            assertThat(awaitSpill(analyze, reports)).as(String.join("\n", analyze.lines())).isTrue();

            analyze.signal("TERM");

            assertThat(analyze.exit()).as("stopped by the signal, mid-run").isEqualTo(143);
        }
        assertThat(spills(reports)).as("deleted as the JVM exited").isEmpty();
        assertThat(reports.resolve("report.json")).exists();
    }

    @Test
    void aRunKilledOutrightLeavesItsSpillFilesWhichTheNextRunThereRemoves(@TempDir final Path dir) throws Exception {
        assumeTrue(unix(), "needs kill(1)");
        final Path reports = dir.resolve("reports");
        try (Mrct run = new Mrct(dir, "run", "--quiet", "--report-dir", reports.toString())) {
            assertThat(awaitSpill(run, reports)).as(String.join("\n", run.lines())).isTrue();

            run.signal("KILL");

            assertThat(run.exit()).isEqualTo(137);
        }
        assertThat(spills(reports)).as("nothing runs at exit after SIGKILL")
            .contains(".report.json.spill", ".report.html.spill");

        // the next run into the directory, writing report.json only: the other writers' spill files are not its own
        try (Mrct next = new Mrct(dir, "run", "--quiet", "--select", "HDR-007", "--format", "JSON",
            "--report-dir", reports.toString())) {
            assertThat(next.exit()).as(String.join("\n", next.lines())).isIn(0, 1);
        }
        assertThat(spills(reports)).as("swept when the next run started").isEmpty();
    }

    private static String hostPort(final java.net.InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}

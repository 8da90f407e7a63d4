package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.Fixtures;

/**
 * {@code mrct analyze}: reports like {@code mrct run}, a short summary on the standard output, exit 0 clean, 1 on
 * violations, 2 on unreadable input; the evidence of a passing run analyses clean, and the evidence of a run against
 * a faulty reference NIC shows the fault.
 */
class AnalyzeCommandTest {
    private static final Path WRITE = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");
    private static final Path PROFILE = Fixtures.root().resolve("fixtures/profiles/reference.yaml");

    @TempDir
    Path dir;

    private static JsonNode report(final Path reports) throws IOException {
        return new ObjectMapper().readTree(reports.resolve("report.json").toFile());
    }

    private static List<String> verdicts(final JsonNode report, final String verdict) {
        final List<String> ids = new ArrayList<>();
        for (final JsonNode c : report.get("cases")) {
            if (c.get("verdict").asText().equals(verdict)) {
                ids.add(c.get("id").asText() + ": " + c.get("reason").asText());
            }
        }
        return ids;
    }

    @Test
    void helpListsAnalyzeAndItsOptions() {
        assertThat(Mrct.run("--help").out()).contains("analyze");
        final Mrct.Run run = Mrct.run("analyze", "--help");
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("Usage: mrct analyze", "--report-dir", "--format", "--legacy", "--metaroce",
            "--auto", "--profile", "--complete", "CAPTURE");
    }

    @Test
    void aCleanCaptureExits0WithTheReportsOfARun() throws IOException {
        final Path reports = dir.resolve("reports");
        final Mrct.Run run = Mrct.run("analyze", "--report-dir", reports.toString(), "--legacy", WRITE.toString());
        assertThat(run.status()).as(run.out() + run.err()).isZero();
        assertThat(run.err()).isEmpty();
        assertThat(run.lines().get(0)).startsWith(WRITE + ": 60 frames, 20 RoCE, 1 connection");
        assertThat(run.out()).contains("  C1 10.1.16.62 qp 0x00001d <-> 10.1.16.61 qp 0x00001b: 20 frames in 2 "
            + "directions", "CONFORMANT: no violation seen", "reports: " + reports.toAbsolutePath());
        for (final String file : List.of("report.json", "junit.xml", "report.html", "summary.md",
            "evidence.pcapng")) {
            assertThat(reports.resolve(file)).isRegularFile();
        }
        final JsonNode report = report(reports);
        assertThat(report.get("complete").asBoolean()).isTrue();
        assertThat(report.get("overall").asText()).isEqualTo("CONFORMANT");
        assertThat(report.get("run").get("adapter").asText()).isEqualTo("pcap");
        assertThat(report.get("run").get("parameters").get("analysis.mode").asText()).isEqualTo("legacy");
        assertThat(verdicts(report, "FAIL")).isEmpty();
        assertThat(verdicts(report, "PASS")).anyMatch(id -> id.startsWith("C1/MR-WIRE-014"));
    }

    @Test
    void aViolationExits1AndNamesTheRuleAndFrame() throws IOException {
        final byte[] capture = Files.readAllBytes(WRITE);
        // frame 27's ICRC is the last 4 bytes of its record; flip its last byte in a copy of the file
        final Path bad = dir.resolve("bad.pcap");
        final List<byte[]> records = new ArrayList<>();
        int at = 24;
        while (at < capture.length) {
            final int length = (capture[at + 8] & 0xFF) | (capture[at + 9] & 0xFF) << 8;
            records.add(Arrays.copyOfRange(capture, at, at + 16 + length));
            at += 16 + length;
        }
        final byte[] frame27 = records.get(26);
        frame27[frame27.length - 1] ^= 0x33;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(capture, 0, 24);
        for (final byte[] record : records) {
            out.write(record);
        }
        Files.write(bad, out.toByteArray());
        final Path reports = dir.resolve("r");
        final Mrct.Run run = Mrct.run("analyze", "--report-dir", reports.toString(), "--format", "JSON,MARKDOWN",
            bad.toString());
        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.out()).contains("FAIL C1/MR-WIRE-014: 1 violation, first at frame 27: RDMA_WRITE_MIDDLE at PSN "
            + "5454387", "NON_CONFORMANT: 1 check found violations");
        assertThat(reports.resolve("summary.md")).isRegularFile();
        assertThat(reports.resolve("junit.xml")).doesNotExist();
        final JsonNode failing = report(reports).get("cases").findParents("failure").stream()
            .filter(c -> !c.get("failure").isNull()).findFirst().orElseThrow();
        assertThat(failing.get("failure").get("rule").asText()).isEqualTo("MR-WIRE-014");
        final int index = failing.get("failure").get("frame").asInt();
        assertThat(failing.get("evidence").get(index).get("note").asText()).startsWith("frame 27 of " + bad);
    }

    @Test
    void unreadableInputExits2WithOneLineEach() throws IOException {
        final byte[] whole = Files.readAllBytes(WRITE);
        final Path cut = Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(whole, 15_000));
        final Path missing = dir.resolve("missing.pcap");
        final Mrct.Run run = Mrct.run("analyze", "--report-dir", dir.resolve("r").toString(), cut.toString(),
            missing.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.errLines()).hasSize(2);
        assertThat(run.errLines().get(0)).matches("mrct analyze: " + Pattern.quote(cut.toString())
            + ": byte \\d+ \\(record \\d+\\): truncated .*");
        assertThat(run.errLines().get(1)).isEqualTo("mrct analyze: " + missing + ": no such file");
        assertThat(run.err()).doesNotContain("Exception", "\tat ");
        // the frames before the damage were analysed and reported
        assertThat(run.out()).contains(cut + ": ");
        assertThat(report(dir.resolve("r")).get("overall").asText()).isEqualTo("ERROR");
    }

    @Test
    void theModesExcludeEachOther() {
        final Mrct.Run run = Mrct.run("analyze", "--legacy", "--metaroce", WRITE.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("mutually exclusive");
    }

    @Test
    void theEvidenceOfAPassingRunAnalysesClean() throws IOException {
        final Path runDir = dir.resolve("run");
        final Mrct.Run passing = Mrct.run("run", "--report-dir", runDir.toString(), "--format", "EVIDENCE,JSON",
            "--quiet", "--generated", "6");
        assertThat(passing.status()).as(passing.out() + passing.err()).isZero();
        final Path evidence = runDir.resolve("evidence.pcapng");
        assertThat(evidence).isRegularFile();

        final Path reports = dir.resolve("analysis");
        final Mrct.Run run = Mrct.run("analyze", "--report-dir", reports.toString(), "--profile", PROFILE.toString(),
            evidence.toString());
        assertThat(run.status()).as(run.out() + run.err()).isZero();
        assertThat(run.lines().get(0)).contains("(mrct evidence: the device's frames judged, case by case)");
        final JsonNode report = report(reports);
        assertThat(verdicts(report, "FAIL")).isEmpty();
        assertThat(verdicts(report, "INCONCLUSIVE")).isEmpty();
        // one set of checks per case of the run, on the device's frames
        assertThat(verdicts(report, "PASS")).anyMatch(id -> id.startsWith("ORD-002-write-reverse-order/C1/MR-ACK-002"))
            .anyMatch(id -> id.startsWith("GEN-0/C1/MR-ACK-003"));
    }

    @Test
    void theEvidenceOfAFaultyRunShowsTheFault() throws IOException {
        final Path runDir = dir.resolve("faulty");
        final Mrct.Run faulty = Mrct.run("run", "--report-dir", runDir.toString(), "--format", "EVIDENCE",
            "--quiet", "--generated", "6", "--fault", "unpaced-cnp");
        assertThat(faulty.status()).isEqualTo(1);
        final Path reports = dir.resolve("analysis");
        final Mrct.Run run = Mrct.run("analyze", "--report-dir", reports.toString(), "--format", "JSON",
            "--profile", PROFILE.toString(), runDir.resolve("evidence.pcapng").toString());
        assertThat(run.status()).as(run.out()).isEqualTo(1);
        assertThat(run.out()).containsPattern("FAIL GEN-\\d+/C1/MR-CC-005: \\d+ violations?, first at frame \\d+: "
            + "this CNP comes .* after the previous one of its per-qp scope");
        // without the profile, the CNP interval is the default's, which a device may declare lower: inconclusive
        final Mrct.Run unprofiled = Mrct.run("analyze", "--report-dir", dir.resolve("plain").toString(), "--format",
            "JSON", runDir.resolve("evidence.pcapng").toString());
        assertThat(unprofiled.status()).isZero();
        assertThat(verdicts(report(dir.resolve("plain")), "INCONCLUSIVE")).anyMatch(id -> id.contains("MR-CC-005"));
    }

    @Test
    void aRecordOf16MiBIsRefusedByNumberAndOffsetNotAnInternalError() throws IOException {
        final byte[] capture = Files.readAllBytes(WRITE);
        // record 22, the first RoCE frame: after the 24-byte file header, records of a 16-byte header and a frame
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(capture).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int at = 24;
        for (int number = 1; number < 22; number++) {
            at += 16 + b.getInt(at + 8);
        }
        final byte[] frame = Arrays.copyOfRange(capture, at + 16, at + 16 + b.getInt(at + 8));
        final Path big = dir.resolve("big.pcapng");
        final long offset;
        try (org.metaroce.mrct.wire.capture.PcapngWriter writer = org.metaroce.mrct.wire.capture.PcapngWriter
            .create(big, org.metaroce.mrct.wire.capture.PcapngWriter.Options.defaults())) {
            final int id = writer.addInterface(1, "eth0", 0);
            writer.write(id, 1_000, java.nio.ByteBuffer.wrap(frame), 0, frame.length, null);
            final byte[] huge = Arrays.copyOf(frame, 16 * 1024 * 1024 - 256);
            writer.write(id, 2_000, java.nio.ByteBuffer.wrap(huge), 0, huge.length, null);
            writer.write(id, 3_000, java.nio.ByteBuffer.wrap(frame), 0, frame.length, null);
        }
        try (org.metaroce.mrct.wire.capture.CaptureReader reader = org.metaroce.mrct.wire.capture.CaptureReader
            .open(big)) {
            reader.next();
            reader.next();
            offset = reader.byteOffset();
        }
        final Path reports = dir.resolve("reports");
        final Mrct.Run run = Mrct.run("analyze", "--report-dir", reports.toString(), big.toString());
        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(2);
        assertThat(run.err()).doesNotContain("internal error").contains("mrct analyze: " + big + ": record 2 at byte "
            + offset + ": 16776960 bytes captured, more than the 262144 an Ethernet frame can have (not analysed)");
        assertThat(run.out()).contains(big + ": 3 frames, 2 RoCE");
        assertThat(report(reports).get("overall").asText()).isEqualTo("ERROR");
    }

    @Test
    void aDirectoryOfTwoViewsNamesTheFrameLostBetweenThem() throws IOException {
        final byte[] capture = Files.readAllBytes(WRITE);
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(capture).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        final boolean nano = b.getInt(0) == 0xA1B23C4D;
        // the receiver's view: every record 5 us later, without the 27th record (an RDMA WRITE MIDDLE of the sender)
        final java.io.ByteArrayOutputStream receiver = new java.io.ByteArrayOutputStream();
        receiver.write(capture, 0, 24);
        int at = 24;
        int number = 0;
        int psn = -1;
        while (at + 16 <= capture.length) {
            number++;
            final int length = b.getInt(at + 8);
            if (number == 27) {
                psn = (capture[at + 16 + 51] & 0xFF) << 16 | (capture[at + 16 + 52] & 0xFF) << 8
                    | capture[at + 16 + 53] & 0xFF;
            } else {
                final byte[] record = Arrays.copyOfRange(capture, at, at + 16 + length);
                final java.nio.ByteBuffer r = java.nio.ByteBuffer.wrap(record).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                final long fraction = (r.getInt(4) & 0xFFFF_FFFFL) + (nano ? 5_000 : 5);
                final long limit = nano ? 1_000_000_000L : 1_000_000L;
                r.putInt(0, (int) (r.getInt(0) + fraction / limit));
                r.putInt(4, (int) (fraction % limit));
                receiver.write(record);
            }
            at += 16 + length;
        }
        final Path views = Files.createDirectories(dir.resolve("views"));
        Files.write(views.resolve("a-sender.pcap"), capture);
        Files.write(views.resolve("b-receiver.pcap"), receiver.toByteArray());
        Files.writeString(views.resolve("notes.txt"), "not a capture");
        final Mrct.Run run = Mrct.run("analyze", "--report-dir", dir.resolve("reports").toString(), "--legacy",
            views.toString());
        assertThat(run.status()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains(views.resolve("a-sender.pcap") + ": 60 frames",
            views.resolve("b-receiver.pcap") + ": 59 frames");
        assertThat(run.out()).containsPattern("LOST 10\\.1\\.16\\.\\d+ -> 10\\.1\\.16\\.\\d+ qp 0x[0-9a-f]{6} PSN "
            + psn + " \\([A-Z_]+\\): frame 27 of " + Pattern.quote(views.resolve("a-sender.pcap").toString())
            + ", the last capture that saw it; not in " + Pattern.quote(views.resolve("b-receiver.pcap").toString()));
        final JsonNode report = report(dir.resolve("reports"));
        assertThat(verdicts(report, "WARN")).anyMatch(id -> id.startsWith("views/F") && id.contains("1 lost in the "
            + "network"));
    }

    @Test
    void theReportsAreTheSameBytesOnOneThreadAndOnSeveralTimestampsAside() throws IOException {
        final Path captures = Fixtures.fixtures().resolve("captures/soft-roce");
        final List<String> texts = new ArrayList<>();
        for (final String threads : List.of("1", "3")) {
            final Path reports = dir.resolve("threads-" + threads);
            final Mrct.Run run = Mrct.run("analyze", "--threads", threads, "--report-dir", reports.toString(),
                "--format", "JSON,JUNIT,MARKDOWN", captures.toString());
            assertThat(run.status()).as(run.out() + run.err()).isZero();
            final StringBuilder text = new StringBuilder();
            for (final String file : List.of("report.json", "junit.xml", "summary.md")) {
                text.append("== ").append(file).append('\n').append(Files.readString(reports.resolve(file))
                    .replace(reports.toString(), "REPORTS")
                    .replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z?", "TIME"));
            }
            texts.add(text.toString());
        }
        assertThat(texts.get(0)).contains("rdma_write_bw.pcap/C1/", "pingpong_rc.pcap/C1/");
        assertThat(texts.get(1)).isEqualTo(texts.get(0));
    }
}

package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Random;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.ControlCalls;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.harness.result.MemoryDigest;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.testing.ExternalTool;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/** {@code evidence.pcapng}: every frame in order, on its interface, with its time and a parseable comment. */
class EvidenceTest {
    @TempDir
    Path dir;

    /** One packet record as read back. */
    record Packet(int interfaceId, String interfaceName, long timestampNanos, byte[] bytes, String comment) {
    }

    /** Every record of {@code file}, read to a clean end (a damaged file throws). */
    static List<Packet> read(final Path file) throws Exception {
        final List<Packet> packets = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(file)) {
            while (reader.next()) {
                final byte[] bytes = new byte[reader.capturedLength()];
                final ByteBuffer buffer = reader.buffer();
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = buffer.get(reader.offset() + i);
                }
                packets.add(new Packet(reader.interfaceId(), reader.interfaceName(), reader.timestampNanos(), bytes,
                    reader.comment()));
            }
        }
        return packets;
    }

    private List<Packet> run(final List<CaseResult> cases) throws Exception {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.EVIDENCE), null);
        Synthetic.run(listener, cases, null);
        return read(dir.resolve("evidence.pcapng"));
    }

    @Test
    void theSectionCommentSaysWhatAReplayNeeds() throws Exception {
        final org.metaroce.mrct.harness.result.RunInfo base = Synthetic.info(0);
        final org.metaroce.mrct.harness.result.RunInfo info = new org.metaroce.mrct.harness.result.RunInfo(
            base.suiteVersion(), base.specVersion(), base.adapter(), base.vendor(), base.model(), base.firmware(),
            base.profile(), base.profileHash(), base.pics(), base.parameters(), base.seed(), true, "no-sack",
            base.selection(), 0, base.start(), List.of("counters", "virtual-time"),
            new org.metaroce.mrct.spi.Endpoints(0x02_00_00_00_00_0DL, "198.51.100.2", null, 0x0A_0B_0C_0D_0E_0FL,
                "198.51.100.1", "2001:db8::1"), new org.metaroce.mrct.harness.result.RunInfo.Timing(20_000_000, 1_000_000,
                20));
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.EVIDENCE), null);
        listener.runStarted(info);
        listener.runFinished(info, null);

        final String comment;
        try (CaptureReader reader = CaptureReader.open(dir.resolve("evidence.pcapng"))) {
            comment = reader.sectionComment();
        }

        final Map<String, String> fields = EvidenceComment.parse(comment);
        assertThat(fields).containsEntry("seed", Long.toString(base.seed())).containsEntry("spec", "1.0")
            .containsEntry("adapter", "reference").containsEntry("device", "Acme RN-9 fw 2.1.0")
            .containsEntry("vendor", "Acme").containsEntry("firmware", "fw 2.1.0")
            .containsEntry("profile", "profiles/acme.yaml").containsEntry("profile_sha256", base.profileHash())
            .containsEntry("strict", "true").containsEntry("fault", "no-sack")
            .containsEntry("capabilities", "counters,virtual-time").containsEntry("device_mac", "02:00:00:00:00:0d")
            .containsEntry("harness_mac", "0a:0b:0c:0d:0e:0f").containsEntry("device_ipv6", "")
            .containsEntry("harness_ipv6", "2001:db8::1").containsEntry("expect_timeout_ns", "20000000")
            .containsEntry("tolerance_ns", "1000000").containsEntry("tolerance_pct", "20");
        assertThat(comment).startsWith("mrct run=");
    }

    @Test
    void everyFrameInRunOrderOnItsInterfaceWithItsComment() throws Exception {
        final List<CaseResult> cases = Synthetic.allVerdicts();
        final List<Packet> packets = run(cases);
        int n = 0;
        for (final CaseResult c : cases) {
            for (final FrameRecord frame : c.evidence()) {
                final Packet packet = packets.get(n++);
                final boolean toDut = frame.direction() == Direction.TO_DUT;
                assertThat(packet.interfaceId()).isEqualTo(toDut ? 0 : 1);
                assertThat(packet.interfaceName()).isEqualTo(toDut ? "to-dut" : "from-dut");
                assertThat(packet.bytes()).isEqualTo(frame.bytes());
                final Map<String, String> expected = new LinkedHashMap<>();
                expected.put("case", c.id());
                expected.put("step", Integer.toString(frame.step() + 1));
                expected.put("dir", toDut ? "to-dut" : "from-dut");
                expected.put("index", Integer.toString(frame.index()));
                expected.put("verdict", c.verdict().name());
                expected.put("note", frame.note());
                expected.put("time", Long.toString(frame.timestampNanos()));
                assertThat(EvidenceComment.parse(packet.comment())).as(packet.comment())
                    .containsExactlyEntriesOf(expected);
            }
        }
        assertThat(packets).hasSize(n);
        assertThat(packets.get(0).comment()).isEqualTo("mrct case=HDR-001 step=1 dir=to-dut index=0 verdict=PASS "
            + "note=sent time=0");
        final Packet unexpected = packets.get(6);
        assertThat(unexpected.comment()).isEqualTo("mrct case=ORD-004 step=0 dir=from-dut index=4 verdict=FAIL "
            + "note=unexpected time=9500");
        final Packet row = packets.get(7);
        assertThat(row.comment()).matches("mrct case=PLC-003\\[mode=write,pmtu=256\\] step=1 dir=to-dut index=0 "
            + "verdict=WARN note=sent time=-?\\d+");
        final Packet dropped = packets.get(9);
        assertThat(dropped.comment()).matches("mrct case=ROB-002 step=0 dir=from-dut index=1 verdict=INCONCLUSIVE "
            + "note=dropped%20by%20the%20harness time=-?\\d+");
    }

    @Test
    void timeRunsFromTheRunStartAndNeverGoesBackwards() throws Exception {
        final List<CaseResult> cases = Synthetic.allVerdicts();
        final List<Packet> packets = run(cases);
        final long start = Synthetic.START.getEpochSecond() * 1_000_000_000L + Synthetic.START.getNano();
        // the documented rule, computed independently: each case starts 1 us after the later of its predecessor's
        // last frame and device duration
        final List<Long> expected = new ArrayList<>();
        long base = start;
        for (final CaseResult c : cases) {
            long end = base + c.deviceNanos();
            for (final FrameRecord frame : c.evidence()) {
                expected.add(base + frame.timestampNanos());
                end = Math.max(end, base + frame.timestampNanos());
            }
            base = end + 1_000;
        }
        assertThat(packets).extracting(Packet::timestampNanos).containsExactlyElementsOf(expected);
        assertThat(packets.get(0).timestampNanos()).isEqualTo(start);
        assertThat(packets.get(2).timestampNanos()).as("ORD-004 starts after HDR-001's 800 us device time")
            .isEqualTo(start + 801_000);
        for (int i = 1; i < packets.size(); i++) {
            assertThat(packets.get(i).timestampNanos()).isGreaterThanOrEqualTo(packets.get(i - 1).timestampNanos());
        }
    }

    @Test
    void framesOutOfTimeOrderAreClampedSoTimeNeverGoesBackwards() throws Exception {
        final CaseResult pass = Synthetic.pass();
        final CaseResult backwards = new CaseResult("HDR-009", "HDR-009", "t", "headers", pass.rules(), Level.MUST,
            Role.ANY,
            "f", Map.of(), pass.verdict(), "r", null, 1, 0, 1,
            List.of(Synthetic.frame(0, Direction.TO_DUT, 5_000, Synthetic.send(0), 0, "sent"),
                Synthetic.frame(1, Direction.FROM_DUT, 2_000, Synthetic.ack(0), 1, "matched"),
                Synthetic.frame(2, Direction.FROM_DUT, -7, Synthetic.ack(0), 1, "matched")),
            List.of(), Map.of());
        final List<Packet> packets = run(List.of(backwards, Synthetic.pass()));
        final long start = Synthetic.START.getEpochSecond() * 1_000_000_000L + Synthetic.START.getNano();
        assertThat(packets).extracting(Packet::timestampNanos).containsExactly(start + 5_000, start + 5_000,
            start + 5_000, start + 6_000, start + 10_500);
    }

    @Test
    void hostileNotesAndIdsSurviveTheCommentEncoding() throws Exception {
        final List<Packet> packets = run(List.of(Synthetic.hostile()));
        final String comment = packets.get(0).comment();
        assertThat(comment.split(" ")).hasSize(8);
        assertThat(comment).matches("[\\x21-\\x7e ]+");
        assertThat(EvidenceComment.parse(comment).get("note"))
            .isEqualTo("note " + Synthetic.HOSTILE.replace('\uD800', '\uFFFD'));
    }

    @Test
    void theFileIsValidAfterEveryCaseAndARunStartedAgainReplacesIt() throws Exception {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.EVIDENCE), null);
        listener.runStarted(Synthetic.info(3));
        assertThat(read(dir.resolve("evidence.pcapng"))).isEmpty();
        listener.caseFinished(Synthetic.pass());
        assertThat(read(dir.resolve("evidence.pcapng"))).hasSize(2);
        listener.caseFinished(Synthetic.fail());
        assertThat(read(dir.resolve("evidence.pcapng"))).hasSize(7);
        // abandoned (a crash): the next run starts a new file
        Synthetic.run(listener, List.of(Synthetic.inconclusive()), null);
        assertThat(read(dir.resolve("evidence.pcapng"))).extracting(p -> EvidenceComment.parse(p.comment())
            .get("case")).containsExactly("ROB-002", "ROB-002");
    }

    @Test
    void tsharkReadsTheInterfacesAndComments() throws Exception {
        ExternalTool.assumeWorks("evidence.pcapng is cross-checked with Wireshark's reader", "tshark", "--version");
        run(Synthetic.allVerdicts());
        final ExternalTool.Result result = ExternalTool.run(60, "tshark", "-r",
            dir.resolve("evidence.pcapng").toString(), "-T", "fields", "-e", "frame.interface_name", "-e",
            "frame.comment");
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        final List<String> lines = result.stdout().lines().toList();
        assertThat(lines).hasSize(11);
        assertThat(lines.get(0)).isEqualTo("to-dut\tmrct case=HDR-001 step=1 dir=to-dut index=0 verdict=PASS note=sent time=0");
        assertThat(lines.get(1)).startsWith("from-dut\tmrct case=HDR-001 step=2 dir=from-dut");
    }

    @Test
    void largeMemoryIsADigestAndNoPacketExceedsWhatWiresharkReads() throws Exception {
        final byte[] written = new byte[300_000];
        new Random(1).nextBytes(written);
        final byte[] read = new byte[300_000];
        new Random(2).nextBytes(read);
        final List<Object> completions = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            completions.add(Map.of("qpn", 256, "wr_id", i, "opcode", "RDMA_WRITE", "status", "SUCCESS",
                "byte_length", 4096, "timestamp_ns", 1_000_000L + i));
        }
        final CaseResult pass = Synthetic.pass();
        final CaseResult withCalls = new CaseResult(pass.id(), pass.caseId(), pass.title(), pass.area(), pass.rules(),
            pass.level(), pass.role(), pass.file(), pass.parameters(), pass.verdict(), pass.reason(), pass.failure(),
            pass.wallNanos(), pass.deviceNanos(), pass.attempts(), pass.evidence(), pass.notes(), pass.series(),
            List.of(new ControlRecord(0, 10, "writeMemory", ControlCalls.writeMemory(0x1000, written), null, null, 0),
                new ControlRecord(1, 20, "readMemory", ControlCalls.readMemory(0x1000, read.length),
                    ControlCalls.bytes(read), null, 1),
                new ControlRecord(2, 30, "readMemory", ControlCalls.readMemory(0x1000, 3),
                    ControlCalls.bytes(new byte[] {1, 2, 3}), null, 2),
                new ControlRecord(3, 40, "pollCompletions", ControlCalls.pollCompletions(256, 2_000), completions,
                    null, 2)));

        final List<Packet> packets = run(List.of(withCalls));

        assertThat(packets).allSatisfy(p -> assertThat(p.bytes().length).isLessThanOrEqualTo(MemoryDigest.PART_BYTES));
        final ObjectMapper json = new ObjectMapper();
        final List<Packet> control = packets.stream().filter(p -> p.interfaceName().equals("control")).toList();
        final JsonNode write = json.readTree(control.get(0).bytes());
        assertThat(write.path("args").path("data").path("length").asInt()).isEqualTo(written.length);
        assertThat(write.path("args").path("data").path("sha256").asText()).isEqualTo(MemoryDigest.sha256(written));
        assertThat(write.path("args").path("data").path("head").asText())
            .isEqualTo(HexFormat.of().formatHex(written, 0, MemoryDigest.HEAD_BYTES));
        final JsonNode readRecord = json.readTree(control.get(1).bytes());
        assertThat(readRecord.path("result").path("sha256").asText()).isEqualTo(MemoryDigest.sha256(read));
        assertThat(readRecord.path("result").path("parts").asInt()).isEqualTo(3);
        assertThat(readRecord.toString()).endsWith("\"error\":null}");
        final List<Packet> memory = packets.stream().filter(p -> p.interfaceName().equals("memory")).toList();
        assertThat(memory).extracting(p -> EvidenceComment.parse(p.comment()).get("part"))
            .containsExactly("1/3", "2/3", "3/3");
        assertThat(memory).extracting(p -> EvidenceComment.parse(p.comment()).get("index")).containsOnly("1");
        assertThat(memory).allSatisfy(p -> assertThat(EvidenceComment.parse(p.comment()))
            .containsEntry("dir", "memory").containsEntry("case", "HDR-001"));
        final ByteArrayOutputStream joined = new ByteArrayOutputStream();
        memory.forEach(p -> joined.writeBytes(p.bytes()));
        assertThat(joined.toByteArray()).isEqualTo(read);
        assertThat(json.readTree(control.get(2).bytes()).path("result").asText()).isEqualTo("010203");
        assertThat(EvidenceComment.parse(control.get(2).comment())).doesNotContainKey("part");
        // the poll of 2000 completions (about 280 KB of JSON) is split; its parts, joined, are the record
        final List<Packet> poll = control.subList(3, control.size());
        assertThat(poll).hasSizeGreaterThan(1);
        final ByteArrayOutputStream record = new ByteArrayOutputStream();
        for (int k = 0; k < poll.size(); k++) {
            assertThat(EvidenceComment.parse(poll.get(k).comment())).containsEntry("part", (k + 1) + "/" + poll.size())
                .containsEntry("index", "3").containsEntry("note", "pollCompletions");
            record.writeBytes(poll.get(k).bytes());
        }
        assertThat(json.readTree(record.toByteArray()).path("result")).hasSize(2_000);
    }

    @Test
    void commentEncodingRoundTrips() {
        for (final String value : List.of("", "plain", "a b", "100%", "é\u2028\t=x", "[a=b,c=d]")) {
            assertThat(EvidenceComment.decode(EvidenceComment.encode(value))).isEqualTo(value);
        }
        assertThat(EvidenceComment.encode("a b%c=é")).isEqualTo("a%20b%25c=%C3%A9");
        assertThat(EvidenceComment.parse("mrct a=1 b=x=y c=")).containsExactly(Map.entry("a", "1"),
            Map.entry("b", "x=y"), Map.entry("c", ""));
    }
}

package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * Reports stay small whatever a case exchanged (the frames around the failure, the range of the rest in
 * evidence.pcapng), and every frame they name is named by its number in evidence.pcapng, which this test checks
 * against the file itself.
 */
class BoundedReportsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Frames of the generated big case: 4 KiB each, about 8 KB apiece in report.json when carried whole. */
    private static final int FRAMES = 3_000;
    private static final int OFFENDING = 2_000;
    private static final int CALLS = 2_000;

    @TempDir
    Path dir;

    /**
     * A congestion-like case: {@link #FRAMES} 4 KiB frames of steps 0..29, the offending one at {@link #OFFENDING}, and
     * {@link #CALLS} control calls spread among them, each writing 16 KiB of memory.
     */
    static CaseResult bigFailure() {
        final byte[] payload = new byte[4096];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 31);
        }
        final List<FrameRecord> frames = new ArrayList<>(FRAMES);
        for (int i = 0; i < FRAMES; i++) {
            final byte[] bytes = FrameBuilder.of(Synthetic.TO_DUT, Opcode.RDMA_WRITE_ONLY).psn(i).destQp(0x11)
                .payload(payload).build();
            final Map<String, Object> decoded = new LinkedHashMap<>();
            decoded.put("psn", i);
            frames.add(new FrameRecord(i, i % 17 == 0 ? Direction.FROM_DUT : Direction.TO_DUT, i * 1_000L, bytes,
                i / 100, i % 17 == 0 ? "matched" : "sent", decoded));
        }
        final String memory = HexFormat.of().formatHex(new byte[16 * 1024]);
        final List<ControlRecord> calls = new ArrayList<>(CALLS);
        for (int i = 0; i < CALLS; i++) {
            final Map<String, Object> args = new LinkedHashMap<>();
            args.put("va", 0x7f00_0000_8000L);
            args.put("data", memory);
            calls.add(new ControlRecord(i, i * 3_000L, "writeMemory", args, null, null, i * FRAMES / CALLS));
        }
        final Failure failure = new Failure("MR-CC-010", 39, "expect rate", 88, OFFENDING,
            List.of(new FieldDiff("window rate (Mb/s)", "50000", "100000")), null, "RDMA_WRITE_ONLY psn=2000",
            "the requester did not cut its rate after a CNP");
        return new CaseResult("CC-017-big", "CC-017-big", "a big congestion case", "congestion",
            List.of("MR-CC-010"), Level.MUST, Role.REQUESTER, "congestion/cc-017.yaml", Map.of(), Verdict.FAIL,
            "MR-CC-010: step 40 (expect rate, line 88): the requester did not cut its rate after a CNP", failure,
            1_000_000_000L, 6_000_000_000L, 1, frames, List.of(), Map.of(), calls);
    }

    @Test
    void aCaseOfThousandsOfFramesCarriesTheWindowAroundItsFailure() throws Exception {
        final CaseResult big = bigFailure();
        final List<CaseResult> cases = List.of(Synthetic.pass(), big, Synthetic.fail());
        Synthetic.run(Reports.open(dir, EnumSet.allOf(ReportFormat.class), Synthetic.spec()), cases, null);

        // the whole case would be FRAMES * 8 KB (about 25 MB) of frames and CALLS * 32 KB (64 MB) of memory
        assertThat(Files.size(dir.resolve("report.json"))).isLessThan(1_000_000);
        assertThat(Files.size(dir.resolve("report.html"))).isLessThan(500_000);

        final JsonNode c = JSON.readTree(dir.resolve("report.json").toFile()).get("cases").get(1);
        assertThat(c.get("evidenceFrames").asInt()).isEqualTo(FRAMES);
        assertThat(c.get("controlRecords").asInt()).isEqualTo(CALLS);
        final JsonNode evidence = c.get("evidence");
        assertThat(evidence).hasSize(EvidenceWindowBounds.BEFORE + 1 + EvidenceWindowBounds.AFTER);
        assertThat(evidence.get(0).get("index").asInt()).isEqualTo(OFFENDING - EvidenceWindowBounds.BEFORE);
        assertThat(evidence.get(evidence.size() - 1).get("index").asInt())
            .isEqualTo(OFFENDING + EvidenceWindowBounds.AFTER);
        // HDR-001 before it has 2 frames and no control record: this case's frame i is packet 2 + i + 1
        assertThat(c.at("/pcapngFrames/first").asLong()).isEqualTo(3);
        assertThat(c.at("/pcapngFrames/last").asLong()).isEqualTo(2 + FRAMES);
        assertThat(c.at("/failure/pcapngFrame").asLong()).isEqualTo(2 + OFFENDING + 1);
        assertThat(c.at("/failure/step").asInt()).as("1-based, as the reason says").isEqualTo(40);

        // the calls made among the window's frames, at most 64, memory as digests
        final JsonNode control = c.get("control");
        assertThat(control.size()).isBetween(1, 64);
        for (final JsonNode call : control) {
            final long before = call.get("framesBefore").asLong();
            assertThat(before).isBetween((long) OFFENDING - EvidenceWindowBounds.BEFORE,
                (long) OFFENDING + EvidenceWindowBounds.AFTER + 1);
            assertThat(call.at("/args/data/length").asInt()).isEqualTo(16 * 1024);
            assertThat(call.at("/args/data/sha256").asText()).hasSize(64);
        }

        // the HTML carries the same window and names the rest
        final String html = Files.readString(dir.resolve("report.html"));
        assertThat(html).contains("\"evidenceFrames\":" + FRAMES, "\"pcapngFrames\":{\"first\":3,\"last\":"
            + (2 + FRAMES) + "}");
    }

    @Test
    void everyFrameNumberTheReportsNameIsWiresharksNumberOfThatFrame() throws Exception {
        // control records between cases shift the numbers: the writer's own count must include them
        final List<CaseResult> cases = new ArrayList<>(Synthetic.allVerdicts());
        cases.add(1, withCalls(Synthetic.pass(), 3));
        cases.add(bigFailure());
        final ReportListener listener = Reports.listener(dir, EnumSet.allOf(ReportFormat.class), Synthetic.spec(),
            EvidencePolicy.FAILURES);
        Synthetic.run(listener, cases, null);
        final List<EvidenceTest.Packet> packets = EvidenceTest.read(dir.resolve("evidence.pcapng"));
        final JsonNode report = JSON.readTree(dir.resolve("report.json").toFile());
        int checked = 0;
        for (final JsonNode c : report.get("cases")) {
            for (final JsonNode frame : c.get("evidence")) {
                final Map<String, String> comment = EvidenceComment.parse(
                    packets.get(frame.get("pcapngFrame").asInt() - 1).comment());
                assertThat(comment).containsEntry("case", c.get("id").asText())
                    .containsEntry("index", frame.get("index").asText())
                    .containsEntry("step", frame.get("step").asText());
                checked++;
            }
            if (!c.get("pcapngFrames").isNull()) {
                final int first = c.at("/pcapngFrames/first").asInt();
                final int last = c.at("/pcapngFrames/last").asInt();
                assertThat(EvidenceComment.parse(packets.get(first - 1).comment())).containsEntry("index", "0")
                    .containsEntry("case", c.get("id").asText());
                assertThat(EvidenceComment.parse(packets.get(last - 1).comment()))
                    .containsEntry("index", Integer.toString(c.get("evidenceFrames").asInt() - 1))
                    .containsEntry("case", c.get("id").asText());
            }
            final JsonNode failure = c.get("failure");
            if (!failure.isNull() && failure.get("frame").asInt() >= 0) {
                assertThat(EvidenceComment.parse(packets.get(failure.get("pcapngFrame").asInt() - 1).comment()))
                    .containsEntry("case", c.get("id").asText())
                    .containsEntry("index", failure.get("frame").asText());
            }
        }
        assertThat(checked).isGreaterThan(50);

        // the same number in junit.xml and summary.md: ORD-004 is the third case, after 2 + 2 frames and 3 calls
        final long ordFrame = 2 + 2 + 3 + 3 + 1;
        assertThat(EvidenceComment.parse(packets.get((int) ordFrame - 1).comment())).containsEntry("case", "ORD-004")
            .containsEntry("index", "3");
        assertThat(Files.readString(dir.resolve("junit.xml"))).contains(
            "frame: " + ordFrame + " in evidence.pcapng (#3 of the case)",
            "<property name=\"mrct.pcapngFrame\" value=\"" + ordFrame + "\"/>");
        assertThat(Files.readString(dir.resolve("summary.md")))
            .contains("| ORD-004 | FAIL | MR-ORD-001 | " + ordFrame + " | ");
        // and to whoever prints beside the reports (the terminal)
        assertThat(listener.pcapngFrame("ORD-004", 3)).isEqualTo(ordFrame);
        assertThat(listener.pcapngFrame("ORD-004", -1)).isEqualTo(-1);
        assertThat(listener.pcapngFrame("NOPE-1", 0)).isEqualTo(-1);
        final ReportListener jsonOnly = Reports.listener(dir.resolve("json"), EnumSet.of(ReportFormat.JSON), null,
            EvidencePolicy.FAILURES);
        Synthetic.run(jsonOnly, cases, null);
        assertThat(jsonOnly.pcapngFrame("ORD-004", 3)).as("no evidence.pcapng, no number").isEqualTo(-1);
    }

    @Test
    void whenHundredsOfLargeCasesFailTheDocumentsStillStaySmall() throws Exception {
        final CaseResult big = bigFailure();
        final List<CaseResult> cases = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            cases.add(new CaseResult(big.id() + "-" + i, big.caseId(), big.title(), big.area(), big.rules(),
                big.level(), big.role(), big.file(), big.parameters(), big.verdict(), big.reason(), big.failure(),
                big.wallNanos(), big.deviceNanos(), 1, big.evidence(), List.of(), Map.of(), big.control()));
        }
        Synthetic.run(Reports.open(dir, EnumSet.of(ReportFormat.JSON, ReportFormat.HTML), null), cases, null);
        // 60 windows of 49 frames would be about 25 MB: past its budget a document narrows the windows
        assertThat(Files.size(dir.resolve("report.json"))).isLessThan(20_000_000);
        assertThat(Files.size(dir.resolve("report.html"))).isLessThan(10_000_000);
        final JsonNode report = JSON.readTree(dir.resolve("report.json").toFile());
        assertThat(report.at("/cases/0/evidence")).hasSize(49);
        final JsonNode last = report.at("/cases/59");
        assertThat(last.get("evidence")).hasSize(5);
        assertThat(last.at("/evidence/2/index").asInt()).as("still the offending frame").isEqualTo(OFFENDING);
        assertThat(last.get("control").size()).isLessThanOrEqualTo(8);
        assertThat(last.get("evidenceFrames").asInt()).isEqualTo(FRAMES);
    }

    @Test
    void theWindowIsAnchoredOnTheFailedStepWhenNoFrameOffended() throws Exception {
        final CaseResult big = bigFailure();
        // nothing arrived for step 20 (0-based 19): the window ends at the last frame of steps up to it
        final Failure missing = new Failure("MR-CC-010", 19, "expect CNP", 70, -1, List.of(), "CNP", null,
            "no CNP arrived");
        final CaseResult noFrame = new CaseResult(big.id(), big.caseId(), big.title(), big.area(), big.rules(),
            big.level(), big.role(), big.file(), big.parameters(), Verdict.FAIL, "no CNP arrived", missing,
            big.wallNanos(), big.deviceNanos(), 1, big.evidence(), List.of(), Map.of(), List.of());
        final CaseResult error = new CaseResult(big.id(), big.caseId(), big.title(), big.area(), big.rules(),
            big.level(), big.role(), big.file(), big.parameters(), Verdict.ERROR, "adapter: gone", null,
            big.wallNanos(), big.deviceNanos(), 1, big.evidence(), List.of(), Map.of(), List.of());
        Synthetic.run(Reports.open(dir, EnumSet.of(ReportFormat.JSON), null), List.of(noFrame), null);
        JsonNode evidence = JSON.readTree(dir.resolve("report.json").toFile()).at("/cases/0/evidence");
        // steps 0..19 cover frames 0..1999
        assertThat(evidence.get(evidence.size() - 1).get("index").asInt())
            .isEqualTo(1999 + EvidenceWindowBounds.AFTER);
        assertThat(evidence.get(0).get("index").asInt()).isEqualTo(1999 - EvidenceWindowBounds.BEFORE);
        assertThat(JSON.readTree(dir.resolve("report.json").toFile()).at("/cases/0/pcapngFrames").isNull())
            .as("no evidence.pcapng written").isTrue();

        Synthetic.run(Reports.open(dir, EnumSet.of(ReportFormat.JSON), null), List.of(error), null);
        evidence = JSON.readTree(dir.resolve("report.json").toFile()).at("/cases/0/evidence");
        assertThat(evidence.get(evidence.size() - 1).get("index").asInt()).as("where the case stopped")
            .isEqualTo(FRAMES - 1);
        assertThat(evidence).hasSize(EvidenceWindowBounds.BEFORE + 1);
    }

    @Test
    void evidenceAllStillKeepsEveryFrameAndTheSameBytesComeBack() throws Exception {
        final List<CaseResult> cases = List.of(Synthetic.fail(), withCalls(Synthetic.warn(), 70));
        final Path a = dir.resolve("a");
        final Path b = dir.resolve("b");
        Synthetic.run(Reports.open(a, EnumSet.allOf(ReportFormat.class), Synthetic.spec()), cases, null);
        Synthetic.run(Reports.open(b, EnumSet.allOf(ReportFormat.class), Synthetic.spec()), cases, null);
        for (final String name : List.of("report.json", "report.html", "junit.xml", "summary.md")) {
            assertThat(Files.readAllBytes(a.resolve(name))).as(name + " is deterministic")
                .isEqualTo(Files.readAllBytes(b.resolve(name)));
        }
        // 70 calls: the default keeps 64 of them, ALL every one
        assertThat(JSON.readTree(a.resolve("report.json").toFile()).at("/cases/1/control")).hasSize(64);
        final Path all = dir.resolve("all");
        Synthetic.run(Reports.open(all, EnumSet.of(ReportFormat.JSON), null, EvidencePolicy.ALL), cases, null);
        assertThat(JSON.readTree(all.resolve("report.json").toFile()).at("/cases/1/control")).hasSize(70);
    }

    /** {@code result} with {@code n} small control calls before its frames. */
    static CaseResult withCalls(final CaseResult result, final int n) {
        final List<ControlRecord> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(new ControlRecord(i, i, "createQp", Map.of("pd", 1), 0x11 + i, null, 0));
        }
        return new CaseResult(result.id() + "-calls", result.caseId(), result.title(), result.area(),
            result.rules(), result.level(), result.role(), result.file(), result.parameters(), result.verdict(),
            result.reason(), result.failure(), result.wallNanos(), result.deviceNanos(), result.attempts(),
            result.evidence(), result.notes(), result.series(), calls);
    }

    /** The window's bounds, as documented (EvidenceWindow is internal; the documented figures are the contract). */
    private static final class EvidenceWindowBounds {
        static final int BEFORE = 32;
        static final int AFTER = 16;
    }
}

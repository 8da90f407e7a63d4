package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.NotChecked;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reports.internal.JsonText;
import java.util.HexFormat;

/** The content of {@code report.json}, member by member, and its byte-for-byte formatting. */
class JsonReportTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private JsonNode writeRun(final List<CaseResult> cases) throws IOException {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.JSON), Synthetic.spec());
        Synthetic.run(listener, cases, Synthetic.baseline());
        return MAPPER.readTree(dir.resolve("report.json").toFile());
    }

    @Test
    void topLevelMembersInTheDocumentedOrder() throws IOException {
        final JsonNode report = writeRun(Synthetic.allVerdicts());
        final List<String> keys = new ArrayList<>();
        report.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("format", "version", "complete", "finished", "overall", "reason", "run", "end",
            "counts", "rules", "baseline", "cases");
        assertThat(report.get("format").asText()).isEqualTo("mrct-report");
        assertThat(report.get("version").asInt()).isEqualTo(1);
        assertThat(report.get("complete").asBoolean()).isTrue();
        assertThat(report.get("finished").asBoolean()).isTrue();
        assertThat(report.get("overall").asText()).isEqualTo("NON_CONFORMANT");
        assertThat(report.get("reason").asText()).isEqualTo("1 MUST rule failed: MR-ORD-001");
        assertThat(report.get("end").asText()).isEqualTo("2026-03-01T09:31:02.500Z");
    }

    @Test
    void runMetadataCarriesEveryComponentOfRunInfo() throws IOException {
        final JsonNode run = writeRun(Synthetic.allVerdicts()).get("run");
        assertThat(run.get("suiteVersion").asText()).isEqualTo("1.0.0-test");
        assertThat(run.get("specVersion").asText()).isEqualTo("1.0");
        assertThat(run.get("adapter").asText()).isEqualTo("reference");
        assertThat(run.get("vendor").asText()).isEqualTo("Acme");
        assertThat(run.get("model").asText()).isEqualTo("RN-9");
        assertThat(run.get("firmware").asText()).isEqualTo("fw 2.1.0");
        assertThat(run.get("profile").asText()).isEqualTo("profiles/acme.yaml");
        assertThat(run.get("profileHash").asText()).hasSize(64);
        assertThat(run.get("pics").toString()).isEqualTo("[\"atomics-no\",\"sack\"]");
        // RunInfo copies its parameters into an unordered map: the report sorts them
        assertThat(run.get("parameters").toString())
            .isEqualTo("{\"ack_coalescing\":\"per-qp\",\"pmtu\":1024,\"recv_window\":256}");
        assertThat(run.get("seed").isTextual()).as("64-bit seed as a string, exact in JavaScript").isTrue();
        assertThat(run.get("seed").asText()).isEqualTo("-7354920016391124837");
        assertThat(run.get("strict").asBoolean()).isFalse();
        assertThat(run.get("fault").isNull()).isTrue();
        assertThat(run.get("selection").toString()).isEqualTo("[\"HDR\",\"ORD-*\",\"!ORD-009\"]");
        assertThat(run.get("caseCount").asInt()).isEqualTo(8);
        assertThat(run.get("start").asText()).isEqualTo("2026-03-01T09:30:00.123456789Z");
        assertThat(run.size()).isEqualTo(org.metaroce.mrct.harness.result.RunInfo.class.getRecordComponents().length);
    }

    @Test
    void countsRulesAndBaseline() throws IOException {
        final JsonNode report = writeRun(Synthetic.allVerdicts());
        assertThat(report.get("counts").toString()).isEqualTo("{\"NOT_APPLICABLE\":1,\"PASS\":3,\"WARN\":1,"
            + "\"INCONCLUSIVE\":1,\"FAIL\":1,\"ERROR\":1}");
        final JsonNode plc = find(report.get("rules"), "rule", "MR-PLC-001");
        assertThat(plc.toString()).isEqualTo("{\"rule\":\"MR-PLC-001\",\"level\":\"SHOULD\",\"role\":\"responder\","
            + "\"applicable\":true,\"cases\":[\"PLC-003[mode=write,pmtu=256]\",\"PLC-003[mode=write,pmtu=1024]\"],"
            + "\"verdict\":\"WARN\",\"citedBy\":[]}");
        assertThat(find(report.get("rules"), "rule", "MR-ATM-001").get("applicable").asBoolean()).isFalse();
        assertThat(report.get("baseline").toString()).isEqualTo("{\"baseline\":\"known-failures.yaml\","
            + "\"newlyFailing\":[\"ORD-004\"],\"newlyPassing\":[\"HDR-001\"],\"stale\":[\"OLD-001\"],"
            + "\"known\":[\"QP-001\"]}");
    }

    @Test
    void everyCaseWithEveryComponentOfCaseResult() throws IOException {
        final JsonNode cases = writeRun(Synthetic.allVerdicts()).get("cases");
        assertThat(cases).hasSize(8);
        final List<String> verdicts = new ArrayList<>();
        cases.forEach(c -> verdicts.add(c.get("verdict").asText()));
        assertThat(verdicts).containsExactly("PASS", "FAIL", "WARN", "PASS", "NOT_APPLICABLE", "INCONCLUSIVE", "ERROR",
            "PASS");
        for (final JsonNode c : cases) {
            // every component, the counts of frames and control records, and the frames' range in evidence.pcapng
            assertThat(c.size()).isEqualTo(CaseResult.class.getRecordComponents().length + 3);
            assertThat(c.get("pcapngFrames").isNull()).as("no evidence.pcapng written").isTrue();
        }
        final JsonNode fail = cases.get(1);
        assertThat(fail.get("id").asText()).isEqualTo("ORD-004");
        assertThat(fail.get("title").asText()).isEqualTo("Out-of-order SEND is placed and acknowledged");
        assertThat(fail.get("area").asText()).isEqualTo("ordering");
        assertThat(fail.get("rules").toString()).isEqualTo("[\"MR-ORD-001\"]");
        assertThat(fail.get("file").asText()).isEqualTo("ordering/ord-004.yaml");
        assertThat(fail.get("wallNanos").asLong()).isEqualTo(3_000_000L);
        assertThat(fail.get("deviceNanos").asLong()).isEqualTo(2_000_000L);
        assertThat(fail.get("attempts").asInt()).isEqualTo(1);
        assertThat(fail.get("failure").toString()).isEqualTo("{\"rule\":\"MR-ORD-001\",\"step\":4,"
            + "\"stepDescription\":\"expect ACK psn=2 sacketh.bitmap=0b101\",\"stepLine\":27,\"frame\":3,"
            + "\"pcapngFrame\":null,"
            + "\"diffs\":[{\"field\":\"bth.psn\",\"expected\":\"2 (0x2)\",\"actual\":\"1 (0x1)\"},"
            + "{\"field\":\"sacketh.bitmap\",\"expected\":\"5 (0x5)\",\"actual\":\"7 (0x7)\"}],"
            + "\"expectedFrame\":\"ACKNOWLEDGE psn=2\",\"actualFrame\":\"ACKNOWLEDGE psn=1 dqpn=0x22\","
            + "\"message\":\"the responder acknowledged PSN 1 instead of 2\",\"field\":\"\",\"cause\":\"\","
            + "\"basis\":\"\"}");
        final JsonNode row = cases.get(2);
        assertThat(row.get("caseId").asText()).isEqualTo("PLC-003");
        assertThat(row.get("parameters").toString()).isEqualTo("{\"mode\":\"write\",\"pmtu\":256}");
        assertThat(cases.get(0).get("notes").toString()).isEqualTo("[\"1 left-over frame ignored\"]");
        assertThat(cases.get(6).get("failure").isNull()).isTrue();
    }

    @Test
    void expectationsLeftOutByTheProfileAreListedWithTheirReason() throws IOException {
        final CaseResult pass = Synthetic.pass();
        final CaseResult gated = new CaseResult(pass.id(), pass.caseId(), pass.title(), pass.area(), pass.rules(),
            pass.level(), pass.role(), pass.file(), pass.parameters(), Verdict.NOT_APPLICABLE,
            "no expectation of the case applies under the profile", null, 1L, 1L, 1, List.of(), List.of(), Map.of(),
            List.of(), List.of(new NotChecked(15, "expect ATOMIC_ACKNOWLEDGE", "when at line 11: the profile does not "
                + "claim atomics")));
        final JsonNode cases = writeRun(List.of(gated, pass)).get("cases");
        assertThat(cases.get(0).get("notChecked").toString()).isEqualTo("[{\"line\":15,\"step\":\"expect "
            + "ATOMIC_ACKNOWLEDGE\",\"reason\":\"when at line 11: the profile does not claim atomics\"}]");
        assertThat(cases.get(1).get("notChecked").toString()).isEqualTo("[]");
    }

    @Test
    void framesCarryDirectionTimeHexBytesAndDecodedFields() throws IOException {
        final CaseResult fail = Synthetic.fail();
        final JsonNode evidence = writeRun(List.of(fail)).get("cases").get(0).get("evidence");
        assertThat(evidence).hasSize(5);
        for (int i = 0; i < 5; i++) {
            final JsonNode frame = evidence.get(i);
            assertThat(frame.get("index").asInt()).isEqualTo(i);
            assertThat(frame.get("direction").asText()).isEqualTo(fail.evidence().get(i).direction().name());
            assertThat(frame.get("timestampNanos").asLong()).isEqualTo(fail.evidence().get(i).timestampNanos());
            assertThat(frame.get("bytes").asText()).isEqualTo(HexFormat.of().formatHex(fail.evidence().get(i).bytes()));
            // steps from 1, 0 for none
            assertThat(frame.get("step").asInt()).isEqualTo(fail.evidence().get(i).step() + 1);
            assertThat(frame.get("pcapngFrame").isNull()).isTrue();
            assertThat(frame.get("note").asText()).isEqualTo(fail.evidence().get(i).note());
        }
        final JsonNode decoded = evidence.get(1).get("decoded");
        // the FrameDescription key order is kept (it is ordered), not sorted
        final List<String> keys = new ArrayList<>();
        decoded.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).startsWith("frame", "ts_ns", "roce", "version", "vlan", "ip", "udp", "bth");
        assertThat(decoded.at("/bth/opname").asText()).isEqualTo("SEND_ONLY");
        assertThat(decoded.at("/bth/psn").asInt()).isEqualTo(2);
        assertThat(decoded.at("/ip/ecn").asInt()).isEqualTo(3);
        assertThat(decoded.at("/icrc/valid").asBoolean()).isTrue();
        assertThat(evidence.get(2).at("/decoded/icrc/valid").asBoolean()).isFalse();
        assertThat(evidence.get(3).at("/decoded/bth/opname").asText()).isEqualTo("ACKNOWLEDGE");
        assertThat(evidence.get(3).get("direction").asText()).isEqualTo("FROM_DUT");
    }

    @Test
    void seriesAreSortedByNameWithExactNumbers() throws IOException {
        final JsonNode series = writeRun(List.of(Synthetic.congestion())).get("cases").get(0).get("series");
        final List<String> names = new ArrayList<>();
        series.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("cnp", "rate_gbps");
        assertThat(series.get("rate_gbps")).hasSize(21);
        assertThat(series.get("rate_gbps").get(5).toString()).isEqualTo("[5000.0,66.66666666666667]");
        assertThat(series.get("cnp").get(6).toString()).isEqualTo("[6000.0,1.0]");
    }

    @Test
    void fileIsExactlyTheCanonicalPrettyPrintOfItsContent() throws IOException {
        writeRun(Synthetic.allVerdicts());
        final String text = Files.readString(dir.resolve("report.json"), StandardCharsets.UTF_8);
        final JsonNode tree = MAPPER.readTree(text);
        // the cases are rendered once and spliced in; this checks the splice leaves no trace
        assertThat(text).isEqualTo(JsonText.PRETTY.fragment(tree, 0) + "\n");
        assertThat(text).startsWith("{\n  \"format\": \"mrct-report\",\n  \"version\": 1,\n");
        assertThat(text).contains("\n  \"cases\": [\n    {\n      \"id\": \"HDR-001\",\n");
        assertThat(text).doesNotContain("\r");
    }

    @Test
    void sameResultsGiveTheSameBytesWhateverTheMapOrder() throws IOException {
        final Path one = dir.resolve("one");
        final Path two = dir.resolve("two");
        final List<CaseResult> cases = Synthetic.allVerdicts();
        Synthetic.run(Reports.open(one, EnumSet.allOf(ReportFormat.class), Synthetic.spec()), cases,
            Synthetic.baseline());
        final List<CaseResult> shuffled = new ArrayList<>();
        for (final CaseResult c : cases) {
            shuffled.add(withReversedParameters(c));
        }
        Synthetic.run(Reports.open(two, EnumSet.allOf(ReportFormat.class), Synthetic.spec()), shuffled,
            Synthetic.baseline());
        for (final String name : List.of("report.json", "junit.xml", "report.html", "summary.md", "evidence.pcapng")) {
            assertThat(Files.readAllBytes(two.resolve(name))).as(name)
                .isEqualTo(Files.readAllBytes(one.resolve(name)));
        }
    }

    /** The same case with its parameters in a HashMap filled in reverse order. */
    private static CaseResult withReversedParameters(final CaseResult c) {
        final List<String> keys = new ArrayList<>(c.parameters().keySet());
        java.util.Collections.sort(keys, java.util.Collections.reverseOrder());
        final Map<String, Object> reversed = new HashMap<>();
        for (final String key : keys) {
            reversed.put(key, c.parameters().get(key));
        }
        return new CaseResult(c.id(), c.caseId(), c.title(), c.area(), c.rules(), c.level(), c.role(), c.file(),
            reversed, c.verdict(), c.reason(), c.failure(), c.wallNanos(), c.deviceNanos(), c.attempts(), c.evidence(),
            c.notes(), c.series());
    }

    @Test
    void hostileStringsSurviveExactlyExceptUnpairedSurrogates() throws IOException {
        final JsonNode c = writeRun(List.of(Synthetic.hostile())).get("cases").get(0);
        final String expected = Synthetic.HOSTILE.replace('\uD800', '\uFFFD');
        assertThat(c.get("title").asText()).isEqualTo("title " + expected);
        assertThat(c.get("reason").asText()).isEqualTo("reason " + expected);
        assertThat(c.at("/failure/diffs/0/actual").asText()).isEqualTo("act " + expected);
        assertThat(c.at("/parameters/evil").asText()).isEqualTo(expected);
    }

    @Test
    void aVerdictNeverSeenStillCountsAsZero() throws IOException {
        final JsonNode counts = writeRun(List.of(Synthetic.pass())).get("counts");
        final Iterator<String> names = counts.fieldNames();
        for (final Verdict verdict : Verdict.values()) {
            assertThat(names.next()).isEqualTo(verdict.name());
        }
        assertThat(counts.get("FAIL").asInt()).isZero();
        assertThat(counts.get("PASS").asInt()).isEqualTo(1);
    }

    private static JsonNode find(final JsonNode array, final String key, final String value) {
        for (final JsonNode item : array) {
            if (item.path(key).asText().equals(value)) {
                return item;
            }
        }
        throw new AssertionError("no " + key + "=" + value + " in " + array);
    }

    @Test
    void passingCasesLeaveTheirFramesAndControlRecordsToThePcapngByDefault() throws IOException {
        final List<CaseResult> cases = Synthetic.allVerdicts();
        final JsonNode report = writeRun(cases);
        int checked = 0;
        for (int i = 0; i < cases.size(); i++) {
            final CaseResult result = cases.get(i);
            final JsonNode node = report.get("cases").get(i);
            assertThat(node.get("evidenceFrames").asInt()).isEqualTo(result.evidence().size());
            assertThat(node.get("controlRecords").asInt()).isEqualTo(result.control().size());
            final boolean kept = result.verdict() != Verdict.PASS && result.verdict() != Verdict.NOT_APPLICABLE;
            assertThat(node.get("evidence").size()).as(result.id()).isEqualTo(kept ? result.evidence().size() : 0);
            assertThat(node.get("control").size()).as(result.id()).isEqualTo(kept ? result.control().size() : 0);
            checked += result.evidence().isEmpty() ? 0 : 1;
        }
        assertThat(checked).as("some synthetic cases have frames").isPositive();
        Files.delete(dir.resolve("report.json"));
        final RunListener all = Reports.open(dir, EnumSet.of(ReportFormat.JSON), Synthetic.spec(), EvidencePolicy.ALL);
        Synthetic.run(all, cases, Synthetic.baseline());
        final JsonNode full = MAPPER.readTree(dir.resolve("report.json").toFile());
        for (int i = 0; i < cases.size(); i++) {
            assertThat(full.get("cases").get(i).get("evidence").size()).isEqualTo(cases.get(i).evidence().size());
        }
    }
}

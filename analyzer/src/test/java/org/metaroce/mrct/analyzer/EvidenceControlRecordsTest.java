package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/**
 * The requester cases of a passing {@code mrct run} against the reference NIC (evidence of seed 1, data frames cut to
 * their headers, control records other than createQp and modifyQp left out: {@code
 * fixtures/captures/evidence/requester-cases.pcapng}) analyse clean; each once gave a false finding: QPs created with
 * their own send_window or DCQCN constants judged by the profile's, the acknowledgement probe of section 13.4 taken
 * for the resending of a delivered PSN, a TVer 0 READ re-request after a read response gap (MR-LEG-010) taken for a
 * timeout, read responses beyond the span the requester's frames proved delivering nothing, a QP reset by the case
 * taken for an unexplained new incarnation. Edited copies show that the QPs' attributes and resets come from the
 * evidence's control records.
 */
class EvidenceControlRecordsTest {
    private static final Path CASES = Fixtures.fixtures().resolve("captures/evidence/requester-cases.pcapng");
    private static final String ALPHA_0 = "CC-011-initial-rate-and-first-cut[alpha_init=0,pmtu=max_pmtu]";
    private static final String PMTU_256 = "CC-011-initial-rate-and-first-cut[alpha_init=1,pmtu=256]";

    @TempDir
    Path dir;

    private static List<String> ids(final List<CaseResult> cases) {
        return cases.stream().map(CaseResult::id).collect(Collectors.toList());
    }

    private static CaseResult check(final Analyses.Result result, final String id) {
        return result.checks().stream().filter(c -> c.id().equals(id)).findFirst().orElseThrow(
            () -> new AssertionError("no check " + id + " in " + ids(result.checks())));
    }

    @Test
    void theRequesterCasesOfAPassingRunShowNeitherViolationNorDoubt() {
        final Analyses.Result result = Analyses.run(CASES, Analyses.referenceProfile());
        assertThat(result.with(Verdict.FAIL)).as(result.toString()).isEmpty();
        assertThat(result.with(Verdict.INCONCLUSIVE)).as(result.toString()).isEmpty();
        // the checks that gave the false findings ran on these cases (a TVer 0 re-request after a response gap is
        // no timeout: MR-LEG-009 does not apply to the LEG-010 cases at all)
        assertThat(ids(result.checks())).noneMatch(id -> id.startsWith("LEG-010") && id.endsWith("MR-LEG-009"));
        for (final String id : List.of("RTX-020-acknowledgement-probe/C1/MR-RTX-001",
            "LEG-010-read-response-gap/C1/MR-RTX-001", "LEG-010-read-rest-request-shape/C1/MR-RTX-001",
            ALPHA_0 + "/C1/MR-CC-010", "CC-013-rate-timer-increase/C1/MR-REQ-012", PMTU_256 + "/C1/MR-REQ-012",
            "REQ-012-window-edge/C1/MR-REQ-012", "QP-010-reset-behaves-as-new/C1/MR-ACK-010")) {
            assertThat(check(result, id).verdict()).as(id).isEqualTo(Verdict.PASS);
        }
    }

    @Test
    void theAttributesTheCaseGaveItsQpAreTheOnesJudged() throws IOException {
        final Path edited = rewrite((kase, json) -> {
            if (kase.equals(ALPHA_0) && json.contains("\"op\":\"createQp\"")) {
                return json.replace("\"dcqcn_alpha_init\":0.0", "\"dcqcn_alpha_init\":1.0");
            }
            if (kase.equals(PMTU_256) && json.contains("\"op\":\"createQp\"")) {
                return json.replace("\"send_window\":1024", "\"send_window\":64");
            }
            return json;
        });
        final Analyses.Result result = Analyses.run(edited, Analyses.referenceProfile());
        // with alpha_init 1 the first CNP halves Rc, which the device (alpha_init 0 in truth) did not do
        final CaseResult cut = check(result, ALPHA_0 + "/C1/MR-CC-010");
        assertThat(cut.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(cut.reason()).contains("above the cut rate", "alpha at least 0.");
        final CaseResult window = check(result, PMTU_256 + "/C1/MR-REQ-012");
        assertThat(window.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(window.reason()).contains("at or beyond send_window 64 (the QP's attribute in the evidence's "
            + "control records)");
        // the profile's send window (128) is not what judged the other cases
        assertThat(check(result, "REQ-012-window-edge/C1/MR-REQ-012").verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aNewIncarnationIsADoubtUnlessTheControlRecordsShowTheReset() throws IOException {
        final Path edited = rewrite((kase, json) -> json.contains("\"state\":\"RESET\"") ? null : json);
        final Analyses.Result result = Analyses.run(edited, Analyses.referenceProfile());
        final CaseResult back = check(result, "QP-010-reset-behaves-as-new/C1/MR-ACK-010");
        assertThat(back.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(back.reason()).contains("taken as a new incarnation of the QP", "may have been reset");
        assertThat(result.with(Verdict.FAIL)).isEmpty();
    }

    /**
     * A copy of the fixture whose control records are edited: {@code edit} gets the case and the record's JSON and
     * returns the new JSON, or null to leave the record out.
     */
    private Path rewrite(final BiFunction<String, String, String> edit) throws IOException {
        final Path out = dir.resolve("edited.pcapng");
        final Map<Integer, Integer> interfaces = new HashMap<>();
        try (CaptureReader reader = CaptureReader.open(CASES);
             PcapngWriter writer = PcapngWriter.create(out, PcapngWriter.Options.defaults())) {
            while (reader.next()) {
                final Integer known = interfaces.get(reader.interfaceId());
                final int id = known != null ? known : writer.addInterface(reader.linkType(), reader.interfaceName(), 9);
                interfaces.put(reader.interfaceId(), id);
                final String comment = reader.comment();
                final ByteBuffer frame = reader.buffer();
                if (reader.linkType() != 147) {
                    writer.write(id, reader.timestampNanos(), frame, reader.offset(), reader.capturedLength(),
                        reader.originalLength(), comment);
                    continue;
                }
                final byte[] bytes = new byte[reader.capturedLength()];
                frame.get(reader.offset(), bytes);
                final String kase = comment.replaceFirst("^mrct case=(\\S*).*$", "$1")
                    .replace("%5B", "[").replace("%5D", "]").replace("%2C", ",").replace("%3D", "=");
                final String json = edit.apply(kase, new String(bytes, StandardCharsets.UTF_8));
                if (json != null) {
                    final byte[] now = json.getBytes(StandardCharsets.UTF_8);
                    writer.write(id, reader.timestampNanos(), ByteBuffer.wrap(now), 0, now.length, now.length,
                        comment);
                }
            }
        }
        return out;
    }
}

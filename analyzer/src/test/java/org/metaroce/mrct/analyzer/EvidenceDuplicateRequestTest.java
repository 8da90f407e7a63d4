package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.analyzer.EvidenceRecords.Rec;

/**
 * In mrct evidence, a request sent again on its first PSN (MSN 0) after later messages is the first of a new
 * incarnation of the QP only when the case's control records show the device's QP reset; without a reset on record
 * the device took it as a duplicate, and so does the analysis (fixtures/captures/evidence/README.md).
 */
class EvidenceDuplicateRequestTest {
    private static final Path FIXTURE = Fixtures.fixtures().resolve("captures/evidence/udp-responder-ack-003.pcapng");

    @TempDir
    Path dir;

    @Test
    void aLateDuplicateAtomicOfAQpNeverResetIsADuplicate() {
        final Analyses.Result result = Analyses.run(FIXTURE);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        assertThat(result.only("MR-ACK-003").verdict()).isEqualTo(Verdict.PASS);
        assertThat(result.only("MR-ACK-002").verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void withTheDevicesQpResetOnRecordTheSameRequestStartsANewIncarnation() throws IOException {
        // the same case with one more control record: the device's QP (256) moved to RESET
        final List<Rec> records = new ArrayList<>(EvidenceRecords.read(FIXTURE));
        final String section = EvidenceRecords.section(FIXTURE);
        final Rec modify = records.stream().filter(r -> r.iface() == 2
            && new String(r.bytes(), StandardCharsets.UTF_8).contains("\"state\":\"INIT\"")).findFirst().orElseThrow();
        final byte[] reset = new String(modify.bytes(), StandardCharsets.UTF_8)
            .replace("\"state\":\"INIT\"", "\"state\":\"RESET\"").replaceFirst("\"index\":\\d+", "\"index\":99")
            .getBytes(StandardCharsets.UTF_8);
        records.add(new Rec(2, records.get(records.size() - 1).ts(), reset, reset.length,
            modify.comment().replaceFirst("index=\\d+", "index=99")));
        final Path file = EvidenceRecords.write(dir.resolve("reset.pcapng"), section, records);
        final Analyses.Result result = Analyses.run(file);
        // a new incarnation: what came before is forgotten, so the device's answers with MSN 2 no longer add up
        assertThat(result.only("MR-ACK-003").verdict()).as(result.describe()).isEqualTo(Verdict.FAIL);
        assertThat(result.cases()).anySatisfy(c -> assertThat(c.notes()).anySatisfy(n -> assertThat(n)
            .contains("new incarnation")));
    }
}

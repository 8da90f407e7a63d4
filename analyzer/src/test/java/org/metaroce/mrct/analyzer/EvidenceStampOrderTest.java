package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.analyzer.EvidenceRecords.Rec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mrct analyze} judges an evidence file's frames in the order of the stamps the live engine judged them by, not
 * in the order the harness recorded them. The fixture is a real-time run over UDP in which the harness's receive path
 * paused (fixtures/captures/evidence/README.md): the device's go-back retransmissions were recorded after the
 * harness's ACKs although they were stamped before them. Live, the case passed.
 */
class EvidenceStampOrderTest {
    private static final Path FIXTURE = Fixtures.fixtures().resolve("captures/evidence/udp-requester-leg-009.pcapng");
    private static final String RULE = "MR-RTX-001";

    @TempDir
    Path dir;

    private static long stamp(final Rec r) {
        return Long.parseLong(EvidenceComment.parse(r.comment()).get("time"));
    }

    private static Rec withStamp(final Rec r, final long time) {
        final Map<String, String> fields = EvidenceComment.parse(r.comment());
        fields.put("time", Long.toString(time));
        return r.withComment(EvidenceComment.format(fields));
    }

    private static Rec withoutStamp(final Rec r) {
        final Map<String, String> fields = EvidenceComment.parse(r.comment());
        if (fields.remove("time") == null) {
            return r;
        }
        return r.withComment(EvidenceComment.format(fields));
    }

    @Test
    void theFixtureHoldsAResendStampedBeforeTheAckRecordedBeforeIt() throws IOException {
        // read independently of the analyzer: frame 23 is the harness's ACK, frame 34 the device's resend of its PSN
        final List<Rec> records = EvidenceRecords.read(FIXTURE);
        final Rec ack = records.get(22);
        final Rec resend = records.get(33);
        assertThat(ack.comment()).contains(" dir=to-dut ");
        assertThat(resend.comment()).contains(" dir=from-dut ");
        assertThat(stamp(resend)).as("the resend's stamp").isLessThan(stamp(ack));
        assertThat(resend.ts() - ack.ts()).as("the records' timestamps, kept from going back").isGreaterThan(1_000_000);
    }

    @Test
    void judgedAtItsStampsTheResendIsNoViolation() {
        final Analyses.Result result = Analyses.run(FIXTURE);
        assertThat(result.only(RULE).verdict()).as(result.describe()).isEqualTo(Verdict.PASS);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
    }

    @Test
    void withoutStampsTheFileOrderIsAllThereIsAndTheResendLooksLate() throws IOException {
        // what the analysis saw before it read the stamps: the clamped record timestamps in file order
        final List<Rec> bare = EvidenceRecords.read(FIXTURE).stream().map(EvidenceStampOrderTest::withoutStamp).toList();
        final Analyses.Result result = Analyses.run(EvidenceRecords.write(dir.resolve("bare.pcapng"), EvidenceRecords.section(FIXTURE), bare));
        assertThat(result.only(RULE).verdict()).as(result.describe()).isEqualTo(Verdict.FAIL);
        assertThat(result.only(RULE).reason()).contains("frame 34");
    }

    @Test
    void aViolationInACaseItsRunRecordedInconclusiveIsInconclusive() throws IOException {
        // the file-order violation above, in a case whose run recorded it INCONCLUSIVE (the harness late, say)
        final List<Rec> bare = EvidenceRecords.read(FIXTURE).stream().map(EvidenceStampOrderTest::withoutStamp)
            .map(r -> r.withComment(r.comment().replace(" verdict=PASS ", " verdict=INCONCLUSIVE "))).toList();
        final Analyses.Result result = Analyses.run(EvidenceRecords.write(dir.resolve("late-run.pcapng"), EvidenceRecords.section(FIXTURE), bare));
        assertThat(result.only(RULE).verdict()).as(result.describe()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.only(RULE).reason()).contains("recorded INCONCLUSIVE").contains("frame 34");
        assertThat(result.with(Verdict.FAIL)).isEmpty();
    }

    @Test
    void aResendStampedWellAfterTheAckStillFails() throws IOException {
        // the honest counterpart: the same resend stamped 2 ms after the ACK (the run's tolerance is 1 ms + 20 %)
        final List<Rec> records = new ArrayList<>(EvidenceRecords.read(FIXTURE));
        records.set(33, withStamp(records.get(33), stamp(records.get(22)) + 2_000_000));
        final Analyses.Result result = Analyses.run(EvidenceRecords.write(dir.resolve("late.pcapng"), EvidenceRecords.section(FIXTURE), records));
        assertThat(result.only(RULE).verdict()).as(result.describe()).isEqualTo(Verdict.FAIL);
        assertThat(result.only(RULE).reason()).contains("frame 34").contains("frame 23");
    }
}

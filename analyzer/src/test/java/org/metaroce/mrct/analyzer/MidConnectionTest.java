package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;

/** A capture that starts after the connection did gives INCONCLUSIVE with the reason, never FAIL. */
class MidConnectionTest {
    @TempDir
    Path dir;

    @Test
    void aCaptureStartingInsideAMessageIsInconclusive() throws IOException {
        final List<Captures.Record> records = Captures.read(Fixtures.fixtures()
            .resolve("captures/soft-roce/rdma_write_bw.pcap"));
        // keep from frame 23 on: the first RoCE frame is the MIDDLE of the first WRITE (PSN 5454384)
        final Path capture = Captures.write(dir.resolve("mid.pcap"), records.subList(22, records.size()));
        final Analyses.Result result = Analyses.run(capture);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        final CaseResult sequence = result.of("MR-REQ-006").get(0);
        assertThat(sequence.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(sequence.reason()).contains("the capture may start mid-connection: PSN 5454384 (0x533a30) is the "
            + "first seen");
        // with --complete the same capture claims to hold the connection's start, which it does not: now a violation
        final Analyses.Result complete = Analyses.run(capture, CaptureAnalyzer.Options.defaults().withComplete(true));
        assertThat(complete.of("MR-REQ-006").get(0).verdict()).isEqualTo(Verdict.FAIL);
    }

    @Test
    void aCaptureStartingBetweenMessagesMeetsAcknowledgementsOfEarlierPsns() throws IOException {
        final List<Captures.Record> records = Captures.read(Fixtures.fixtures()
            .resolve("captures/soft-roce/rdma_send_bw.pcap"));
        // drop the first SEND and its ACK (frames 24 to 27): the next ACKs still count messages from the start
        final List<Captures.Record> tail = new ArrayList<>(records.subList(0, 23));
        tail.addAll(records.subList(27, records.size()));
        final Analyses.Result result = Analyses.run(Captures.write(dir.resolve("later.pcap"), tail));
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        assertThat(result.of("MR-ACK-003")).singleElement().satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(c.reason()).contains("may start mid-connection");
        });
    }

    @Test
    void aMetaRoceCaptureStartingMidConnectionIsInconclusive() throws IOException {
        final Path full = dir.resolve("full.pcap");
        TrafficGenerator.write(full, TrafficGenerator.Options.clean(2_000, 5));
        final List<Captures.Record> records = Captures.read(full);
        final Path cut = Captures.write(dir.resolve("cut.pcap"), records.subList(777, records.size()));
        final Analyses.Result result = Analyses.run(cut);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        assertThat(result.with(Verdict.INCONCLUSIVE)).as(result.describe()).isNotEmpty()
            .allMatch(c -> c.reason().contains("may start mid-connection"));
        assertThat(result.of("MR-REQ-007").get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }
}

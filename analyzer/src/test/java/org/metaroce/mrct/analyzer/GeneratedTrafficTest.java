package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Psn;

/**
 * MetaRoCE v1 traffic crafted with {@code FrameBuilder} ({@link TrafficGenerator}): a conforming conversation analyses
 * clean, with selective retransmission, SACKs, CE marks and CNPs, and spraying all judged; a PSN sent again after a
 * SACK showed it delivered fails MR-RTX-001 at its frame.
 */
class GeneratedTrafficTest {
    @TempDir
    Path dir;

    private Path generate(final String name, final TrafficGenerator.Options options) throws IOException {
        final Path file = dir.resolve(name);
        TrafficGenerator.write(file, options);
        return file;
    }

    @Test
    void cleanTrafficPassesEveryCheck() throws IOException {
        final Path capture = generate("clean.pcap", TrafficGenerator.Options.clean(3_000, 7));
        final Analyses.Result result = Analyses.run(capture);
        assertThat(result.checks()).as(result.describe()).allMatch(c -> c.verdict() == Verdict.PASS);
        assertThat(result.outcome().files().get(0).connections()).isEqualTo(1);
        for (final String rule : List.of("MR-HDR-001", "MR-HDR-002", "MR-HDR-004", "MR-HDR-007", "MR-REQ-002",
            "MR-REQ-003", "MR-REQ-004", "MR-REQ-005", "MR-REQ-006", "MR-REQ-007", "MR-REQ-010", "MR-REQ-011",
            "MR-REQ-012", "MR-ACK-001", "MR-ACK-002", "MR-ACK-003", "MR-ACK-010", "MR-CC-001", "MR-MP-001")) {
            assertThat(result.of(rule)).as(rule).singleElement()
                .satisfies(c -> assertThat(c.verdict()).isEqualTo(Verdict.PASS));
        }
        // complete: the stronger checks (every recorded PSN in the SACK bitmap) hold too
        final Analyses.Result complete = Analyses.run(capture, CaptureAnalyzer.Options.defaults().withComplete(true));
        assertThat(complete.checks()).as(complete.describe()).allMatch(c -> c.verdict() == Verdict.PASS);
    }

    @Test
    void lossesCongestionAndSprayingAreJudgedAndPass() throws IOException {
        final Path capture = generate("eventful.pcap", TrafficGenerator.Options.eventful(20_000, 11));
        final Analyses.Result result = Analyses.run(capture);
        assertThat(result.checks()).as(result.describe()).allMatch(c -> c.verdict() == Verdict.PASS);
        assertThat(only(result, "MR-RTX-001").reason()).matches("[1-9][0-9]* retransmissions checked.*");
        assertThat(only(result, "MR-RTX-006").verdict()).isEqualTo(Verdict.PASS);
        assertThat(only(result, "MR-CC-003").reason()).matches("[1-9][0-9]* CE-marked requests checked.*");
        assertThat(only(result, "MR-CC-005").verdict()).isEqualTo(Verdict.PASS);
        assertThat(only(result, "MR-MP-002").reason()).matches("[1-9][0-9]* data packets checked.*");
        assertThat(result.of("MR-MP-001")).isEmpty();
        final CaseResult summary = result.cases().stream().filter(c -> c.id().equals("C1/summary")).findFirst()
            .orElseThrow();
        assertThat(summary.series()).containsKeys("10.0.0.1 -> 10.0.0.2 data Mb/s", "10.0.0.1 CNPs received");
        assertThat(summary.series().get("10.0.0.1 -> 10.0.0.2 data Mb/s")).hasSizeLessThanOrEqualTo(256);
    }

    @Test
    void aSackedPsnSentAgainFailsMrRtx001() throws IOException {
        final List<Captures.Record> records = Captures.read(generate("losses.pcap",
            TrafficGenerator.Options.eventful(6_000, 3)));
        final FrameDecoder decoder = new FrameDecoder();
        int ack = -1;
        int sacked = -1;
        for (int i = 0; i < records.size() && ack < 0; i++) {
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(records.get(i).bytes()), 0,
                records.get(i).bytes().length);
            if (f.opcode().kind() == OpKind.ACKNOWLEDGE && f.sacketh().bitmap() != 0) {
                ack = i;
                sacked = Psn.add(f.sacketh().basePsn(), Long.numberOfLeadingZeros(f.sacketh().bitmap()));
            }
        }
        assertThat(ack).as("a SACK with a bit set").isPositive();
        int original = -1;
        for (int i = ack - 1; i >= 0 && original < 0; i--) {
            if (Captures.psn(records.get(i).bytes()) == sacked && Captures.opcode(records.get(i).bytes()) < 0x11) {
                original = i;
            }
        }
        assertThat(original).as("the first transmission of the SACKed PSN").isNotNegative();
        // the requester is given at least 2 µs to act on the SACK: resend 10 µs after it
        int at = ack + 1;
        while (records.get(at).tsNs() < records.get(ack).tsNs() + 10_000) {
            at++;
        }
        final List<Captures.Record> edited = new ArrayList<>(records);
        edited.add(at, new Captures.Record(records.get(at).tsNs() - 1,
            Captures.withIpId(records.get(original).bytes(), 0xBEEF)));
        final Analyses.Result result = Analyses.run(Captures.write(dir.resolve("resent.pcap"), edited));
        final CaseResult rtx = only(result, "MR-RTX-001");
        assertThat(rtx.verdict()).as(result.describe()).isEqualTo(Verdict.FAIL);
        assertThat(rtx.reason()).contains("first at frame " + (at + 1), "PSN " + sacked,
            "frame " + (ack + 1));
        assertThat(rtx.evidence()).isNotEmpty();
        assertThat(rtx.evidence().get(0).note()).startsWith("frame " + (at + 1) + " of ");
        // the same resend within the time the requester needs to act on the SACK is not proven wrong
        final List<Captures.Record> early = new ArrayList<>(records);
        early.add(ack + 1, new Captures.Record(records.get(ack).tsNs() + 5,
            Captures.withIpId(records.get(original).bytes(), 0xBEEF)));
        final Analyses.Result soon = Analyses.run(Captures.write(dir.resolve("soon.pcap"), early));
        assertThat(only(soon, "MR-RTX-001").verdict()).isEqualTo(Verdict.PASS);
        assertThat(rtx.failure().diffs()).singleElement().satisfies(d -> assertThat(d.field())
            .isEqualTo("bth.psn"));
    }

    private static CaseResult only(final Analyses.Result result, final String rule) {
        final List<CaseResult> cases = result.of(rule);
        assertThat(cases).as(rule + "\n" + result.describe()).hasSize(1);
        return cases.get(0);
    }
}

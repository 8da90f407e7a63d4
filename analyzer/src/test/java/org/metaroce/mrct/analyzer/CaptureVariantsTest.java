package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/** Captures as real tools write them: cut by a snap length, Linux cooked, taken twice, IPv6 with VLANs, damaged. */
class CaptureVariantsTest {
    private static final Path WRITE = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");

    @TempDir
    Path dir;

    @Test
    void framesCutByTheSnapLengthAreJudgedOnTheirHeaders() throws IOException {
        final Path cut = Captures.write(dir.resolve("snap.pcap"), Captures.read(WRITE),
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO).withSnapLength(96));
        final Analyses.Result result = Analyses.run(cut);
        assertThat(result.outcome().files().get(0).cutFrames()).isEqualTo(15);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        // only the five ACKs (70 bytes) are whole: the ICRC is judged on them alone
        assertThat(result.of("MR-WIRE-014")).singleElement().satisfies(c -> assertThat(c.reason())
            .startsWith("5 frames checked"));
        assertThat(result.of("MR-REQ-006")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
        assertThat(result.of("MR-LEG-002")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
    }

    @Test
    void linuxCookedCapturesAreAnalysedLikeEthernet() throws IOException {
        final List<Captures.Record> sll = new ArrayList<>();
        for (final Captures.Record record : Captures.read(WRITE)) {
            final byte[] eth = record.bytes();
            final byte[] cooked = new byte[eth.length - 14 + 16];
            cooked[3] = 1;
            cooked[5] = 6;
            System.arraycopy(eth, 6, cooked, 6, 6);
            cooked[14] = eth[12];
            cooked[15] = eth[13];
            System.arraycopy(eth, 14, cooked, 16, eth.length - 14);
            sll.add(record.withBytes(cooked));
        }
        final Path file = Captures.write(dir.resolve("any.pcap"), sll,
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO).withLinkType(113));
        final Analyses.Result cooked = Analyses.run(file);
        final Analyses.Result ethernet = Analyses.run(WRITE);
        assertThat(cooked.with(Verdict.FAIL)).as(cooked.describe()).isEmpty();
        assertThat(cooked.checks()).extracting(CaseResult::id, CaseResult::reason)
            .isEqualTo(ethernet.checks().stream().map(c -> Tuple.tuple(c.id(), c.reason()))
                .toList());
    }

    @Test
    void aCaptureHoldingEveryFrameTwiceProvesNothingAgainstTheDevices() throws IOException {
        final List<Captures.Record> twice = new ArrayList<>();
        for (final Captures.Record record : Captures.read(WRITE)) {
            twice.add(record);
            twice.add(record.at(record.tsNs() + 3_000));
        }
        final Analyses.Result result = Analyses.run(Captures.write(dir.resolve("twice.pcap"), twice));
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        assertThat(result.with(Verdict.INCONCLUSIVE)).isNotEmpty()
            .allMatch(c -> c.reason().contains("copy") || c.reason().contains("copies"));
        final CaseResult summary = result.cases().stream().filter(c -> c.id().equals("C1/summary")).findFirst()
            .orElseThrow();
        assertThat(summary.notes()).anyMatch(n -> n.startsWith("10.1.16.62 -> 10.1.16.61 qp 0x00001b")
            && n.matches(".* 0 +15 .*"));
    }

    @Test
    void ipv6AndVlanTaggedMetaRoceTrafficIsPaired() throws IOException {
        final Encapsulation there = Encapsulation.ipv6("2001:db8::1", "2001:db8::2").withVlan(100, 3)
            .withUdpSourcePort(0xC123);
        final Encapsulation back = there.reversed();
        final List<Captures.Record> records = new ArrayList<>();
        long ts = 1_000_000_000L;
        for (int i = 0; i < 4; i++) {
            records.add(new Captures.Record(ts += 1_000, FrameBuilder.of(there, Opcode.SEND_ONLY)
                .payload(new byte[] {1, 2, 3, (byte) i}).psn(100 + i).destQp(0x22).ackReq(true)
                .with("pleth.msn", i).with("pleth.rsn", i).build()));
            records.add(new Captures.Record(ts += 1_000, FrameBuilder.of(back, Opcode.ACKNOWLEDGE).ecn(0)
                .psn(100 + i).destQp(0x11).with("aeth.msn", i + 1).with("sacketh.base", 101 + i).build()));
        }
        final Analyses.Result result = Analyses.run(Captures.write(dir.resolve("v6.pcap"), records),
            CaptureAnalyzer.Options.defaults().withComplete(true));
        assertThat(result.checks()).as(result.describe()).allMatch(c -> c.verdict() == Verdict.PASS);
        assertThat(result.outcome().files().get(0).connections()).isEqualTo(1);
        assertThat(result.of("MR-WIRE-007")).singleElement().satisfies(c -> assertThat(c.reason())
            .startsWith("8 IPv6 frames checked"));
        assertThat(result.of("MR-REQ-008")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
        assertThat(result.cases()).anyMatch(c -> c.title().equals("2001:db8::1 qp 0x000011 <-> 2001:db8::2 qp "
            + "0x000022"));
    }

    @Test
    void aDamagedFileIsAnalysedUpToTheDamageAndNamed() throws IOException {
        final byte[] whole = Files.readAllBytes(WRITE);
        final Path cut = dir.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, 15_000));
        final Analyses.Result result = Analyses.run(cut);
        final FileOutcome file = result.outcome().files().get(0);
        assertThat(file.problem()).matches("byte \\d+ \\(record \\d+\\): truncated .*");
        assertThat(file.frames()).isPositive();
        assertThat(result.outcome().unreadable()).isTrue();
        assertThat(result.summary().overall()).isEqualTo(Overall.ERROR);
        assertThat(result.checks()).isNotEmpty();

        final Analyses.Result missing = Analyses.run(dir.resolve("nothing.pcap"));
        assertThat(missing.outcome().files().get(0).problem()).isEqualTo("no such file");
        final Path text = Files.writeString(dir.resolve("notes.txt"), "these are not packets");
        assertThat(Analyses.run(text).outcome().files().get(0).problem())
            .startsWith("byte 0 (record 1): not a pcap or pcapng file");
    }
}

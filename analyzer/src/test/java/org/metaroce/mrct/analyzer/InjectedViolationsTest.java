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

/**
 * Violations injected into a copy of a clean capture are reported with the right rule and frame number: as FAIL when
 * the frames prove them, as INCONCLUSIVE (naming the same rule and frame) when a missing or doubled frame in the capture
 * could explain them, and as FAIL again once {@code --complete} rules that out.
 *
 * <p>The capture is {@code rdma_write_bw.pcap}: frames 22 to 24 are the first WRITE (PSNs 5454383 to 5454385), 25 its
 * ACK, 26 to 28 the second WRITE (5454386 to 5454388), 29 its ACK.
 */
class InjectedViolationsTest {
    private static final Path WRITE = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");
    private static final CaptureAnalyzer.Options COMPLETE = CaptureAnalyzer.Options.defaults().withComplete(true);

    @TempDir
    Path dir;

    private List<Captures.Record> clean() throws IOException {
        final List<Captures.Record> records = Captures.read(WRITE);
        assertThat(Captures.psn(records.get(26).bytes())).as("frame 27 is the second WRITE's MIDDLE").isEqualTo(5454387);
        assertThat(Captures.opcode(records.get(26).bytes())).isEqualTo(0x07);
        return records;
    }

    private static CaseResult only(final Analyses.Result result, final String rule) {
        final List<CaseResult> cases = result.of(rule);
        assertThat(cases).as(rule + "\n" + result.describe()).hasSize(1);
        return cases.get(0);
    }

    @Test
    void aCorruptedIcrcFailsMrWire014AtItsFrame() throws IOException {
        final List<Captures.Record> records = clean();
        final byte[] bad = records.get(26).bytes().clone();
        bad[bad.length - 1] ^= 0x5A;
        records.set(26, records.get(26).withBytes(bad));
        final Analyses.Result result = Analyses.run(Captures.write(dir.resolve("icrc.pcap"), records));

        final CaseResult icrc = only(result, "MR-WIRE-014");
        assertThat(icrc.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(icrc.reason()).contains("first at frame 27");
        assertThat(icrc.failure().rule()).isEqualTo("MR-WIRE-014");
        assertThat(icrc.failure().diffs()).singleElement().satisfies(d -> assertThat(d.field()).isEqualTo("icrc"));
        assertThat(icrc.evidence()).isNotEmpty();
        assertThat(icrc.evidence().get(icrc.failure().frame()).note()).startsWith("frame 27 of ");
        assertThat(icrc.evidence().get(0).bytes()).isEqualTo(bad);
        // the ACK in frame 29 covers a PSN seen only with a bad ICRC: a receiver must have dropped it, unless a good
        // copy was missed by the capture
        final CaseResult dropped = only(result, "MR-WIRE-015");
        assertThat(dropped.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(dropped.reason()).contains("frame 29", "5454387");
        final CaseResult proven = only(Analyses.run(dir.resolve("icrc.pcap"), COMPLETE), "MR-WIRE-015");
        assertThat(proven.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(proven.reason()).contains("first at frame 29");
    }

    @Test
    void aDroppedFrameIsACaptureGapUnlessTheCaptureIsComplete() throws IOException {
        final List<Captures.Record> records = clean();
        records.remove(26);
        final Path capture = Captures.write(dir.resolve("drop.pcap"), records);
        // the ACK of the second WRITE is now frame 28; it covers PSN 5454387, which the capture no longer holds
        final Analyses.Result result = Analyses.run(capture);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        final CaseResult inOrder = only(result, "MR-LEG-002");
        assertThat(inOrder.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(inOrder.reason()).contains("first at frame 28", "5454387", "capture may have missed");
        assertThat(only(result, "MR-REQ-003").verdict()).isEqualTo(Verdict.INCONCLUSIVE);

        final Analyses.Result complete = Analyses.run(capture, COMPLETE);
        final CaseResult proven = only(complete, "MR-LEG-002");
        assertThat(proven.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(proven.reason()).contains("first at frame 28", "PSN 5454387");
        assertThat(proven.failure().rule()).isEqualTo("MR-LEG-002");
        assertThat(only(complete, "MR-REQ-003").verdict()).isEqualTo(Verdict.FAIL);
        assertThat(only(complete, "MR-REQ-003").failure().rule()).isEqualTo("MR-REQ-003");
    }

    @Test
    void aSecondNak60ForTheSameHoleBreaksMrLeg003AndTheFirstDoesNot() throws IOException {
        final List<Captures.Record> records = clean();
        final Captures.Record ack = records.get(24);
        assertThat(Captures.opcode(ack.bytes())).as("frame 25 is the first WRITE's ACK").isEqualTo(0x11);
        final long gap = records.get(25).tsNs() - ack.tsNs();
        // the responder answers twice with NAK 0x60 for 5454386 (its ePSN) with nothing accepted in between: frames
        // 26 and 27 (the oracle's LegacyAnswers)
        final byte[] nak = Captures.asNak60(ack.bytes(), 5454386);
        records.add(25, ack.withBytes(nak).at(ack.tsNs() + gap / 3));
        records.add(26, ack.withBytes(nak).at(ack.tsNs() + 2 * gap / 3));
        final Path capture = Captures.write(dir.resolve("nak.pcap"), records);
        final CaseResult twice = only(Analyses.run(capture, COMPLETE), "MR-LEG-003");
        assertThat(twice.verdict()).as(twice.reason()).isEqualTo(Verdict.FAIL);
        assertThat(twice.reason()).contains("first at frame 27", "the first in frame 26");
        assertThat(twice.failure().rule()).isEqualTo("MR-LEG-003");
        assertThat(twice.failure().diffs()).singleElement().satisfies(d -> assertThat(d.field())
            .isEqualTo("aeth.syndrome"));
        // one NAK alone is what the rule asks for
        records.remove(26);
        final CaseResult once = only(Analyses.run(Captures.write(dir.resolve("nak1.pcap"), records), COMPLETE),
            "MR-LEG-003");
        assertThat(once.verdict()).as(once.reason()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aDuplicatedFrameIsAPossibleCopyUnlessTheCaptureIsComplete() throws IOException {
        final List<Captures.Record> records = clean();
        records.add(27, records.get(26));
        final Path capture = Captures.write(dir.resolve("dup.pcap"), records);
        // frame 28 repeats frame 27 byte for byte: a second copy, or a retransmission no NAK or timeout asked for
        final Analyses.Result result = Analyses.run(capture);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        final CaseResult timeout = only(result, "MR-LEG-009");
        assertThat(timeout.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(timeout.reason()).contains("first at frame 28", "second copy");

        final CaseResult proven = only(Analyses.run(capture, COMPLETE), "MR-LEG-009");
        assertThat(proven.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(proven.reason()).contains("first at frame 28", "PSN 5454387");
    }

    @Test
    void twoFramesSwappedBreakTheFirstTransmissionOrder() throws IOException {
        final List<Captures.Record> records = clean();
        final Captures.Record middle = records.get(26);
        final Captures.Record last = records.get(27);
        records.set(26, last.at(middle.tsNs()));
        records.set(27, middle.at(last.tsNs()));
        final Path capture = Captures.write(dir.resolve("swap.pcap"), records);
        // PSN 5454388 (now frame 27) goes out before PSN 5454387 (now frame 28)
        final CaseResult order = only(Analyses.run(capture), "MR-REQ-003");
        assertThat(order.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(order.reason()).contains("first at frame 28", "PSN 5454387");
        final CaseResult proven = only(Analyses.run(capture, COMPLETE), "MR-REQ-003");
        assertThat(proven.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(proven.reason()).contains("first at frame 28");
        assertThat(proven.failure().message()).contains("increasing PSN order");
    }

    @Test
    void theCleanCaptureStaysCleanWhenComplete() {
        final Analyses.Result result = Analyses.run(WRITE, COMPLETE);
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        assertThat(result.with(Verdict.INCONCLUSIVE)).as(result.describe()).isEmpty();
    }

    @Test
    void findingsAreCountedAndTheFirstKeptInFull() throws IOException {
        final List<Captures.Record> records = clean();
        final List<Integer> roce = Captures.roce(records);
        final List<Captures.Record> corrupted = new ArrayList<>(records);
        for (final int number : roce) {
            final byte[] bad = records.get(number - 1).bytes().clone();
            bad[bad.length - 2] ^= 1;
            corrupted.set(number - 1, records.get(number - 1).withBytes(bad));
        }
        final CaseResult icrc = only(Analyses.run(Captures.write(dir.resolve("all.pcap"), corrupted)),
            "MR-WIRE-014");
        assertThat(icrc.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(icrc.reason()).startsWith(roce.size() + " violations, first at frame " + roce.get(0));
        assertThat(icrc.notes()).anyMatch(n -> n.startsWith("violation at frame " + roce.get(1)));
        assertThat(icrc.evidence()).hasSizeLessThanOrEqualTo(3);
    }
}

package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * TVer 0 exchanges of the suite's legacy cases, on hand-built evidence of a device's legacy QP (the harness's frames
 * to it, its answers and requests judged): a duplicate READ REQUEST for the rest of a read, which section 16.1 answers
 * as a read of its own from its PSN (FIRST there, MR-RD-003), TVer 1 frames sent to a TVer 0 QP, which it drops
 * (MR-ROB-008): the QP's tver is the one its case set (the evidence's control records), not the first frame's
 * (MR-WIRE-013), and the go-back after a NAK 0x60 (MR-LEG-008, the oracle's RequesterGoBack). Each check once fires
 * on a device that breaks it and stays quiet on one that does not.
 */
class Tver0EvidenceTest {
    private static final int PMTU = 256;
    private static final int PSN = 0x0C2740;
    private static final long VA = 0x1_0000L;
    private static final int RKEY = 0x1234;

    @TempDir
    Path dir;

    private static FrameBuilder t0(final Opcode opcode, final int psn) {
        return FrameBuilder.of(HandBuiltEvidence.TO_DUT, opcode).tver(0).psn(psn);
    }

    private static FrameBuilder read(final int psn, final long va, final int length) {
        return t0(Opcode.RDMA_READ_REQUEST, psn).ackReq(true).with("reth.va", va).with("reth.rkey", RKEY)
            .with("reth.dmalen", length);
    }

    /** A TVer 0 read response of one PMTU on PSN {@code psn}, with an AETH naming MSN 1 where it has one. */
    private static FrameBuilder response(final Opcode opcode, final int psn) {
        final FrameBuilder b = t0(opcode, psn).payload(new byte[PMTU]);
        return opcode == Opcode.RDMA_READ_RESPONSE_MIDDLE ? b : b.with("aeth.syndrome", 0x1F).with("aeth.msn", 1);
    }

    /** A READ of 4 PMTU answered whole, then asked for again from its second PSN, answered with {@code again}. */
    private Path readFromMiddle(final String name, final Opcode... again) throws IOException {
        final HandBuiltEvidence evidence = new HandBuiltEvidence("LEG-T0-RD-" + name)
            .toDut(read(PSN, VA, 4 * PMTU))
            .fromDut(response(Opcode.RDMA_READ_RESPONSE_FIRST, PSN))
            .fromDut(response(Opcode.RDMA_READ_RESPONSE_MIDDLE, PSN + 1))
            .fromDut(response(Opcode.RDMA_READ_RESPONSE_MIDDLE, PSN + 2))
            .fromDut(response(Opcode.RDMA_READ_RESPONSE_LAST, PSN + 3))
            .toDut(read(PSN + 1, VA + PMTU, 3 * PMTU));
        for (int i = 0; i < again.length; i++) {
            evidence.fromDut(response(again[i], PSN + 1 + i));
        }
        return evidence.createQp("\"tver\":0,\"pmtu\":" + PMTU).write(dir.resolve(name + ".pcapng"));
    }

    @Test
    void aDuplicateReadFromTheMiddleIsAnsweredAsAReadOfItsOwn() throws IOException {
        final Analyses.Result result = Analyses.run(readFromMiddle("rest", Opcode.RDMA_READ_RESPONSE_FIRST,
            Opcode.RDMA_READ_RESPONSE_MIDDLE, Opcode.RDMA_READ_RESPONSE_LAST), Analyses.referenceProfile());
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        assertThat(result.with(Verdict.INCONCLUSIVE)).as(result.describe()).isEmpty();
        assertThat(result.only("MR-RD-003").verdict()).isEqualTo(Verdict.PASS);
        assertThat(result.only("MR-RD-003").reason()).startsWith("7 READ RESPONSE packets checked");
    }

    @Test
    void answeringTheRestWithTheWholeReadsOpcodesBreaksMrRd003() throws IOException {
        // the TVer 1 way (section 8.4: opcodes by position in the whole read), which a TVer 0 requester cannot take
        final Analyses.Result result = Analyses.run(readFromMiddle("whole", Opcode.RDMA_READ_RESPONSE_MIDDLE,
            Opcode.RDMA_READ_RESPONSE_MIDDLE, Opcode.RDMA_READ_RESPONSE_LAST), Analyses.referenceProfile());
        final CaseResult opcode = result.only("MR-RD-003");
        assertThat(opcode.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(opcode.reason()).contains("first at frame 7", "RDMA_READ_RESPONSE_MIDDLE on PSN " + (PSN + 1),
            "packet 1 of the response to the read of 768 bytes at PSN " + (PSN + 1), "asked for again");
        assertThat(opcode.failure().diffs()).singleElement().satisfies(d -> {
            assertThat(d.field()).isEqualTo("bth.opcode");
            assertThat(d.expected()).isEqualTo("RDMA_READ_RESPONSE_FIRST");
        });
    }

    @Test
    void aLateResponseOfTheFirstExecutionIsStillOneOfItsPackets() throws IOException {
        // a capture away from the device: the MIDDLE on the read's second PSN was overtaken in the network, the
        // requester asked for the rest from there, and the late MIDDLE arrives before the re-execution's FIRST
        final List<Captures.Record> records = new java.util.ArrayList<>();
        final FrameBuilder[] frames = {read(PSN, VA, 4 * PMTU),
            response(Opcode.RDMA_READ_RESPONSE_FIRST, PSN).encapsulation(HandBuiltEvidence.FROM_DUT),
            response(Opcode.RDMA_READ_RESPONSE_MIDDLE, PSN + 2).encapsulation(HandBuiltEvidence.FROM_DUT),
            read(PSN + 1, VA + PMTU, 3 * PMTU),
            response(Opcode.RDMA_READ_RESPONSE_MIDDLE, PSN + 1).encapsulation(HandBuiltEvidence.FROM_DUT),
            response(Opcode.RDMA_READ_RESPONSE_FIRST, PSN + 1).encapsulation(HandBuiltEvidence.FROM_DUT),
            response(Opcode.RDMA_READ_RESPONSE_MIDDLE, PSN + 2).encapsulation(HandBuiltEvidence.FROM_DUT),
            response(Opcode.RDMA_READ_RESPONSE_LAST, PSN + 3).encapsulation(HandBuiltEvidence.FROM_DUT)};
        for (int i = 0; i < frames.length; i++) {
            final boolean request = i == 0 || i == 3;
            records.add(new Captures.Record(1_700_000_000_000_000_000L + i * 3_000L, frames[i]
                .destQp(request ? HandBuiltEvidence.DUT_QPN : HandBuiltEvidence.HARNESS_QPN).build()));
        }
        final Analyses.Result result = Analyses.run(Captures.write(dir.resolve("late.pcap"), records));
        assertThat(result.only("MR-RD-003").verdict()).as(result.describe()).isEqualTo(Verdict.PASS);
        // the same MIDDLE after the re-execution's FIRST answered that PSN is no packet of either response
        records.add(4, records.remove(5));
        final Analyses.Result result2 = Analyses.run(Captures.write(dir.resolve("late2.pcap"), records));
        final CaseResult late = result2.only("MR-RD-003");
        assertThat(late.verdict()).as(result2.describe()).isEqualTo(Verdict.FAIL);
        assertThat(late.reason()).contains("first at frame 6", "RDMA_READ_RESPONSE_MIDDLE on PSN " + (PSN + 1));
    }

    /**
     * A TVer 0 QP (its case's createQp says tver 0) is sent an RDMA WRITE ONLY and a READ REQUEST in the TVer 1
     * layout, which it drops, then the same WRITE and a READ at the next PSN as TVer 0 frames, which it answers with
     * {@code ackTver} and {@code responseTver} frames.
     */
    private Path tver1FramesToATver0Qp(final String name, final int answerTver) throws IOException {
        final FrameBuilder ack = FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.ACKNOWLEDGE).tver(answerTver)
            .psn(PSN).with("aeth.syndrome", 0x1F).with("aeth.msn", 1);
        final FrameBuilder only = FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.RDMA_READ_RESPONSE_ONLY)
            .tver(answerTver).psn(PSN + 1).with("aeth.syndrome", 0x1F).with("aeth.msn", 2).payload(new byte[32]);
        return new HandBuiltEvidence("LEG-T0-ROB-008-" + name)
            .toDut(FrameBuilder.of(HandBuiltEvidence.TO_DUT, Opcode.RDMA_WRITE_ONLY).psn(PSN).ackReq(true)
                .with("reth.va", VA).with("reth.rkey", RKEY).with("reth.dmalen", 64).payload(new byte[64]))
            .toDut(FrameBuilder.of(HandBuiltEvidence.TO_DUT, Opcode.RDMA_READ_REQUEST).psn(PSN).ackReq(true)
                .with("reth.va", VA + 2048).with("reth.rkey", RKEY).with("reth.dmalen", 32))
            .toDut(t0(Opcode.RDMA_WRITE_ONLY, PSN).ackReq(true).with("reth.va", VA).with("reth.rkey", RKEY)
                .with("reth.dmalen", 64).payload(new byte[64]))
            .fromDut(ack)
            .toDut(read(PSN + 1, VA + 2048, 32))
            .fromDut(only)
            .createQp("\"tver\":0,\"pmtu\":1024")
            .write(dir.resolve(name + ".pcapng"));
    }

    @Test
    void theQpsTverIsTheOneItsCaseSetNotTheFirstFramesTver() throws IOException {
        final Analyses.Result result = Analyses.run(tver1FramesToATver0Qp("dropped", 0), Analyses.referenceProfile());
        assertThat(result.with(Verdict.FAIL)).as(result.describe()).isEmpty();
        assertThat(result.with(Verdict.INCONCLUSIVE)).as(result.describe()).isEmpty();
        final CaseResult bth = result.only("MR-WIRE-013");
        assertThat(bth.verdict()).isEqualTo(Verdict.PASS);
        assertThat(bth.parameters()).containsEntry("tver", 0);
        assertThat(result.of("MR-LEG-001")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
    }

    @Test
    void aTver0QpAnsweringInTver1BreaksMrWire013() throws IOException {
        // the device's frames agree with each other and with the first frame it was sent, not with its QP's tver
        final CaseResult bth = Analyses.run(tver1FramesToATver0Qp("answers-tver1", 1), Analyses.referenceProfile())
            .only("MR-WIRE-013");
        assertThat(bth.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(bth.reason()).contains("first at frame 4", "ACKNOWLEDGE", "bth.tver 1", "expected 0");
    }

    /** A TVer 0 RDMA WRITE ONLY of 64 bytes the device's QP sends on PSN {@code psn}. */
    private static FrameBuilder write(final int psn) {
        return FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.RDMA_WRITE_ONLY).tver(0).psn(psn).ackReq(true)
            .with("reth.va", VA).with("reth.rkey", RKEY).with("reth.dmalen", 64).payload(new byte[64]);
    }

    /**
     * The device's legacy QP sends WRITEs on PSN + 0 to 3, takes NAK 0x60 for PSN + 1 (PSN + 0 arrived), then sends the
     * PSNs of {@code after} (2 us apart, the first 2 us after the NAK) and the harness acknowledges them all.
     */
    private Path goBack(final String name, final int... after) throws IOException {
        final HandBuiltEvidence evidence = new HandBuiltEvidence("LEG-T0-GBN-" + name);
        for (int k = 0; k < 4; k++) {
            evidence.fromDut(write(PSN + k));
        }
        evidence.toDut(t0(Opcode.ACKNOWLEDGE, PSN + 1).with("aeth.syndrome", 0x60).with("aeth.msn", 1));
        int last = PSN;
        for (final int k : after) {
            evidence.fromDut(write(PSN + k));
            last = Math.max(last, PSN + k);
        }
        evidence.toDut(t0(Opcode.ACKNOWLEDGE, last).with("aeth.syndrome", 0x1F).with("aeth.msn", last - PSN + 1));
        return evidence.createQp("\"tver\":0,\"pmtu\":" + PMTU).write(dir.resolve(name + ".pcapng"));
    }

    @Test
    void goingBackFromTheNaksPsnBeforeANewOneMeetsMrLeg008AndANewOneFirstBreaksIt() throws IOException {
        // the oracle's RequesterGoBack, as the live engine asks it (RequesterCheckerLimitsTest)
        final Analyses.Result back = Analyses.run(goBack("back", 1, 2, 3, 4), Analyses.referenceProfile());
        assertThat(back.only("MR-LEG-008").verdict()).as(back.describe()).isEqualTo(Verdict.PASS);
        final Analyses.Result ahead = Analyses.run(goBack("ahead", 4, 1, 2, 3), Analyses.referenceProfile());
        final CaseResult goBackN = ahead.only("MR-LEG-008");
        assertThat(goBackN.verdict()).as(ahead.describe()).isEqualTo(Verdict.FAIL);
        assertThat(goBackN.reason()).contains("first at frame 6", "new PSN " + (PSN + 4) + " (0x",
            "is sent before PSN " + (PSN + 1) + " (0x");
    }
}

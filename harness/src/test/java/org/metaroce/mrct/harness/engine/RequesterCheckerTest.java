package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The requester checker against hand-made frame sequences: each test plays what a device sent and what it received,
 * and checks that exactly the rule the sequence breaks is named (or that a conforming sequence passes).
 */
class RequesterCheckerTest {
    private static final int PMTU = 256;
    private static final int SQ_PSN = 0xFFFFFE; // the wrap comes two PSNs in
    private static final int PEER_QPN = 0x123;
    private static final int DEVICE_QPN = 0x100;
    private static final Encapsulation FROM_DEVICE = Encapsulation.ipv4("198.51.100.2", "198.51.100.1");
    private static final Encapsulation TO_DEVICE = Encapsulation.ipv4("198.51.100.1", "198.51.100.2");

    private final FrameDecoder decoder = new FrameDecoder();
    private Connection connection;
    private SendQueueModel model;
    private RequesterChecker checker;
    private byte[] payload;
    private int evidence;

    @BeforeEach
    void setUp() {
        connection = new Connection("q", 1, DEVICE_QPN, PEER_QPN, 0, SQ_PSN, TO_DEVICE, 1, 0xFFFF, PMTU, 128);
        model = new SendQueueModel(PMTU);
        // reorder_threshold 3, reorder_time 10 us, rto_low 100 us, rto_high 300 us, n_low 2, send_window 8
        checker = new RequesterChecker(connection, model, new RequesterChecker.Parameters(PMTU, 8, 64, 3, 10_000,
            100_000, 300_000, 2, 7, 4, false, 0, 100_000, 10, 7), 0);
        payload = new byte[PMTU * 8];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 7);
        }
    }

    private void postWrite(final int packets) {
        model.post(new SendQueueModel.Work(model.works().size(), WorkOpcode.RDMA_WRITE, (long) packets * PMTU,
            java.util.Arrays.copyOf(payload, packets * PMTU), 0x1000, 0x77, 0, 0, 0, false,
            model.works().size() + 1, true));
    }

    private DecodedFrame decode(final byte[] bytes) {
        return decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    /** Packet {@code k} of a write of {@code n} packets from relative PSN {@code first}, MSN {@code msn}. */
    private DecodedFrame writePacket(final int first, final int k, final int n, final int msn) {
        return writePacket(first, k, n, msn, k == n - 1);
    }

    private DecodedFrame writePacket(final int first, final int k, final int n, final int msn, final boolean ackReq) {
        final Opcode opcode = SendQueueModel.segmentOpcode(WorkOpcode.RDMA_WRITE, n == 1 ? 0 : k == 0 ? 1
            : k == n - 1 ? 3 : 2);
        return decode(FrameBuilder.of(FROM_DEVICE, opcode)
            .payload(java.util.Arrays.copyOfRange(payload, k * PMTU, (k + 1) * PMTU))
            .with("bth.psn", Psn.add(SQ_PSN, first + k)).with("bth.dqpn", PEER_QPN)
            .with("bth.ackreq", ackReq ? 1 : 0).with("pleth.msn", msn).with("pleth.offset", (long) k * PMTU)
            .with("reth.va", 0x1000).with("reth.rkey", 0x77).with("reth.dmalen", (long) n * PMTU).build());
    }

    /** An ACK to the device: cumulative point {@code base} (relative), SACK bits for {@code sacked} PSNs. */
    private DecodedFrame ack(final int base, final int... sacked) {
        long bitmap = 0;
        for (final int psn : sacked) {
            bitmap |= Long.MIN_VALUE >>> (psn - base);
        }
        return decode(FrameBuilder.of(TO_DEVICE, Opcode.ACKNOWLEDGE).with("bth.psn", Psn.add(SQ_PSN, base - 1))
            .with("bth.dqpn", DEVICE_QPN).with("aeth.syndrome", 0x1F).with("sacketh.base", Psn.add(SQ_PSN, base))
            .with("sacketh.bitmap", bitmap).build());
    }

    private DecodedFrame rnrNak(final int psn, final int code) {
        return rnrNak(psn, code, psn);
    }

    /** An RNR NAK for {@code psn} whose cumulative point is {@code base}. */
    private DecodedFrame rnrNak(final int psn, final int code, final int base) {
        return decode(FrameBuilder.of(TO_DEVICE, Opcode.ACKNOWLEDGE).with("bth.psn", Psn.add(SQ_PSN, psn))
            .with("bth.dqpn", DEVICE_QPN).with("aeth.syndrome", 0x20 | code).with("sacketh.base",
                Psn.add(SQ_PSN, base)).build());
    }

    private StepFailure send(final DecodedFrame frame, final long time) {
        return checker.device(frame, time, evidence++);
    }

    /** Sends packets 0..n-1 of a write starting at PSN 0, 100 ns apart, and expects no violation. */
    private void sendAll(final int n) {
        for (int k = 0; k < n; k++) {
            assertThat(send(writePacket(0, k, n, 0), k * 100L)).as("packet %d", k).isNull();
        }
    }

    @Test
    void aConformingSelectiveRepeatPasses() {
        postWrite(6);
        sendAll(6);
        checker.toDevice(ack(0, 1, 2, 3), 2_000, -1); // PSN 0 missing, 3 later delivered: threshold loss event
        assertThat(send(writePacket(0, 0, 6, 0), 2_100)).isNull();
        checker.toDevice(ack(6), 4_000, -1);
        assertThat(checker.transmissions(0)).isEqualTo(2);
        assertThat(checker.transmissions(1)).isEqualTo(1);
        assertThat(checker.maxInFlight()).isEqualTo(6);
    }

    @Test
    void resendingASackedPsnBreaksRtx001() {
        postWrite(6);
        sendAll(6);
        checker.toDevice(ack(0, 1, 2, 3), 2_000, -1);
        assertThat(send(writePacket(0, 0, 6, 0), 2_100)).isNull();
        final StepFailure failure = send(writePacket(0, 2, 6, 0), 2_200);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-001");
    }

    @Test
    void resendingWithoutALossEventBreaksRtx002() {
        postWrite(6);
        sendAll(6);
        checker.toDevice(ack(0, 1), 2_000, -1); // one later PSN: below the threshold, and no time has passed
        final StepFailure failure = send(writePacket(0, 0, 6, 0), 2_100);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-002");
    }

    @Test
    void theTimeConditionAllowsAResendAfterReorderTime() {
        postWrite(6);
        sendAll(6);
        checker.toDevice(ack(0, 1), 2_000, -1);
        assertThat(send(writePacket(0, 0, 6, 0), 12_000)).isNull();
    }

    @Test
    void aNewPsnWhileALossEventIsPendingBreaksRtx003() {
        postWrite(6);
        postWrite(2);
        sendAll(6);
        checker.toDevice(ack(0, 1, 2, 3), 2_000, -1);
        final StepFailure failure = send(writePacket(6, 0, 2, 1), 2_100);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-003");
    }

    @Test
    void sendingBeyondTheWindowBreaksReq012() {
        postWrite(8);
        postWrite(1);
        for (int k = 0; k < 8; k++) {
            assertThat(send(writePacket(0, k, 8, 0), k * 100L)).isNull();
        }
        final StepFailure failure = send(writePacket(8, 0, 1, 1), 900);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-REQ-012");
    }

    @Test
    void skippingAPsnBreaksReq003AndStartingElsewhereReq001() {
        postWrite(3);
        final StepFailure first = send(writePacket(0, 1, 3, 0), 0);
        assertThat(first).isNotNull();
        assertThat(first.rule).isEqualTo("MR-REQ-001");
        setUp();
        postWrite(3);
        assertThat(send(writePacket(0, 0, 3, 0), 0)).isNull();
        final StepFailure skip = send(writePacket(0, 2, 3, 0), 100);
        assertThat(skip).isNotNull();
        assertThat(skip.rule).isEqualTo("MR-REQ-003");
    }

    @Test
    void aWrongFieldNamesItsRuleAndBothValues() {
        postWrite(2);
        final DecodedFrame wrong = decode(FrameBuilder.of(FROM_DEVICE, Opcode.RDMA_WRITE_FIRST)
            .payload(java.util.Arrays.copyOf(payload, PMTU)).with("bth.psn", SQ_PSN).with("bth.dqpn", PEER_QPN)
            .with("pleth.msn", 0).with("reth.va", 0x1000).with("reth.rkey", 0x77).with("reth.dmalen", 999).build());
        final StepFailure failure = send(wrong, 0);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-HDR-007");
        assertThat(failure.diffs).anySatisfy(d -> {
            assertThat(d.field()).isEqualTo("reth.dmalen");
            assertThat(d.expected()).contains("512").contains("0x200");
            assertThat(d.actual()).contains("999").contains("0x3E7");
        });
    }

    @Test
    void theRetransmissionTimerMustExpireWithinItsWindow() {
        postWrite(1);
        assertThat(send(writePacket(0, 0, 1, 0), 0)).isNull(); // one PSN in flight: rto_low (100 us)
        assertThat(checker.timers(111_999, -1)).as("inside the window 100 us .. 112 us").isNull();
        final StepFailure late = checker.timers(112_001, -1);
        assertThat(late).isNotNull();
        assertThat(late.rule).isEqualTo("MR-RTX-007");
        assertThat(send(writePacket(0, 0, 1, 0), 100_000)).as("una at the expiry").isNull();
    }

    @Test
    void aLateTimeoutGivesTheNominalAndTheEffectiveBound() {
        // the same QP on a real-time adapter with a tolerance of 1 ms: the resend is due by 112 us, and the device is
        // given until 1112 us; the failure says both, as a responder window does ("8 us (1008 us with ...)")
        checker = new RequesterChecker(connection, model, new RequesterChecker.Parameters(PMTU, 8, 64, 3, 10_000,
            100_000, 300_000, 2, 7, 4, false, 1_000_000, 100_000, 10, 7), 0);
        postWrite(1);
        assertThat(send(writePacket(0, 0, 1, 0), 0)).isNull();
        assertThat(checker.timers(1_111_999, -1)).as("inside the window widened by the tolerance").isNull();
        final StepFailure late = checker.timers(1_112_001, -1);
        assertThat(late.rule).isEqualTo("MR-RTX-007");
        assertThat(late.getMessage()).contains("for 100 us (rto_low_ns").contains(
            "expired: due by 112 us (1112 us with the run's tolerance of 1 ms)");
        assertThat(late.diffs).singleElement().satisfies(d -> {
            assertThat(d.expected()).isEqualTo("by 112 us (1112 us with the run's tolerance of 1 ms)");
            assertThat(d.actual()).isEqualTo("none by 1112001 ns");
        });
    }

    @Test
    void onVirtualTimeATimingFailureGivesTheNominalBoundAlone() {
        postWrite(1);
        assertThat(send(writePacket(0, 0, 1, 0), 0)).isNull();
        final StepFailure late = checker.timers(112_001, -1);
        assertThat(late.getMessage()).endsWith("expired: due by 112 us").doesNotContain("tolerance");
        assertThat(late.diffs).singleElement().satisfies(d -> assertThat(d.expected()).isEqualTo("by 112 us"));
    }

    @Test
    void resendingUnaBeforeTheTimerBreaksRtx002() {
        postWrite(1);
        assertThat(send(writePacket(0, 0, 1, 0), 0)).isNull();
        final StepFailure failure = send(writePacket(0, 0, 1, 0), 50_000);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-002");
    }

    @Test
    void anRnrWaitSilencesTheRequesterAndItsEndAllowsTheResend() {
        postWrite(2);
        sendAll(2);
        checker.toDevice(rnrNak(0, 0x0E), 2_000, -1); // wait for Table D-2 code 14
        final long wait = org.metaroce.mrct.wire.RnrTimer.nanos(0x0E);
        final StepFailure during = send(writePacket(0, 0, 2, 0), 2_000 + wait / 2);
        assertThat(during).isNotNull();
        assertThat(during.rule).isEqualTo("MR-RTX-012");
    }

    @Test
    void theResendAtTheEndOfAnRnrWaitIsAllowed() {
        postWrite(2);
        sendAll(2);
        checker.toDevice(rnrNak(0, 0x0E), 2_000, -1);
        final long end = 2_000 + org.metaroce.mrct.wire.RnrTimer.nanos(0x0E);
        assertThat(send(writePacket(0, 0, 2, 0), end)).isNull();
        assertThat(send(writePacket(0, 1, 2, 0), end + 100)).isNull();
    }

    /**
     * Every PSN sent delivered, but the cumulative point (1) is before the WRITE's PSN 2: an acknowledgement is awaited
     * and the probe of section 13.4 is PSN 2 sent again with AckReq once rto_low_ns has passed. The fourth packet is
     * not sent yet.
     */
    private void awaitAnAcknowledgement() {
        postWrite(4);
        for (int k = 0; k < 3; k++) {
            assertThat(send(writePacket(0, k, 4, 0), k * 100L)).as("packet %d", k).isNull();
        }
        checker.toDevice(ack(0, 1, 2), 1_000, -1);
        checker.toDevice(ack(1, 2), 1_100, -1);
    }

    @Test
    void theAcknowledgementProbeWithAckReqIsTheOneAllowedResendOfADeliveredPsn() {
        awaitAnAcknowledgement();
        assertThat(send(writePacket(0, 2, 4, 0, true), 101_100)).isNull();
        assertThat(checker.transmissions(2)).isEqualTo(2);
    }

    /**
     * Section 13.4 sends the probe "with bth.ackreq 1": a resend of the awaited PSN without AckReq asks for nothing and
     * is a plain resend of a delivered PSN. The live checker took it for a probe before the probe moved into the oracle
     * (the analyzer did not): the analyzer was right.
     */
    @Test
    void aResendOfTheAwaitedPsnWithoutAckReqIsNoProbeAndBreaksRtx001() {
        awaitAnAcknowledgement();
        final StepFailure failure = send(writePacket(0, 2, 4, 0, false), 101_100);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-001");
    }

    @Test
    void aProbeBeforeRtoLowBreaksRtx020() {
        awaitAnAcknowledgement();
        final StepFailure failure = send(writePacket(0, 2, 4, 0, true), 50_000);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-020");
    }

    /** MR-RTX-006 through the oracle's comparison with the first transmission; the details name the WQE's bytes. */
    @Test
    void aRetransmissionWithOtherPayloadBreaksRtx006() {
        postWrite(6);
        sendAll(6);
        checker.toDevice(ack(0, 1, 2, 3), 2_000, -1);
        payload[5]++;
        final StepFailure failure = send(writePacket(0, 0, 6, 0), 2_100);
        payload[5]--;
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-006");
        assertThat(failure.diffs).singleElement().satisfies(d -> assertThat(d.field()).isEqualTo("payload"));
        assertThat(send(writePacket(0, 0, 6, 0), 2_200)).as("the same bytes again").isNull();
    }

    @Test
    void observationsKeepEveryRequestForTheRateAndTrafficExpectations() {
        postWrite(3);
        sendAll(3);
        final List<RequesterChecker.Sent> sent = checker.sent();
        assertThat(sent).hasSize(3);
        assertThat(sent.get(2).wireBytes()).isEqualTo(writePacket(0, 2, 3, 0).frameLength() + 4);
        assertThat(checker.firstTransmissions()).isEqualTo(3);
    }

    private static org.metaroce.mrct.spi.Completion success(final long wrId) {
        return new org.metaroce.mrct.spi.Completion(DEVICE_QPN, wrId, WorkOpcode.RDMA_WRITE,
            org.metaroce.mrct.spi.CompletionStatus.SUCCESS, 0, 0, false, 0, false, false, 0);
    }

    @Test
    void aWriteCompletedBeforeAnAckPastItsLastPsnBreaksCmp012() {
        postWrite(2);
        postWrite(1);
        sendAll(2);
        assertThat(send(writePacket(2, 0, 1, 1), 300)).isNull();
        checker.toDevice(ack(1), 1_000, -1); // covers PSN 0 only: WQE 1 (PSNs 0..1) is not acknowledged
        final StepFailure early = checker.completed(success(1));
        assertThat(early).isNotNull();
        assertThat(early.rule).isEqualTo("MR-CMP-012");
    }

    /**
     * A completion that came from a response Table 11-4 drops (its timestamp at or after the response) breaks
     * MR-ROB-009; the same completion stamped before that response came, as a device completing on sending would,
     * breaks MR-CMP-012.
     */
    @Test
    void aWriteCompletedAfterADroppedResponseThatWouldAckItBreaksRob009() {
        postWrite(2);
        sendAll(2);
        checker.toDevice(ack(5), 1_000, -1); // sacketh.base 5 after the next PSN 2: dropped silently (Table 11-4)
        final StepFailure taken = checker.completed(new org.metaroce.mrct.spi.Completion(DEVICE_QPN, 1,
            WorkOpcode.RDMA_WRITE, org.metaroce.mrct.spi.CompletionStatus.SUCCESS, 0, 0, false, 0, false, false,
            1_000));
        assertThat(taken).isNotNull();
        assertThat(taken.rule).isEqualTo("MR-ROB-009");
        assertThat(taken.getMessage()).contains("received at 1000 ns");
        setUp();
        postWrite(2);
        sendAll(2);
        checker.toDevice(ack(5), 1_000, -1);
        final StepFailure early = checker.completed(new org.metaroce.mrct.spi.Completion(DEVICE_QPN, 1,
            WorkOpcode.RDMA_WRITE, org.metaroce.mrct.spi.CompletionStatus.SUCCESS, 0, 0, false, 0, false, false,
            999));
        assertThat(early).isNotNull();
        assertThat(early.rule).as("completed before the dropped response came").isEqualTo("MR-CMP-012");
    }

    @Test
    void aWriteCompletedAfterTheAckPassesAndOtherStatusesAreNotJudged() {
        postWrite(2);
        postWrite(1);
        sendAll(2);
        assertThat(send(writePacket(2, 0, 1, 1), 300)).isNull();
        checker.toDevice(ack(2), 1_000, -1);
        assertThat(checker.completed(success(1))).isNull();
        assertThat(checker.completed(new org.metaroce.mrct.spi.Completion(DEVICE_QPN, 2, WorkOpcode.RDMA_WRITE,
            org.metaroce.mrct.spi.CompletionStatus.RNR_RETRY_EXCEEDED, 0, 0, false, 0, false, false, 0))).isNull();
    }

    @Test
    void aNakDuringTheWaitThatRestartsItBreaksRtx015() {
        postWrite(2);
        sendAll(2);
        checker.toDevice(rnrNak(0, 1), 1_000, -1); // a 10 us wait
        checker.toDevice(rnrNak(1, 1, 0), 6_000, -1); // during it: neither restarts nor counts
        final StepFailure overdue = checker.timers(15_000, -1);
        assertThat(overdue).isNotNull();
        assertThat(overdue.rule).isEqualTo("MR-RTX-015");
        final StepFailure late = send(writePacket(0, 0, 2, 0), 16_000);
        assertThat(late).isNotNull();
        assertThat(late.rule).isEqualTo("MR-RTX-015");
    }

    /** PSNs 0 to 2 in flight, an RNR NAK for 1 (a 10 us wait from 1 us), one for 0 during it: resume PSN 0. */
    private void threeInFlightResumeLoweredToZero() {
        postWrite(3);
        sendAll(3);
        checker.toDevice(rnrNak(1, 1, 0), 1_000, -1);
        checker.toDevice(rnrNak(0, 1, 0), 2_000, -1);
    }

    @Test
    void resendingFromAResumePsnThatWasNotLoweredBreaksRtx013() {
        threeInFlightResumeLoweredToZero();
        final StepFailure order = send(writePacket(0, 1, 3, 0), 11_000);
        assertThat(order).isNotNull();
        assertThat(order.rule).isEqualTo("MR-RTX-013");
    }

    @Test
    void resendingFromTheLoweredResumePsnInOrderPasses() {
        threeInFlightResumeLoweredToZero();
        assertThat(send(writePacket(0, 0, 3, 0), 11_000)).isNull();
        assertThat(send(writePacket(0, 1, 3, 0), 11_100)).isNull();
        assertThat(send(writePacket(0, 2, 3, 0), 11_200)).isNull();
    }

    @Test
    void aResendAfterTheRnrRetriesWereExhaustedBreaksRtx014() {
        checker = new RequesterChecker(connection, model, new RequesterChecker.Parameters(PMTU, 8, 64, 3, 10_000,
            100_000, 300_000, 2, 7, 4, false, 0, 100_000, 10, 1), 0);
        postWrite(1);
        sendAll(1);
        checker.toDevice(rnrNak(0, 1), 1_000, -1);
        assertThat(send(writePacket(0, 0, 1, 0), 11_000)).isNull(); // rnr_retry 1: the first wait is allowed
        checker.toDevice(rnrNak(0, 1), 12_000, -1); // the second, without progress, exhausts it
        assertThat(checker.timers(40_000, -1)).isNull(); // the QP is in ERROR: silence is right
        final StepFailure again = send(writePacket(0, 0, 1, 0), 22_000);
        assertThat(again).isNotNull();
        assertThat(again.rule).isEqualTo("MR-RTX-014");
    }
}

package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The requester checker on hand-made frames: retries beyond retry_cnt, the tver 0 (go-back-N) rules, and the udp.sport
 * balance of MR-MP-003. PSNs count from sq_psn 0; the device's QP is 0x100, the harness's 0x123.
 */
class RequesterCheckerLimitsTest {
    private static final int PMTU = 1024;
    private static final long RTO_LOW = 100_000;
    private static final long VA = 0x10000;
    private static final int RKEY = 0x1234;

    private static Connection connection(final int tver) {
        return new Connection("q", 1, 0x100, 0x123, 0, 0, Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), tver,
            0xFFFF, PMTU, 128);
    }

    private static RequesterChecker checker(final Connection c, final SendQueueModel model, final int retryCnt) {
        return new RequesterChecker(c, model, new RequesterChecker.Parameters(PMTU, 128, 64, 16, 25_000, RTO_LOW,
            320_000, 3, retryCnt, 16, c.tver == 0, 0, 100_000, 10, 7), 0);
    }

    private static SendQueueModel.Work work(final SendQueueModel model, final WorkOpcode op, final long length) {
        return model.post(new SendQueueModel.Work(model.works().size(), op, length, null, VA, RKEY, 0, 0, 0, false,
            model.works().size() + 1, true));
    }

    private static DecodedFrame decode(final byte[] bytes) {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    /** A frame the device sends to the harness. */
    private static FrameBuilder fromDevice(final Opcode opcode, final int tver, final int psn) {
        return FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"), opcode).tver(tver)
            .with("bth.dqpn", 0x123).with("bth.psn", psn);
    }

    /** A frame the harness sends to the device. */
    private static FrameBuilder toDevice(final Opcode opcode, final int tver, final int psn) {
        return FrameBuilder.of(Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), opcode).tver(tver)
            .with("bth.dqpn", 0x100).with("bth.psn", psn);
    }

    /** The TVer 1 RDMA WRITE ONLY of a one-packet write WQE with MSN msn at PSN psn. */
    private static DecodedFrame writeOnly(final int psn, final int msn, final int length) {
        return decode(fromDevice(Opcode.RDMA_WRITE_ONLY, 1, psn).payload(new byte[length]).with("bth.ackreq", 1)
            .with("pleth.msn", msn).with("pleth.first", 1).with("pleth.last", 1).with("reth.va", VA)
            .with("reth.rkey", RKEY).with("reth.dmalen", length).build());
    }

    /** A tver 0 READ REQUEST at psn whose RETH asks for length bytes from va. */
    private static DecodedFrame legacyRead(final int psn, final long va, final long length) {
        return decode(fromDevice(Opcode.RDMA_READ_REQUEST, 0, psn).with("bth.ackreq", 1).with("reth.va", va)
            .with("reth.rkey", RKEY).with("reth.dmalen", length).build());
    }

    private static DecodedFrame legacyResponse(final Opcode opcode, final int psn) {
        final FrameBuilder b = toDevice(opcode, 0, psn).payload(new byte[PMTU]);
        return decode(opcode == Opcode.RDMA_READ_RESPONSE_MIDDLE ? b.build()
            : b.with("aeth.syndrome", 0x1F).with("aeth.msn", 1).build());
    }

    @Test
    void unaSentAgainAfterRetryCntTimeoutsBreaksRtx010() {
        final Connection c = connection(1);
        final SendQueueModel model = new SendQueueModel(PMTU);
        final RequesterChecker checker = checker(c, model, 1);
        work(model, WorkOpcode.RDMA_WRITE, 64);
        assertThat(checker.device(writeOnly(0, 0, 64), 0, 0)).isNull();
        assertThat(checker.device(writeOnly(0, 0, 64), RTO_LOW, 1)).as("the one retry retry_cnt allows").isNull();
        final StepFailure failure = checker.device(writeOnly(0, 0, 64), 2 * RTO_LOW, 2);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-010");
    }

    @Test
    void progressGivesUnaItsRetriesBack() {
        final Connection c = connection(1);
        final SendQueueModel model = new SendQueueModel(PMTU);
        final RequesterChecker checker = checker(c, model, 1);
        work(model, WorkOpcode.RDMA_WRITE, 64);
        work(model, WorkOpcode.RDMA_WRITE, 64);
        assertThat(checker.device(writeOnly(0, 0, 64), 0, 0)).isNull();
        assertThat(checker.device(writeOnly(1, 1, 64), 10, 1)).isNull();
        assertThat(checker.device(writeOnly(0, 0, 64), RTO_LOW, 2)).isNull();
        checker.toDevice(decode(toDevice(Opcode.ACKNOWLEDGE, 1, 0).with("aeth.syndrome", 0x1F)
            .with("sacketh.base", 1).build()), RTO_LOW + 10, -1);
        assertThat(checker.device(writeOnly(1, 1, 64), 2 * RTO_LOW + 10, 3)).as("PSN 1 after progress").isNull();
    }

    @Test
    void aResponseForALaterRequestMayResetTheRetryCounterUnderCmp015() {
        final Connection c = connection(1);
        final SendQueueModel model = new SendQueueModel(PMTU);
        final RequesterChecker checker = checker(c, model, 1);
        work(model, WorkOpcode.RDMA_WRITE, 64);
        work(model, WorkOpcode.RDMA_READ, 64);
        assertThat(checker.device(writeOnly(0, 0, 64), 0, 0)).isNull();
        assertThat(checker.device(decode(fromDevice(Opcode.RDMA_READ_REQUEST, 1, 1).with("bth.ackreq", 1)
            .with("pleth.msn", 1).with("pleth.first", 1).with("pleth.last", 1).with("reth.va", VA)
            .with("reth.rkey", RKEY).with("reth.dmalen", 64).build()), 10, 1)).isNull();
        assertThat(checker.device(writeOnly(0, 0, 64), RTO_LOW, 2)).isNull();
        checker.toDevice(decode(toDevice(Opcode.RDMA_READ_RESPONSE_ONLY, 1, 1).payload(new byte[64])
            .with("pleth.msn", 1).with("pleth.first", 1).with("pleth.last", 1).with("aeth.syndrome", 0x1F)
            .with("aeth.msn", 2).build()), RTO_LOW + 10, -1);
        assertThat(checker.device(writeOnly(0, 0, 64), 2 * RTO_LOW, 3))
            .as("the read response may count as a cumulative acknowledgement of PSN 0 (MR-CMP-015)").isNull();
    }

    @Test
    void aLegacyReadRequestForTheRestOfTheReadMustAdvanceTheReth() {
        final Connection c = connection(0);
        final SendQueueModel model = new SendQueueModel(PMTU, true);
        final RequesterChecker checker = checker(c, model, 7);
        work(model, WorkOpcode.RDMA_READ, 4 * PMTU);
        assertThat(checker.device(legacyRead(0, VA, 4 * PMTU), 0, 0)).isNull();
        checker.toDevice(legacyResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 0), 1000, -1);
        checker.toDevice(legacyResponse(Opcode.RDMA_READ_RESPONSE_MIDDLE, 2), 1100, -1);
        final StepFailure unchanged = checker.device(legacyRead(1, VA, 4 * PMTU), 1200, 1);
        assertThat(unchanged).as("the original RETH at PSN 1").isNotNull();
        assertThat(unchanged.rule).isEqualTo("MR-LEG-010");
        assertThat(checker.device(legacyRead(1, VA + PMTU, 3 * PMTU), 1200, 2)).isNull();
        // the response at PSN 2 came after a gap, so it was not accepted: PSN 2 is still to be transmitted
        assertThat(checker.transmissions(2)).isEqualTo(2);
    }

    @Test
    void aLegacyRequesterAcceptsOnlyTheNextResponseWithTheOpcodeOfTheLatestRequest() {
        final Connection c = connection(0);
        final SendQueueModel model = new SendQueueModel(PMTU, true);
        final RequesterChecker checker = checker(c, model, 7);
        work(model, WorkOpcode.RDMA_READ, 4 * PMTU);
        work(model, WorkOpcode.RDMA_WRITE, 64);
        assertThat(checker.device(legacyRead(0, VA, 4 * PMTU), 0, 0)).isNull();
        checker.toDevice(legacyResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 0), 1000, -1);
        checker.toDevice(legacyResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 1), 1100, -1);
        assertThat(checker.device(legacyRead(1, VA + PMTU, 3 * PMTU), 1200, 1))
            .as("a FIRST at PSN 1 answers no request, so PSN 1 is not delivered").isNull();
        checker.toDevice(legacyResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 1), 2000, -1);
        checker.toDevice(legacyResponse(Opcode.RDMA_READ_RESPONSE_MIDDLE, 2), 2100, -1);
        checker.toDevice(legacyResponse(Opcode.RDMA_READ_RESPONSE_LAST, 3), 2200, -1);
        final StepFailure again = checker.device(legacyRead(1, VA + PMTU, 3 * PMTU), 2300, 2);
        assertThat(again).as("PSN 1 was delivered by the FIRST answering the request from PSN 1").isNotNull();
        assertThat(again.rule).isEqualTo("MR-RTX-001");
    }

    @Test
    void aLegacyNakNamingPsnPDeliversEveryPsnBeforeIt() {
        final Connection c = connection(0);
        final SendQueueModel model = new SendQueueModel(PMTU, true);
        final RequesterChecker checker = checker(c, model, 7);
        for (int k = 0; k < 4; k++) {
            work(model, WorkOpcode.RDMA_WRITE, 64);
            assertThat(checker.device(decode(fromDevice(Opcode.RDMA_WRITE_ONLY, 0, k).payload(new byte[64])
                .with("bth.ackreq", 1).with("reth.va", VA).with("reth.rkey", RKEY).with("reth.dmalen", 64).build()),
                k * 100L, k)).isNull();
        }
        checker.toDevice(decode(toDevice(Opcode.ACKNOWLEDGE, 0, 2).with("aeth.syndrome", 0x60).build()), 1000, -1);
        final DecodedFrame psn1 = decode(fromDevice(Opcode.RDMA_WRITE_ONLY, 0, 1).payload(new byte[64])
            .with("bth.ackreq", 1).with("reth.va", VA).with("reth.rkey", RKEY).with("reth.dmalen", 64).build());
        final StepFailure failure = checker.device(psn1, 1100, 4);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-001");
    }

    private static List<RequesterChecker.Sent> ports(final int... counts) {
        final List<RequesterChecker.Sent> out = new ArrayList<>();
        final int total = java.util.Arrays.stream(counts).sum();
        final int[] left = counts.clone();
        for (int i = 0; i < total; i++) {
            int port = i % counts.length;
            while (left[port] == 0) {
                port = (port + 1) % counts.length;
            }
            left[port]--;
            out.add(new RequesterChecker.Sent(i, i, Opcode.RDMA_WRITE_ONLY, 100, false, 0xC000 + port, i));
        }
        return out;
    }

    @Test
    void sportBalanceAllowsUpToTwiceAsOftenInEvery1024Packets() {
        assertThat(RequesterSteps.imbalance(ports(512, 512))).isNull();
        assertThat(RequesterSteps.imbalance(ports(682, 342))).as("682 is at most twice 342").isNull();
        assertThat(RequesterSteps.imbalance(ports(700, 324))).contains("0xc000").contains("700");
        assertThat(RequesterSteps.imbalance(ports(700, 300))).as("fewer than 1024 packets make no window").isNull();
    }

    @Test
    void sportBalanceAcceptsUniformRandomSprayingOverManyPorts() {
        // MR-MP-003 v1.1 (issue 9, review item 8): with 256 ports each expects 4 packets per 1024, so some get 0 and
        // some 10 by chance; v1.0's "at most twice as often" failed every such trial. Seeded, so deterministic.
        for (final int portCount : new int[] {16, 256, 1024, 16384}) {
            final java.util.Random random = new java.util.Random(portCount);
            final List<RequesterChecker.Sent> sent = new ArrayList<>();
            for (int i = 0; i < 4096; i++) {
                sent.add(new RequesterChecker.Sent(i, i, Opcode.RDMA_WRITE_ONLY, 100, false,
                    0xC000 + random.nextInt(portCount), i));
            }
            assertThat(RequesterSteps.imbalance(sent)).as("uniform over %d ports", portCount).isNull();
        }
        // a biased sprayer still fails: one port of 64 carries a quarter of the packets
        final List<RequesterChecker.Sent> biased = new ArrayList<>();
        for (int i = 0; i < 2048; i++) {
            biased.add(new RequesterChecker.Sent(i, i, Opcode.RDMA_WRITE_ONLY, 100, false,
                0xC000 + (i % 4 == 0 ? 0 : 1 + i % 63), i));
        }
        assertThat(RequesterSteps.imbalance(biased)).isNotNull();
    }

    @Test
    void sportBalanceLooksAtEveryWindowNotOnlyTheWhole() {
        final List<RequesterChecker.Sent> sent = ports(1024, 1024);
        // 2048 packets alternating between two ports, then 1024 on the first alone: the last window uses one port
        // (balanced with itself), but the windows that straddle the change are not
        final List<RequesterChecker.Sent> longer = new ArrayList<>(sent);
        for (int i = 0; i < 1024; i++) {
            longer.add(new RequesterChecker.Sent(2048 + i, 2048 + i, Opcode.RDMA_WRITE_ONLY, 100, false, 0xC000,
                2048 + i));
        }
        assertThat(RequesterSteps.imbalance(sent)).isNull();
        assertThat(RequesterSteps.imbalance(longer)).isNotNull();
    }

    /** The tver 0 RDMA WRITE ONLY of a one-packet write of 64 bytes at PSN psn. */
    private static DecodedFrame legacyWrite(final int psn) {
        return decode(fromDevice(Opcode.RDMA_WRITE_ONLY, 0, psn).payload(new byte[64]).with("bth.ackreq", 1)
            .with("reth.va", VA).with("reth.rkey", RKEY).with("reth.dmalen", 64).build());
    }

    /** A tver 0 requester that sent PSNs 0 to 3 (four one-packet WRITEs, a fifth posted) and took NAK 0x60 for PSN 1. */
    private static RequesterChecker nakedAfterFour() {
        final SendQueueModel model = new SendQueueModel(PMTU, true);
        final RequesterChecker checker = checker(connection(0), model, 7);
        for (int i = 0; i < 5; i++) {
            work(model, WorkOpcode.RDMA_WRITE, 64);
        }
        for (int psn = 0; psn < 4; psn++) {
            assertThat(checker.device(legacyWrite(psn), psn * 10L, psn)).isNull();
        }
        checker.toDevice(decode(toDevice(Opcode.ACKNOWLEDGE, 0, 1).with("aeth.syndrome", 0x60).with("aeth.msn", 1)
            .build()), 1_000, 9);
        return checker;
    }

    @Test
    void aRequestStampedBeforeTheNakIsJudgedBeforeItWhateverTheOrderItCameIn() {
        // on a real-time adapter the harness may send the NAK late, after the device sent PSN 4 but before the engine
        // took PSN 4 from the adapter's queue: the checker judges PSN 4 first, so the NAK asks for 1 to 4 again
        final RequesterChecker checker = nakedAfterFour();
        assertThat(checker.device(legacyWrite(4), 500, 4)).as("PSN 4, stamped before the NAK left").isNull();
        for (int psn = 1; psn <= 4; psn++) {
            assertThat(checker.device(legacyWrite(psn), 1_100 + psn, 4 + psn)).as("resend of PSN " + psn).isNull();
        }
    }

    @Test
    void aTver0RequesterGoingBackFromTheNaksPsnInOrderPasses() {
        final RequesterChecker checker = nakedAfterFour();
        assertThat(checker.device(legacyWrite(1), 1_100, 4)).isNull();
        assertThat(checker.device(legacyWrite(2), 1_110, 5)).isNull();
        assertThat(checker.device(legacyWrite(3), 1_120, 6)).isNull();
        assertThat(checker.device(legacyWrite(4), 1_130, 7)).isNull();
    }

    @Test
    void aTver0RequesterSendingANewPsnBeforeGoingBackBreaksLeg008() {
        final StepFailure failure = nakedAfterFour().device(legacyWrite(4), 1_100, 4);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-LEG-008");
        assertThat(failure.getMessage()).contains("PSN 4 is sent before PSN 1 was sent again")
            .contains("the NAK 0x60 for PSN 1 (frame #9)");
        final StepFailure skipped = nakedAfterFour().device(legacyWrite(2), 1_100, 4);
        assertThat(skipped).isNotNull();
        assertThat(skipped.rule).isEqualTo("MR-LEG-008");
    }

    @Test
    void anAckSentAfterATimeoutsResendIsTakenAfterItWhateverTheOrderItCameIn() {
        // PSNs 0 and 1 sent; the timer expires and the device resends from una (at RTO_LOW, stamped then); the
        // harness's ACK of PSN 0, due earlier, leaves late at RTO_LOW + 5 and reaches the checker first. Taken in
        // that order it would move una to 1 and restart the timer after the resend: the resend of PSN 0 would look
        // like a timeout's 5 ns before its timer started (a false MR-LEG-009)
        final RequesterChecker checker = sentTwo();
        checker.toDevice(decode(toDevice(Opcode.ACKNOWLEDGE, 0, 0).with("aeth.syndrome", 0x1F).build()), RTO_LOW + 5,
            2);
        assertThat(checker.device(legacyWrite(0), RTO_LOW, 3)).as("the timeout's resend of una").isNull();
        assertThat(checker.device(legacyWrite(1), RTO_LOW + 10, 4)).as("the rest of its round").isNull();
    }

    /** A tver 0 requester that sent PSNs 0 and 1 (two one-packet WRITEs) at 0 and 10 ns. */
    private static RequesterChecker sentTwo() {
        final SendQueueModel model = new SendQueueModel(PMTU, true);
        final RequesterChecker checker = checker(connection(0), model, 7);
        work(model, WorkOpcode.RDMA_WRITE, 64);
        work(model, WorkOpcode.RDMA_WRITE, 64);
        assertThat(checker.device(legacyWrite(0), 0, 0)).isNull();
        assertThat(checker.device(legacyWrite(1), 10, 1)).isNull();
        return checker;
    }

    @Test
    void aTver0TimeoutFromUnaAfterRtoLowPassesAndOneTooEarlyOrNotFromUnaBreaksLeg009() {
        final java.util.function.Supplier<RequesterChecker> sentTwo = RequesterCheckerLimitsTest::sentTwo;
        final RequesterChecker timeout = sentTwo.get();
        assertThat(timeout.device(legacyWrite(0), RTO_LOW, 2)).isNull();
        assertThat(timeout.device(legacyWrite(1), RTO_LOW + 10, 3)).isNull();
        final StepFailure early = sentTwo.get().device(legacyWrite(0), RTO_LOW / 2, 2);
        assertThat(early).isNotNull();
        assertThat(early.rule).isEqualTo("MR-LEG-009");
        final StepFailure notUna = sentTwo.get().device(legacyWrite(1), RTO_LOW, 2);
        assertThat(notUna).isNotNull();
        assertThat(notUna.rule).isEqualTo("MR-LEG-009");
        assertThat(notUna.getMessage()).contains("not una");
    }
}

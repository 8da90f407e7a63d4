package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The requester checker learns only from responses a conforming requester takes: those that Table 11-4 drops silently
 * (MR-ROB-009) deliver nothing, so that a device which rightly ignores them is not blamed for resending.
 */
class RequesterCheckerResponsesTest {
    private static final int PMTU = 1024;
    private static final int SQ_PSN = 0xFFFFFE;
    private static final Encapsulation TO_DEVICE = Encapsulation.ipv4("192.0.2.2", "192.0.2.1");
    private static final Encapsulation FROM_DEVICE = Encapsulation.ipv4("192.0.2.1", "192.0.2.2");

    private final Connection connection = new Connection("q", 1, 0x100, 0x200, 0, SQ_PSN, TO_DEVICE, 1, 0xFFFF,
        PMTU, 128);
    private final SendQueueModel model = new SendQueueModel(PMTU);
    private final RequesterChecker checker = new RequesterChecker(connection, model, new RequesterChecker.Parameters(
        PMTU, 128, 64, 16, 25_000, 100_000, 320_000, 3, 7, 16, false, 100, 100_000, 10, 7), 0);

    private static DecodedFrame decode(final byte[] bytes) {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    private static int psn(final int relative) {
        return Psn.add(SQ_PSN, relative);
    }

    /** Posts a one-packet WRITE (PSN 0) and a READ of 2 PMTU (PSNs 1-2), and lets the device send both. */
    private void sendWriteAndRead() {
        model.post(new SendQueueModel.Work(0, WorkOpcode.RDMA_WRITE, 8, new byte[8], 0x1000, 0x11, 0, 0, 0, false, 1,
            true));
        model.post(new SendQueueModel.Work(1, WorkOpcode.RDMA_READ, 2 * PMTU, null, 0x2000, 0x12, 0, 0, 0, false, 2,
            true));
        final byte[] write = FrameBuilder.of(FROM_DEVICE, Opcode.RDMA_WRITE_ONLY).payload(new byte[8])
            .with("bth.psn", psn(0)).with("bth.ackreq", 1).with("pleth.msn", 0).with("reth.va", 0x1000)
            .with("reth.rkey", 0x11).with("reth.dmalen", 8).build();
        final byte[] read = FrameBuilder.of(FROM_DEVICE, Opcode.RDMA_READ_REQUEST).with("bth.psn", psn(1))
            .with("bth.ackreq", 1).with("pleth.msn", 1).with("reth.va", 0x2000).with("reth.rkey", 0x12)
            .with("reth.dmalen", 2 * PMTU).build();
        assertThat(checker.device(decode(write), 1_000, 1)).isNull();
        assertThat(checker.device(decode(read), 2_000, 2)).isNull();
    }

    private byte[] ack(final int bthPsn, final int base, final int syndrome) {
        return FrameBuilder.of(TO_DEVICE, Opcode.ACKNOWLEDGE).with("bth.psn", psn(bthPsn))
            .with("aeth.syndrome", syndrome).with("sacketh.base", psn(base)).build();
    }

    private byte[] readResponse(final Opcode opcode, final int relative, final int msn, final long offset,
                                final int length) {
        return FrameBuilder.of(TO_DEVICE, opcode).payload(new byte[length]).with("bth.psn", psn(relative))
            .with("pleth.msn", msn).with("pleth.offset", offset).build();
    }

    @Test
    void acknowledgementsThatTable11_4DropsDeliverNothing() {
        sendWriteAndRead();
        checker.toDevice(decode(ack(3, 4, 0x1F)), 3_000, -1);          // base after the next PSN (3)
        checker.toDevice(decode(ack(1, 1, 0x1F)), 3_100, -1);          // bth.psn + 1 differs from sacketh.base
        checker.toDevice(decode(ack(0, 1, 0x40)), 3_200, -1);          // reserved syndromes
        checker.toDevice(decode(ack(0, 1, 0x9F)), 3_300, -1);
        checker.toDevice(decode(ack(0, 1, 0x60)), 3_400, -1);          // NAK 0x60 on a TVer 1 QP
        checker.toDevice(decode(ack(0, 1, 0x64)), 3_500, -1);
        checker.toDevice(decode(ack(5, 1, 0x62)), 3_600, -1);          // NAK for a PSN never sent
        assertThat(checker.transmissions(0)).isEqualTo(1);
        // the timer (rto_low_ns: 3 PSNs in flight) expires: resending una, the WRITE, is no MR-RTX-001 violation
        final byte[] again = FrameBuilder.of(FROM_DEVICE, Opcode.RDMA_WRITE_ONLY).payload(new byte[8])
            .with("bth.psn", psn(0)).with("bth.ackreq", 1).with("pleth.msn", 0).with("reth.va", 0x1000)
            .with("reth.rkey", 0x11).with("reth.dmalen", 8).build();
        assertThat(checker.device(decode(again), 1_000 + 100_000, 3)).isNull();
        assertThat(checker.transmissions(0)).isEqualTo(2);
    }

    @Test
    void aProperAckDeliversTheWrite() {
        sendWriteAndRead();
        checker.toDevice(decode(ack(0, 1, 0x1F)), 3_000, -1);
        final byte[] again = FrameBuilder.of(FROM_DEVICE, Opcode.RDMA_WRITE_ONLY).payload(new byte[8])
            .with("bth.psn", psn(0)).with("bth.ackreq", 1).with("pleth.msn", 0).with("reth.va", 0x1000)
            .with("reth.rkey", 0x11).with("reth.dmalen", 8).build();
        final StepFailure failure = checker.device(decode(again), 50_000, 3);
        assertThat(failure).isNotNull();
        assertThat(failure.rule).isEqualTo("MR-RTX-001");
    }

    @Test
    void readResponsesThatDoNotFitTable8_1DeliverNothing() {
        sendWriteAndRead();
        checker.toDevice(decode(ack(0, 1, 0x1F)), 2_500, -1);
        checker.toDevice(decode(readResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 1, 0, 0, PMTU)), 3_000, -1);    // MSN
        checker.toDevice(decode(readResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 1, 1, PMTU, PMTU)), 3_100, -1); // offset
        checker.toDevice(decode(readResponse(Opcode.RDMA_READ_RESPONSE_ONLY, 1, 1, 0, PMTU)), 3_200, -1);     // opcode
        checker.toDevice(decode(readResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 1, 1, 0, PMTU - 4)), 3_300, -1); // length
        // PSN 1 is still una: resending the original READ when the timer (rto_low_ns) expires is allowed
        final byte[] again = FrameBuilder.of(FROM_DEVICE, Opcode.RDMA_READ_REQUEST).with("bth.psn", psn(1))
            .with("bth.ackreq", 1).with("pleth.msn", 1).with("reth.va", 0x2000).with("reth.rkey", 0x12)
            .with("reth.dmalen", 2 * PMTU).build();
        assertThat(checker.device(decode(again), 2_500 + 100_000, 3)).isNull();
        checker.toDevice(decode(readResponse(Opcode.RDMA_READ_RESPONSE_FIRST, 1, 1, 0, PMTU)), 400_000, -1);
        final StepFailure failure = checker.device(decode(again), 410_000, 4);
        assertThat(failure).isNotNull();
        // the fitting response delivered PSN 1: a READ REQUEST from it re-asks a delivered PSN, and the recovery of
        // PSN 2 after that evidence names PSN 2 (MR-RTX-016, which governs READ re-requests before MR-RTX-001)
        assertThat(failure.rule).isEqualTo("MR-RTX-016");
    }
}

package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The live engine's use of the oracle: the sender's MAC and the peer's, the QP's configured attributes, and the
 * QP's stream state (source ports) kept across frames and forgotten on a modification.
 */
class LiveOracleTest {
    private static final long DEVICE_MAC = 0x02_00_00_00_00_0DL;
    private static final long HARNESS_MAC = 0x02_00_00_00_00_0AL;
    private static final int PEER_QPN = 0x123;

    private static Connection connection() {
        return new Connection("q", 1, 0x100, PEER_QPN, 0, 0, Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1,
            0xFFFF, 1024, 128);
    }

    /** A READ RESPONSE MIDDLE from the device to the harness with this source MAC and port. */
    private static DecodedFrame response(final long sourceMac, final int port) {
        final Encapsulation e = Encapsulation.ipv4("198.51.100.2", "198.51.100.1").withMacs(sourceMac, HARNESS_MAC)
            .withUdpSourcePort(port);
        final byte[] bytes = FrameBuilder.of(e, Opcode.RDMA_READ_RESPONSE_MIDDLE).payload(new byte[16])
            .with("bth.dqpn", PEER_QPN).build();
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    /** The first finding, as the engine fails a case on it; null when there is none. */
    private static Finding check(final DecodedFrame frame, final Connection c) {
        final List<Finding> findings = LiveOracle.judge(frame, 7, c, DEVICE_MAC, HARNESS_MAC);
        return findings.isEmpty() ? null : findings.get(0);
    }

    /** A TVer 0 ACKNOWLEDGE from the device with this syndrome and bth.psn. */
    private static DecodedFrame legacyAck(final int syndrome, final int psn) {
        final Encapsulation e = Encapsulation.ipv4("198.51.100.2", "198.51.100.1").withMacs(DEVICE_MAC, HARNESS_MAC);
        final byte[] bytes = FrameBuilder.of(e, Opcode.ACKNOWLEDGE).tver(0).with("bth.dqpn", PEER_QPN)
            .with("bth.psn", psn).with("aeth.syndrome", syndrome).build();
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    /** A TVer 0 request from the harness to the device with this opcode and bth.psn; a wrong ICRC if asked. */
    private static DecodedFrame legacyRequest(final Opcode opcode, final int psn, final long dmaLength,
                                              final boolean badIcrc) {
        final Encapsulation e = Encapsulation.ipv4("198.51.100.1", "198.51.100.2").withMacs(HARNESS_MAC, DEVICE_MAC);
        FrameBuilder b = FrameBuilder.of(e, opcode).tver(0).with("bth.dqpn", 0x100).with("bth.psn", psn);
        if (opcode == Opcode.RDMA_READ_REQUEST) {
            b = b.with("reth.dmalen", dmaLength);
        } else {
            b = b.payload(new byte[16]);
        }
        final byte[] bytes = b.build();
        if (badIcrc) {
            bytes[bytes.length - 1] ^= 1;
        }
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    private static Connection legacyConnection() {
        return new Connection("q", 1, 0x100, PEER_QPN, 0, 0, Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 0,
            0xFFFF, 1024, 128);
    }

    /** The harness sent SEND ONLY requests at PSNs {@code [0, n)}. */
    private static void sent(final Connection c, final int n) {
        for (int psn = 0; psn < n; psn++) {
            c.sent().onToDevice(legacyRequest(Opcode.SEND_ONLY, psn, 0, false), c.pmtu);
        }
    }

    @Test
    void aTver0DeviceAcknowledgingAPsnNeverSentBreaksLeg002() {
        final Connection c = legacyConnection();
        sent(c, 3);
        c.sent().onToDevice(legacyRequest(Opcode.SEND_ONLY, 5, 0, false), c.pmtu);
        assertThat(check(legacyAck(0x00, 2), c)).as("0..2 sent and acknowledged").isNull();
        final Finding f = check(legacyAck(0x00, 5), c);
        assertThat(f).as("3 and 4 never sent, 5 taken past the hole").isNotNull();
        assertThat(f.rule()).isEqualTo("MR-LEG-002");
        assertThat(f.field()).isEqualTo("bth.psn");
        assertThat(f.actual()).isEqualTo("covers 3");
        assertThat(f.frame()).isEqualTo(7);
        assertThat(f.basis().certain()).as("the harness knows what it sent").isTrue();
    }

    @Test
    void anAckBeyondEveryRequestSentIsAWrongPsnLeftToTheCasesExpectations() {
        final Connection c = legacyConnection();
        sent(c, 3);
        assertThat(check(legacyAck(0x00, 3), c)).as("ePSN instead of ePSN - 1: no packet taken after a hole")
            .isNull();
    }

    @Test
    void aReadsSpanAndAResetAreNotFindingsButABadIcrcOnlyRequestIsNoSend() {
        final Connection c = legacyConnection();
        sent(c, 2);
        c.sent().onToDevice(legacyRequest(Opcode.RDMA_READ_REQUEST, 2, 3000, false), c.pmtu);  // 2..4
        c.sent().onToDevice(legacyRequest(Opcode.SEND_ONLY, 5, 0, false), c.pmtu);
        assertThat(check(legacyAck(0x00, 5), c)).as("the read's span 2..4 and 5").isNull();
        assertThat(c.sent().of(6)).isEqualTo(org.metaroce.mrct.oracle.SentPsns.Sent.NEVER_SENT);
        c.sent().onToDevice(legacyRequest(Opcode.SEND_ONLY, 6, 0, true), c.pmtu);
        assertThat(c.sent().of(6)).isEqualTo(org.metaroce.mrct.oracle.SentPsns.Sent.BAD_ICRC_ONLY);
        c.sent().onToDevice(legacyRequest(Opcode.SEND_ONLY, 6, 0, false), c.pmtu);
        assertThat(check(legacyAck(0x00, 6), c)).as("6 sent again with a right ICRC").isNull();
        c.restart();
        assertThat(c.sent().of(0)).as("a reset forgets what was sent")
            .isEqualTo(org.metaroce.mrct.oracle.SentPsns.Sent.NEVER_SENT);
        assertThat(check(legacyAck(0x00, 0xFFFFFF), c)).as("ePSN 0 - 1 after the reset covers nothing").isNull();
    }

    @Test
    void aTver0DeviceRepeatingItsNak60WithNothingAcceptedBreaksLeg003() {
        final Connection c = legacyConnection();
        sent(c, 8);
        assertThat(check(legacyAck(0x60, 5), c)).as("the first NAK 0x60 for the hole at 5").isNull();
        final Finding again = check(legacyAck(0x60, 5), c);
        assertThat(again).isNotNull();
        assertThat(again.rule()).isEqualTo("MR-LEG-003");
        assertThat(again.field()).isEqualTo("aeth.syndrome");
        assertThat(check(legacyAck(0x00, 5), c)).as("5 accepted").isNull();
        assertThat(check(legacyAck(0x60, 6), c)).as("the next hole's NAK").isNull();
        c.restart();
        sent(c, 8);
        assertThat(check(legacyAck(0x60, 6), c)).as("after a reset").isNull();
    }

    @Test
    void aFrameFromAnotherMacBreaksWire001() {
        final Finding v = check(response(0x02_00_00_00_00_99L, 0xC001), connection());
        assertThat(v).isNotNull();
        assertThat(v.rule()).isEqualTo("MR-WIRE-001");
        assertThat(v.field()).isEqualTo("eth.src");
    }

    @Test
    void withoutSprayEveryDataPacketKeepsTheFirstPort() {
        final Connection c = connection();
        assertThat(check(response(DEVICE_MAC, 0xC001), c)).isNull();
        assertThat(check(response(DEVICE_MAC, 0xC001), c)).isNull();
        final Finding v = check(response(DEVICE_MAC, 0xC002), c);
        assertThat(v).isNotNull();
        assertThat(v.rule()).isEqualTo("MR-MP-001");
        c.stream().forgetSourcePorts();
        assertThat(check(response(DEVICE_MAC, 0xC002), c)).as("a new port after a modification").isNull();
    }

    @Test
    void withoutSprayTheUdpSportAttributeIsThePort() {
        final Connection c = connection();
        c.createdWith(QpAttributes.empty().with(QpAttribute.UDP_SPORT, 0xD00D));
        assertThat(check(response(DEVICE_MAC, 0xD00D), c)).isNull();
        assertThat(check(response(DEVICE_MAC, 0xD00E), c).rule()).isEqualTo("MR-MP-001");
    }

    @Test
    void withSprayAnySixteenDataPacketsUseTwoPorts() {
        final Connection c = connection();
        c.createdWith(QpAttributes.empty().with(QpAttribute.SPRAY, true));
        for (int i = 0; i < 15; i++) {
            assertThat(check(response(DEVICE_MAC, 0xC000 + i % 2), c)).isNull();
        }
        for (int i = 0; i < 15; i++) {
            assertThat(check(response(DEVICE_MAC, 0xC100), c)).as("packet %d of a run of one port", i).isNull();
        }
        final Finding v = check(response(DEVICE_MAC, 0xC100), c);
        assertThat(v).as("the 16th packet in a row on one port").isNotNull();
        assertThat(v.rule()).isEqualTo("MR-MP-004");
    }

    @Test
    void aFrameToAnotherMacBreaksMp007() {
        final Encapsulation e = Encapsulation.ipv4("198.51.100.2", "198.51.100.1")
            .withMacs(DEVICE_MAC, 0x02_00_00_00_00_77L).withUdpSourcePort(0xC001);
        final byte[] bytes = FrameBuilder.of(e, Opcode.RDMA_READ_RESPONSE_MIDDLE).payload(new byte[16])
            .with("bth.dqpn", PEER_QPN).build();
        final Finding v = check(new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy(),
            connection());
        assertThat(v).isNotNull();
        assertThat(v.rule()).isEqualTo("MR-MP-007");
        assertThat(v.frame()).isEqualTo(7);
    }

    @Test
    void thePkeyIsTheConnectionsAttribute() {
        final Connection c = new Connection("q", 1, 0x100, PEER_QPN, 0, 0,
            Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1, 0x8001, 1024, 128);
        final Finding v = check(response(DEVICE_MAC, 0xC001), c);
        assertThat(v).isNotNull();
        assertThat(v.rule()).isEqualTo("MR-WIRE-013");
        assertThat(v.field()).isEqualTo("bth.pkey");
        assertThat(v.basis().certain()).isTrue();
    }

    @Test
    void aResetForgetsTheSourcePorts() {
        final Connection c = connection();
        assertThat(check(response(DEVICE_MAC, 0xC001), c)).isNull();
        c.restart();
        assertThat(check(response(DEVICE_MAC, 0xC005), c)).as("a new incarnation chooses anew").isNull();
    }
}

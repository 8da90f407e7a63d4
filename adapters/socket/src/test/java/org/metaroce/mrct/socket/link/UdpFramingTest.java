package org.metaroce.mrct.socket.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/** Frames to UDP payloads and back: the ICRC follows the datagram's real headers, and what was wrong stays wrong. */
class UdpFramingTest {
    private static final InetSocketAddress HARNESS = new InetSocketAddress("127.0.0.1", 40_000);
    private static final InetSocketAddress DEVICE = new InetSocketAddress("127.0.0.2", 49_200);
    private static final Encapsulation TO_DEVICE = Encapsulation.ipv4("127.0.0.1", "127.0.0.2")
        .withMacs(0x02_00_00_00_00_0AL, 0x02_00_00_00_00_0DL).withUdpSourcePort(0xC123);

    private static DecodedFrame decode(final byte[] frame) {
        return new FrameDecoder().decode(ByteBuffer.wrap(frame), 0, frame.length).copy();
    }

    private static byte[] write(final int psn) {
        final byte[] payload = new byte[300];
        Arrays.fill(payload, (byte) psn);
        return FrameBuilder.of(TO_DEVICE, Opcode.RDMA_WRITE_ONLY).payload(payload).psn(psn).destQp(0x101).build();
    }

    @Test
    void aValidFrameArrivesAsAValidFrameWithTheDatagramsPorts() {
        final byte[] frame = write(77);
        final byte[] payload = UdpFraming.payload(frame, HARNESS, DEVICE);
        assertThat(payload.length).isEqualTo(frame.length - 42);
        final byte[] received = UdpFraming.frame(payload, payload.length, HARNESS, DEVICE, 0x02_00_00_00_00_0AL,
            0x02_00_00_00_00_0DL);
        final DecodedFrame f = decode(received);
        assertThat(f.isRoce()).isTrue();
        assertThat(f.icrcValid()).isTrue();
        assertThat(f.udp().sourcePort()).isEqualTo(40_000);
        assertThat(f.udp().destinationPort()).isEqualTo(4791);
        assertThat(f.bth().psn()).isEqualTo(77);
        assertThat(f.ecn()).as("data packets get the ECT(0) that MR-CC-001 asks for").isEqualTo(2);
        assertThat(f.ipv4().ttl()).isEqualTo(64);
        assertThat(f.ipChecksumValid()).isTrue();
        assertThat(Arrays.copyOfRange(received, 42, received.length - 4))
            .isEqualTo(Arrays.copyOfRange(frame, 42, frame.length - 4));
    }

    @Test
    void aBadIcrcStaysExactlyAsBad() {
        final byte[] frame = FrameBuilder.of(TO_DEVICE, Opcode.SEND_ONLY).payload(new byte[64]).correctIcrc(false)
            .with("icrc", 0x12345678L).build();
        final DecodedFrame crafted = decode(frame);
        assertThat(crafted.icrcValid()).isFalse();
        final int delta = crafted.icrcOnWire() ^ crafted.computeIcrc();
        final byte[] payload = UdpFraming.payload(frame, HARNESS, DEVICE);
        final DecodedFrame arrived = decode(UdpFraming.frame(payload, payload.length, HARNESS, DEVICE, 1, 2));
        assertThat(arrived.icrcValid()).isFalse();
        assertThat(arrived.icrcOnWire() ^ arrived.computeIcrc()).isEqualTo(delta);
    }

    @Test
    void acknowledgementsGetNotEct() {
        final Encapsulation back = Encapsulation.ipv4("127.0.0.2", "127.0.0.1");
        final byte[] ack = FrameBuilder.of(back, Opcode.ACKNOWLEDGE).build();
        final byte[] payload = UdpFraming.payload(ack, DEVICE, HARNESS);
        final DecodedFrame f = decode(UdpFraming.frame(payload, payload.length, DEVICE, HARNESS, 1, 2));
        assertThat(f.ecn()).isZero();
        assertThat(f.icrcValid()).isTrue();
        assertThat(f.udp().sourcePort()).isEqualTo(49_200);
    }

    @Test
    void truncatedTransportPacketsTravelAsTheyAre() {
        final byte[] frame = new byte[42 + 10];
        TO_DEVICE.write(ByteBuffer.wrap(frame), 0, 10, 2);
        Arrays.fill(frame, 42, frame.length, (byte) 0x5A);
        final byte[] payload = UdpFraming.payload(frame, HARNESS, DEVICE);
        assertThat(payload).isEqualTo(Arrays.copyOfRange(frame, 42, frame.length));
        final byte[] truncated = FrameBuilder.of(TO_DEVICE, Opcode.SEND_ONLY).truncateTo(42 + 10).build();
        assertThatThrownBy(() -> UdpFraming.payload(truncated, HARNESS, DEVICE))
            .as("a frame cut below its own IP length cannot be a datagram").hasMessageContaining("lengths disagree");
    }

    @Test
    void whatADatagramCannotCarryIsRefusedWithTheReason() {
        assertThatThrownBy(() -> UdpFraming.payload(FrameBuilder.of(TO_DEVICE.withVlan(7, 0), Opcode.SEND_ONLY)
            .build(), HARNESS, DEVICE)).isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("VLAN tag");
        assertThatThrownBy(() -> UdpFraming.payload(FrameBuilder.of(Encapsulation.ipv6("2001:db8::1", "2001:db8::2"),
            Opcode.SEND_ONLY).build(), HARNESS, DEVICE)).hasMessageContaining("not IPv4");
        assertThatThrownBy(() -> UdpFraming.payload(FrameBuilder.of(TO_DEVICE, Opcode.SEND_ONLY).ecn(3).build(),
            HARNESS, DEVICE)).hasMessageContaining("CE");
        assertThatThrownBy(() -> UdpFraming.payload(FrameBuilder.of(Encapsulation.ipv4("10.9.9.9", "127.0.0.2"),
            Opcode.SEND_ONLY).build(), HARNESS, DEVICE)).hasMessageContaining("IP addresses");
        assertThatThrownBy(() -> UdpFraming.payload(FrameBuilder.of(TO_DEVICE, Opcode.SEND_ONLY)
            .with("udp.length", 9).build(), HARNESS, DEVICE)).hasMessageContaining("lengths disagree");
        assertThatThrownBy(() -> UdpFraming.payload(FrameBuilder.of(TO_DEVICE, Opcode.SEND_ONLY)
            .validUdpChecksum(true).build(), HARNESS, DEVICE)).hasMessageContaining("UDP checksum");
        assertThatThrownBy(() -> UdpFraming.payload(FrameBuilder.of(TO_DEVICE, Opcode.SEND_ONLY)
            .with("ip.checksum", 0xBEEF).correctIpChecksum(false).build(), HARNESS, DEVICE))
            .hasMessageContaining("valid checksum");
    }
}

package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/** CE marking by the network keeps the frame valid: IPv4 header checksum recomputed, ICRC untouched (it masks ECN). */
class NetworkTest {
    private static DecodedFrame decode(final byte[] bytes) {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    @Test
    void markingCeOnIpv4KeepsTheChecksumAndIcrcValid() {
        final byte[] bytes = FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"),
            Opcode.RDMA_WRITE_ONLY).payload(new byte[64]).ecn(2).build();
        final DecodedFrame before = decode(bytes);
        final DecodedFrame after = decode(Network.markCe(bytes, before));
        assertThat(after.ecn()).isEqualTo(3);
        assertThat(after.dscp()).isEqualTo(before.dscp());
        assertThat(after.ipChecksumValid()).isTrue();
        assertThat(after.icrcValid()).isTrue();
        assertThat(decode(bytes).ecn()).as("the original is left alone").isEqualTo(2);
    }

    @Test
    void markingCeOnIpv6KeepsTheFlowLabelAndIcrc() {
        final byte[] bytes = FrameBuilder.of(Encapsulation.ipv6("2001:db8::2", "2001:db8::1"), Opcode.SEND_ONLY)
            .payload(new byte[8]).ecn(1).build();
        final DecodedFrame before = decode(bytes);
        final DecodedFrame after = decode(Network.markCe(bytes, before));
        assertThat(after.ecn()).isEqualTo(3);
        assertThat(after.ipv6().flowLabel()).isEqualTo(before.ipv6().flowLabel());
        assertThat(after.icrcValid()).isTrue();
    }
}

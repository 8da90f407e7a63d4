package org.metaroce.mrct.socket.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/** Which of its own frames the harness can expect its capture to see: those its BPF filter lets through. */
class PcapFilterTest {
    private static final Encapsulation V4 = Encapsulation.ipv4("198.51.100.1", "198.51.100.2");

    @Test
    void roceFramesPassTaggedOrNotOverEitherIpVersion() {
        assertThat(PcapLink.passesRoceFilter(FrameBuilder.of(V4, Opcode.SEND_ONLY).build())).isTrue();
        assertThat(PcapLink.passesRoceFilter(FrameBuilder.of(V4.withVlan(7, 3), Opcode.SEND_ONLY).build())).isTrue();
        assertThat(PcapLink.passesRoceFilter(FrameBuilder.of(Encapsulation.ipv6("2001:db8::1", "2001:db8::2"),
            Opcode.RDMA_WRITE_ONLY).build())).isTrue();
        assertThat(PcapLink.passesRoceFilter(FrameBuilder.of(V4, Opcode.ACKNOWLEDGE).with("udp.dport", 9)
            .with("udp.sport", 4791).build())).as("either port").isTrue();
    }

    @Test
    void whatTheFilterRejectsIsNotExpectedBack() {
        final byte[] arp = new byte[60];
        arp[12] = 0x08;
        arp[13] = 0x06;
        assertThat(PcapLink.passesRoceFilter(arp)).isFalse();
        assertThat(PcapLink.passesRoceFilter(FrameBuilder.of(V4, Opcode.SEND_ONLY).with("udp.dport", 4790)
            .build())).isFalse();
        assertThat(PcapLink.passesRoceFilter(FrameBuilder.of(V4, Opcode.SEND_ONLY).with("ip.protocol", 6)
            .build())).isFalse();
        assertThat(PcapLink.passesRoceFilter(FrameBuilder.of(V4, Opcode.SEND_ONLY).with("ip.frag_offset", 8)
            .build())).as("a later fragment has no UDP header").isFalse();
        final byte[] roce = FrameBuilder.of(V4, Opcode.SEND_ONLY).build();
        assertThat(PcapLink.passesRoceFilter(Arrays.copyOf(roce, 36))).as("cut inside the UDP header").isFalse();
        assertThat(PcapLink.passesRoceFilter(new byte[5])).isFalse();
    }
}

package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.testing.RandomFrames;
import org.metaroce.mrct.testing.Seeds;

/** Seeded property tests: encode then decode every field of random frames. */
class FrameRoundTripTest {
    /** Fields the builder computes; the property test does not assign them. */
    private static final List<String> COMPUTED = List.of("ip.version", "ip.ihl", "ip.total_length", "ip.checksum",
        "ip.protocol", "ip6.payload_length", "udp.length", "udp.dport", "bth.opcode", "bth.padcnt", "bth.tver",
        "eth.type", "vlan.tpid", "icrc", "ip.src", "ip.dst", "ip.mf", "ip.frag_offset");

    @Test
    void everyAssignedFieldDecodesToItsValue() {
        final SplittableRandom random = Seeds.random("FrameRoundTripTest.fields", 20261129L);
        final RandomFrames frames = new RandomFrames(random);
        final FrameDecoder decoder = new FrameDecoder();
        for (int iteration = 0; iteration < 3000; iteration++) {
            FrameBuilder builder = frames.frame();
            final byte[] probe = builder.build();
            final DecodedFrame shape = decoder.decode(ByteBuffer.wrap(probe), 0, probe.length);
            assertThat(shape.status()).as("iteration %d: %s", iteration, shape.failure()).isEqualTo(DecodeStatus.ROCE);
            final List<FrameField> assigned = new ArrayList<>();
            for (final FrameField field : FrameFields.all()) {
                if (COMPUTED.contains(field.name()) || field.isAddress() || !shape.has(field)
                    || (field.name().equals("ip.ttl") && !field.header().equals(shape.field("ip.ttl").header()))) {
                    continue;
                }
                if (field == FrameFields.PLETH_FIRST || field == FrameFields.PLETH_LAST
                    || field == FrameFields.PLETH_FLAGS_RESV) {
                    continue; // pleth.flags is assigned whole; its bits are checked through it
                }
                if (shape.field(field.name()) != field) {
                    continue;
                }
                final long value = random.nextLong() & field.mask();
                builder = builder.with(field.name(), value);
                assigned.add(field);
            }
            final byte[] bytes = builder.build();
            final DecodedFrame frame = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            assertThat(frame.status()).as("iteration %d: %s", iteration, frame.failure()).isEqualTo(DecodeStatus.ROCE);
            for (final FrameField field : assigned) {
                final long expected = (Long) builder.assignments().get(field.name()) & field.mask();
                assertThat(frame.get(field)).as("iteration %d field %s", iteration, field).isEqualTo(expected);
            }
            assertThat(frame.icrcValid()).as("iteration %d icrc", iteration).isTrue();
            assertThat(frame.ipChecksumValid()).isTrue();
            assertThat(frame.payload()).isEqualTo(builder.payload());
            assertThat(frame.opcode()).isSameAs(builder.opcode());
            assertThat(frame.tver()).isEqualTo(builder.tver());
            assertThat(frame.padLength()).isEqualTo((-builder.payload().length) & 3);
        }
    }

    @Test
    void flyweightsAgreeWithTheFieldRegistry() {
        final SplittableRandom random = Seeds.random("FrameRoundTripTest.flyweights", 77L);
        final RandomFrames frames = new RandomFrames(random);
        final FrameDecoder decoder = new FrameDecoder();
        for (int i = 0; i < 2000; i++) {
            final byte[] bytes = frames.frame().build();
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            assertThat(f.isRoce()).isTrue();
            assertThat(f.get(FrameFields.BTH_PSN)).isEqualTo(f.bth().psn());
            assertThat(f.get(FrameFields.BTH_DQPN)).isEqualTo(f.bth().destQp());
            assertThat(f.get(FrameFields.BTH_PKEY)).isEqualTo(f.bth().pkey());
            assertThat(f.get(FrameFields.BTH_ACKREQ) == 1).isEqualTo(f.bth().ackReq());
            assertThat(f.get(FrameFields.BTH_BECN) == 1).isEqualTo(f.bth().becn());
            assertThat(f.get(FrameFields.BTH_SE) == 1).isEqualTo(f.bth().solicitedEvent());
            assertThat(f.get(FrameFields.BTH_TVER)).isEqualTo(f.bth().tver());
            assertThat(f.get(FrameFields.BTH_PADCNT)).isEqualTo(f.bth().padCount());
            if (f.has(HeaderKind.UDP)) {
                assertThat(f.get(FrameFields.UDP_SPORT)).isEqualTo(f.udp().sourcePort());
                assertThat(f.get(FrameFields.UDP_LENGTH)).isEqualTo(f.udp().length());
            }
            assertThat(f.get(f.field("ip.ecn"))).isEqualTo(f.ecn());
            assertThat(f.get(f.field("ip.dscp"))).isEqualTo(f.dscp());
            assertThat(f.get(FrameFields.ETH_SRC)).isEqualTo(f.eth().source());
            if (f.has(HeaderKind.VLAN)) {
                assertThat(f.get(FrameFields.VLAN_VID)).isEqualTo(f.eth().vlanId());
                assertThat(f.get(FrameFields.VLAN_PCP)).isEqualTo(f.eth().vlanPcp());
            }
            if (f.has(HeaderKind.PLETH)) {
                assertThat(f.get(FrameFields.PLETH_FIRST) == 1).isEqualTo(f.pleth().first());
                assertThat(f.get(FrameFields.PLETH_LAST) == 1).isEqualTo(f.pleth().last());
                final Position position = f.opcode().position();
                assertThat(f.pleth().first()).isEqualTo(position.isFirst() || position == Position.NONE);
                assertThat(f.pleth().last()).isEqualTo(position.isLast() || position == Position.NONE);
            }
            assertThat(Integer.toUnsignedLong(f.icrcOnWire())).isEqualTo(f.get(FrameFields.ICRC));
        }
    }

    @Test
    void assignedFieldsAreNeverRecomputed() {
        final Encapsulation e = Encapsulation.ipv4("10.0.0.1", "10.0.0.2");
        final byte[] bytes = FrameBuilder.of(e, Opcode.SEND_ONLY).payload(new byte[5])
            .with("bth.padcnt", 0).with("icrc", 0x12345678L).with("ip.checksum", 0xBEEF).with("udp.length", 9)
            .build();
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        final DecodedFrame f = new FrameDecoder().decode(buffer, 0, bytes.length);
        assertThat(f.status()).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(f.failure().field()).isEqualTo("udp.length");
        assertThat(FrameFields.BTH_PADCNT.read(buffer, 14 + 20 + 8)).isZero();
        assertThat(FrameFields.IPV4_CHECKSUM.read(buffer, 14)).isEqualTo(0xBEEF);
        assertThat(FrameFields.ICRC.read(buffer, bytes.length - 4)).isEqualTo(0x12345678L);
        assertThat(bytes[bytes.length - 4]).isEqualTo((byte) 0x78);
    }

    @Test
    void validUdpChecksumVerifiesAndZeroIsAccepted() {
        final FrameDecoder decoder = new FrameDecoder();
        for (final Encapsulation e : List.of(Encapsulation.ipv4("10.0.0.1", "10.0.0.2"),
            Encapsulation.ipv6("fd00::1", "fd00::2"))) {
            final FrameBuilder template = FrameBuilder.of(e, Opcode.SEND_ONLY).payload(new byte[] {1, 2, 3});
            final byte[] valid = template.validUdpChecksum(true).build();
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(valid), 0, valid.length);
            assertThat(f.udp().checksum()).isNotZero();
            assertThat(f.udpChecksumValid()).isTrue();
            final byte[] zero = template.build();
            assertThat(decoder.decode(ByteBuffer.wrap(zero), 0, zero.length).udpChecksumValid()).isTrue();
            final byte[] wrong = template.with("udp.checksum", 0x1234).build();
            assertThat(decoder.decode(ByteBuffer.wrap(wrong), 0, wrong.length).udpChecksumValid()).isFalse();
        }
    }
}

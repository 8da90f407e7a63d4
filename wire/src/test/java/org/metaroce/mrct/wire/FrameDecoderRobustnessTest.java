package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.testing.RandomFrames;
import org.metaroce.mrct.testing.Seeds;

/** The decoder never throws, and each kind of damage is reported with its reason, field and offset. */
class FrameDecoderRobustnessTest {
    private final FrameDecoder decoder = new FrameDecoder();
    private final Encapsulation v4 = Encapsulation.ipv4("192.168.1.1", "192.168.1.2");

    private DecodedFrame decode(final byte[] bytes) {
        return decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
    }

    @Test
    void everyTruncationDecodesWithoutThrowing() {
        final SplittableRandom random = Seeds.random("FrameDecoderRobustnessTest.truncation", 5L);
        final RandomFrames frames = new RandomFrames(random);
        for (int i = 0; i < 300; i++) {
            final byte[] full = frames.frame().build();
            for (int cut = 0; cut < full.length; cut++) {
                final DecodedFrame f = decoder.decode(ByteBuffer.wrap(full), 0, cut);
                assertThat(f.status()).as("cut at %d of %d", cut, full.length).isNotEqualTo(DecodeStatus.ROCE);
                if (f.status() == DecodeStatus.MALFORMED) {
                    assertThat(f.failure().offset()).isBetween(0, Math.max(0, cut));
                    assertThat(f.failure().detail()).isNotBlank();
                }
            }
        }
    }

    @Test
    void randomMutationsNeverThrow() {
        final SplittableRandom random = Seeds.random("FrameDecoderRobustnessTest.mutations", 6L);
        final RandomFrames frames = new RandomFrames(random);
        int roce = 0;
        for (int i = 0; i < 20_000; i++) {
            final byte[] bytes = frames.frame().build();
            final int flips = 1 + random.nextInt(8);
            for (int j = 0; j < flips; j++) {
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
            }
            final DecodedFrame f = decode(bytes);
            if (f.isRoce()) {
                roce++;
                f.icrcValid();
                f.udpChecksumValid();
                FrameDescription.describe(f, 1, 0);
            } else if (f.status() == DecodeStatus.MALFORMED) {
                assertThat(f.failure()).isNotNull();
                FrameDescription.describe(f, 1, 0);
            }
        }
        assertThat(roce).isPositive();
    }

    @Test
    void anOffsetOutsideTheBufferIsAFailureNotAnException() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.SEND_ONLY).payload(new byte[8]).build();
        for (final int offset : new int[] {-1, -14, Integer.MIN_VALUE, bytes.length + 1, Integer.MAX_VALUE}) {
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), offset, bytes.length);
            assertThat(f.status()).as("offset %d", offset).isEqualTo(DecodeStatus.MALFORMED);
            assertThat(f.error()).isEqualTo(DecodeError.TRUNCATED);
            assertThat(f.failure().detail()).contains("offset " + offset + " is outside the buffer (0.."
                + bytes.length + ")");
        }
        assertThat(decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length).isRoce()).as("the decoder is reusable")
            .isTrue();
    }

    @Test
    void padCountLargerThanPayloadIsMalformed() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.SEND_ONLY).payload(new byte[0]).with("bth.padcnt", 3).build();
        final DecodedFrame f = decode(bytes);
        assertThat(f.status()).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(f.error()).isEqualTo(DecodeError.PAD_EXCEEDS_PAYLOAD);
        assertThat(f.failure().field()).isEqualTo("bth.padcnt");
        assertThat(f.failure().offset()).isEqualTo(14 + 20 + 8 + 1);
    }

    @Test
    void udpLengthDisagreeingWithIpIsALengthMismatch() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.SEND_ONLY).payload(new byte[8]).with("udp.length", 100).build();
        final DecodedFrame f = decode(bytes);
        assertThat(f.error()).isEqualTo(DecodeError.LENGTH_MISMATCH);
        assertThat(f.failure().field()).isEqualTo("udp.length");
        assertThat(f.failure().offset()).isEqualTo(14 + 20 + 4);
    }

    @Test
    void ipTotalLengthBeyondTheFrameIsTruncated() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.SEND_ONLY).payload(new byte[64]).truncateTo(100).build();
        final DecodedFrame f = decode(bytes);
        assertThat(f.error()).isEqualTo(DecodeError.TRUNCATED);
        assertThat(f.failure().field()).isEqualTo("ip.total_length");
    }

    @Test
    void extensionHeaderCutShortNamesTheHeader() {
        // an RDMA WRITE ONLY whose lengths announce no room for RETH: drop the RETH bytes by replacing the headers
        final byte[] bytes = FrameBuilder.of(v4, Opcode.RDMA_WRITE_ONLY).headers(HeaderKind.PLETH).build();
        final DecodedFrame f = decode(bytes);
        assertThat(f.error()).isEqualTo(DecodeError.TRUNCATED);
        assertThat(f.failure().field()).isEqualTo("reth");
        assertThat(f.failure().offset()).isEqualTo(14 + 20 + 8 + 12 + 12);
    }

    @Test
    void trailingEthernetPaddingIsIgnored() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.ACKNOWLEDGE).trailer(new byte[20]).build();
        final DecodedFrame f = decode(bytes);
        assertThat(f.isRoce()).isTrue();
        assertThat(f.icrcValid()).isTrue();
        assertThat(f.packetEnd()).isEqualTo(bytes.length - 20);
    }

    @Test
    void stackedVlanTagsAreMalformedOnlyForRoce() {
        final byte[] single = FrameBuilder.of(v4.withVlan(7, 3), Opcode.SEND_ONLY).build();
        final byte[] stacked = new byte[single.length + 4];
        System.arraycopy(single, 0, stacked, 0, 16);
        stacked[16] = (byte) 0x81;
        stacked[17] = 0x00;
        stacked[18] = 0x00;
        stacked[19] = 0x05;
        System.arraycopy(single, 16, stacked, 20, single.length - 16);
        final DecodedFrame f = decode(stacked);
        assertThat(f.error()).isEqualTo(DecodeError.STACKED_VLAN);
        assertThat(f.failure().offset()).isEqualTo(16);
        assertThat(decode(single).isRoce()).isTrue();
        assertThat(decode(single).eth().vlanId()).isEqualTo(7);
    }

    @Test
    void otherTrafficIsNotRoce() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.SEND_ONLY).with("udp.dport", 53).build();
        assertThat(decode(bytes).status()).isEqualTo(DecodeStatus.NOT_ROCE);
        final byte[] arp = new byte[42];
        arp[12] = 0x08;
        arp[13] = 0x06;
        assertThat(decode(arp).status()).isEqualTo(DecodeStatus.NOT_ROCE);
        assertThat(decode(new byte[3]).status()).isEqualTo(DecodeStatus.MALFORMED);
    }

    @Test
    void ipv4FragmentsOfRoceAreMalformed() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.SEND_ONLY).with("ip.mf", 1).build();
        final DecodedFrame f = decode(bytes);
        assertThat(f.error()).isEqualTo(DecodeError.IP_FRAGMENT);
        final byte[] later = FrameBuilder.of(v4, Opcode.SEND_ONLY).with("ip.frag_offset", 10).build();
        assertThat(decode(later).status()).isEqualTo(DecodeStatus.NOT_ROCE);
    }

    @Test
    void unknownOpcodesAndTversDecodeAsRoceWithoutALayout() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.valueOf(0x1E)).payload(new byte[12]).build();
        final DecodedFrame f = decode(bytes);
        assertThat(f.isRoce()).isTrue();
        assertThat(f.opcode().isKnown()).isFalse();
        assertThat(f.layoutKnown()).isFalse();
        assertThat(f.icrcValid()).isTrue();
        final byte[] tver = FrameBuilder.of(v4, Opcode.SEND_ONLY).tver(7).headers().payload(new byte[4]).build();
        final DecodedFrame g = decode(tver);
        assertThat(g.isRoce()).isTrue();
        assertThat(g.tver()).isEqualTo(7);
        assertThat(g.layoutKnown()).isFalse();
    }

    @Test
    void aReusedDecoderForgetsEverythingOfThePreviousFrame() {
        // DecodedFrame keeps opcode, layout and buffer references across frames (it stores them only when they
        // change); nothing of a previous frame may show through.
        final FrameDecoder decoder = new FrameDecoder();
        final byte[] roce = FrameBuilder.of(v4, Opcode.RDMA_WRITE_ONLY).payload(new byte[8]).build();
        final byte[] arp = new byte[42];
        arp[12] = 0x08;
        arp[13] = 0x06;
        final byte[] v1 = FrameBuilder.of(Encapsulation.roceV1("fe80::1", "fe80::2"), Opcode.SEND_ONLY).build();
        final ByteBuffer heap = ByteBuffer.wrap(roce);
        final DecodedFrame first = decoder.decode(heap, 0, roce.length);
        assertThat(first.opcode()).isEqualTo(Opcode.RDMA_WRITE_ONLY);
        assertThat(first.version()).isEqualTo(RoceVersion.V2);
        assertThat(first.layout()).contains(HeaderKind.RETH);
        final ByteBuffer other = ByteBuffer.wrap(arp);
        final DecodedFrame notRoce = decoder.decode(other, 0, arp.length);
        assertThat(notRoce.status()).isEqualTo(DecodeStatus.NOT_ROCE);
        assertThat(notRoce.buffer()).isSameAs(other);
        assertThat(notRoce.version()).isEqualTo(RoceVersion.NONE);
        assertThat(notRoce.opcode()).isNull();
        assertThat(notRoce.layout()).isNull();
        assertThat(notRoce.layoutKnown()).isFalse();
        assertThat(notRoce.tver()).isEqualTo(-1);
        assertThat(notRoce.failure()).isNull();
        final DecodedFrame malformed = decoder.decode(ByteBuffer.wrap(new byte[3]), 0, 3);
        assertThat(malformed.status()).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(malformed.failure()).isNotNull();
        final ByteBuffer direct = ByteBuffer.allocateDirect(v1.length);
        direct.put(v1).clear();
        final DecodedFrame again = decoder.decode(direct, 0, v1.length);
        assertThat(again.status()).isEqualTo(DecodeStatus.ROCE);
        assertThat(again.buffer()).isSameAs(direct);
        assertThat(again.error()).isNull();
        assertThat(again.failure()).isNull();
        assertThat(again.version()).isEqualTo(RoceVersion.V1);
        assertThat(again.opcode()).isEqualTo(Opcode.SEND_ONLY);
        assertThat(again.icrcValid()).isTrue();
        assertThat(decoder.decode(heap, 0, roce.length).icrcValid()).isTrue();
    }
}

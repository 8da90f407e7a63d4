package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.testing.RandomFrames;
import org.metaroce.mrct.testing.Seeds;

/**
 * The ICRC against a second, deliberately naive implementation written from the rule text (copy the covered bytes,
 * overwrite the variant fields with ones, CRC-32 them), and against the behaviour the rules imply.
 */
class IcrcTest {
    @Test
    void matchesANaiveImplementationOfTheRule() {
        final SplittableRandom random = Seeds.random("IcrcTest.naive", 4791L);
        final RandomFrames frames = new RandomFrames(random);
        final FrameDecoder decoder = new FrameDecoder();
        for (int i = 0; i < 3000; i++) {
            final byte[] bytes = frames.frame().build();
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            assertThat(f.computeIcrc()).isEqualTo(naive(bytes, f));
            assertThat(f.icrcOnWire()).isEqualTo(naive(bytes, f));
        }
    }

    @Test
    void variantFieldsDoNotChangeTheIcrcButInvariantOnesDo() {
        final Encapsulation e = Encapsulation.ipv4("10.1.1.1", "10.1.1.2");
        final FrameBuilder base = FrameBuilder.of(e, Opcode.RDMA_WRITE_ONLY).payload(new byte[] {9, 8, 7, 6});
        final int reference = icrcOf(base.build());
        assertThat(icrcOf(base.ecn(3).build())).isEqualTo(reference);
        assertThat(icrcOf(base.encapsulation(e.withDscp(48).withTtl(3)).build())).isEqualTo(reference);
        assertThat(icrcOf(base.with("bth.fecn", 1).with("bth.becn", 1).with("bth.resv6a", 0x2A).build()))
            .isEqualTo(reference);
        assertThat(icrcOf(base.validUdpChecksum(true).build())).isEqualTo(reference);
        assertThat(icrcOf(base.with("bth.resv7", 1).build())).isNotEqualTo(reference);
        assertThat(icrcOf(base.with("bth.ackreq", 1).build())).isNotEqualTo(reference);
        assertThat(icrcOf(base.encapsulation(e.withUdpSourcePort(0xC001)).build())).isNotEqualTo(reference);
        assertThat(icrcOf(base.with("ip.id", 1).build())).isNotEqualTo(reference);
        final Encapsulation v6 = Encapsulation.ipv6("fd00::1", "fd00::2");
        final FrameBuilder base6 = FrameBuilder.of(v6, Opcode.SEND_ONLY);
        assertThat(icrcOf(base6.encapsulation(v6.withFlowLabel(0xABCDE).withTtl(1)).ecn(3).build()))
            .isEqualTo(icrcOf(base6.build()));
    }

    @Test
    void headersLaidOutApartGiveTheSameIcrcAsHeadersBackToBack() {
        // Icrc copies back-to-back headers in one piece and headers apart one by one: both must mask the same bytes.
        final SplittableRandom random = Seeds.random("IcrcTest.apart", 4792L);
        final RandomFrames frames = new RandomFrames(random);
        final FrameDecoder decoder = new FrameDecoder();
        final Icrc icrc = new Icrc();
        int checked = 0;
        for (int i = 0; i < 500; i++) {
            final byte[] bytes = frames.frame().build();
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            if (!f.isRoce()) {
                continue;
            }
            final boolean v6 = f.has(HeaderKind.IPV6);
            final int ip = f.offset(v6 ? HeaderKind.IPV6 : HeaderKind.IPV4);
            final int udp = f.offset(HeaderKind.UDP);
            final int bth = f.offset(HeaderKind.BTH);
            final int end = f.offset(HeaderKind.ICRC);
            // the same headers with gaps of random bytes between IP, UDP and BTH, in a read-only buffer
            final int gap1 = 1 + random.nextInt(7);
            final int gap2 = 1 + random.nextInt(7);
            final byte[] apart = new byte[end - ip + gap1 + gap2 + 3];
            random.nextBytes(apart);
            final int ipAt = 3;
            System.arraycopy(bytes, ip, apart, ipAt, f.ipHeaderLength());
            final int udpAt = udp < 0 ? -1 : ipAt + f.ipHeaderLength() + gap1;
            if (udp >= 0) {
                System.arraycopy(bytes, udp, apart, udpAt, 8);
            }
            final int bthAt = (udp < 0 ? ipAt + f.ipHeaderLength() : udpAt + 8) + gap2;
            System.arraycopy(bytes, bth, apart, bthAt, end - bth);
            final int value = icrc.compute(ByteBuffer.wrap(apart).asReadOnlyBuffer(), ipAt, f.ipHeaderLength(), v6,
                udpAt, bthAt, bthAt + (end - bth));
            assertThat(value).as("frame %d", i).isEqualTo(f.computeIcrc()).isEqualTo(naive(bytes, f));
            checked++;
        }
        assertThat(checked).isGreaterThan(100);
    }

    @Test
    void theIcrcIsSentLeastSignificantByteFirst() {
        final byte[] bytes = FrameBuilder.of(Encapsulation.ipv4("10.0.0.1", "10.0.0.2"), Opcode.ACKNOWLEDGE).build();
        final DecodedFrame f = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        final int value = f.computeIcrc();
        assertThat(bytes[bytes.length - 4]).isEqualTo((byte) value);
        assertThat(bytes[bytes.length - 1]).isEqualTo((byte) (value >>> 24));
    }

    private static int icrcOf(final byte[] bytes) {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).icrcOnWire();
    }

    /** Straight from the rule, with no shared code: mask a copy, prefix eight 0xFF bytes, CRC-32 it. */
    static int naive(final byte[] frame, final DecodedFrame f) {
        final int ip = f.offset(f.has(HeaderKind.IPV4) ? HeaderKind.IPV4 : HeaderKind.IPV6);
        final int end = f.offset(HeaderKind.ICRC);
        final byte[] copy = java.util.Arrays.copyOfRange(frame, ip, end);
        final boolean v4 = f.has(HeaderKind.IPV4);
        final int ipLength = v4 ? (copy[0] & 0xF) * 4 : 40;
        if (v4) {
            copy[1] = (byte) 0xFF;
            copy[8] = (byte) 0xFF;
            copy[10] = (byte) 0xFF;
            copy[11] = (byte) 0xFF;
        } else {
            copy[0] |= 0x0F;
            copy[1] = (byte) 0xFF;
            copy[2] = (byte) 0xFF;
            copy[3] = (byte) 0xFF;
            copy[7] = (byte) 0xFF;
        }
        int bth = ipLength;
        if (f.has(HeaderKind.UDP)) {
            copy[ipLength + 6] = (byte) 0xFF;
            copy[ipLength + 7] = (byte) 0xFF;
            bth += 8;
        }
        copy[bth + 4] = (byte) 0xFF;
        final CRC32 crc = new CRC32();
        crc.update(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
        crc.update(copy);
        return (int) crc.getValue();
    }
}

package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.testing.RandomFrames;
import org.metaroce.mrct.testing.Seeds;

/**
 * {@link Icrc} computes in place, with the variant fields and the 0xFF prefix accounted for by CRC linearity
 * ({@link IcrcCorrection}); these tests hold it to the masked-copy implementation it replaced ({@link MaskedCopyIcrc},
 * kept here as the oracle) on random bytes in every header layout and buffer kind, and to the naive reading of the rule
 * ({@link IcrcTest}) on built frames of every kind, opcode, payload and pad length.
 */
class IcrcInPlaceTest {
    @Test
    void theZeroByteStepIsUndoneByItsInverse() {
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.step", 0x1C2CL);
        for (int i = 0; i < 100_000; i++) {
            final int register = random.nextInt();
            assertThat(IcrcCorrection.unstep(IcrcCorrection.step(register))).isEqualTo(register);
            assertThat(IcrcCorrection.step(IcrcCorrection.unstep(register))).isEqualTo(register);
        }
    }

    @Test
    void thePrefixChangeCarriedOverTheLengthStandsInForTheEightOnesOfThePrefix() {
        // With no byte forced, CRC-32(M) ^ Z^n(PREFIX) must equal CRC-32(eight 0xFF, then M) for any M of n bytes.
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.start", 0x1C2DL);
        for (int i = 0; i < 300; i++) {
            final byte[] message = new byte[random.nextInt(4) == 0 ? random.nextInt(20_000) : random.nextInt(300)];
            random.nextBytes(message);
            final CRC32 prefixed = new CRC32();
            prefixed.update(new byte[] {-1, -1, -1, -1, -1, -1, -1, -1});
            prefixed.update(message);
            final CRC32 plain = new CRC32();
            plain.update(message);
            assertThat((int) plain.getValue() ^ IcrcCorrection.shift(message.length, IcrcCorrection.PREFIX))
                .as("%d bytes", message.length).isEqualTo((int) prefixed.getValue());
        }
    }

    @Test
    void theShiftByALengthIsThatManyZeroByteStepsWithOrWithoutATable() {
        // Z^n by the table of n (built on first use), by the powers of two, and step by step must agree, for lengths
        // with a table, beyond the tables' range and after the table budget is spent.
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.shift", 0x1C32L);
        for (int i = 0; i < 3_000; i++) {
            final int length = i < 64 ? i : random.nextInt(4) == 0
                ? IcrcCorrection.TABLE_LENGTHS + random.nextInt(300_000) : random.nextInt(IcrcCorrection.TABLE_LENGTHS);
            final int change = random.nextInt();
            int stepped = change;
            for (int k = 0; k < length; k++) {
                stepped = IcrcCorrection.step(stepped);
            }
            assertThat(IcrcCorrection.shift(length, change)).as("length %d", length).isEqualTo(stepped)
                .isEqualTo(IcrcCorrection.byPowers(length, change));
            // a second time: from the table built by the first call, if one was
            assertThat(IcrcCorrection.shift(length, change)).as("length %d again", length).isEqualTo(stepped);
        }
        assertThat(IcrcCorrection.tablesBuilt()).isEqualTo(IcrcCorrection.MAX_TABLES);
    }

    @Test
    void matchesTheMaskedCopyOnRandomBytesInEveryLayoutAndBufferKind() {
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.layouts", 0x1C2EL);
        final Icrc icrc = new Icrc();
        final MaskedCopyIcrc oracle = new MaskedCopyIcrc();
        final int[] kinds = new int[4];
        for (int i = 0; i < 20_000; i++) {
            final boolean ipv6 = random.nextBoolean();
            final boolean udp = !ipv6 || random.nextInt(3) > 0; // IPv6 without UDP: the RoCEv1 GRH
            final int ipLength = ipv6 ? 40 : 20 + 4 * random.nextInt(11);
            // mostly short transport packets, where the forced bytes sit near the end, some up to jumbo size
            final int rest = random.nextInt(4) == 0 ? random.nextInt(9200) : random.nextInt(80);
            final int lead = random.nextInt(24);
            final int ip = lead;
            final int bth = ip + ipLength + (udp ? 8 : 0);
            final int end = bth + 12 + rest;
            final byte[] bytes = new byte[end + 4 + random.nextInt(8)];
            random.nextBytes(bytes);
            final int kind = random.nextInt(4);
            kinds[kind]++;
            final ByteBuffer buffer = buffer(kind, bytes, random);
            final int expected = oracle.compute(buffer, ip, ipLength, ipv6, udp ? ip + ipLength : -1, bth, end);
            assertThat(icrc.compute(buffer, ip, ipLength, ipv6, udp ? ip + ipLength : -1, bth, end))
                .as("case %d: ipv6 %s, udp %s, IP header %d, %d bytes after the BTH, buffer kind %d", i, ipv6, udp,
                    ipLength, rest, kind)
                .isEqualTo(expected);
            assertThat(buffer.position()).isZero();
            assertThat(buffer.limit()).isEqualTo(bytes.length);
        }
        for (final int count : kinds) {
            assertThat(count).isGreaterThan(4000);
        }
    }

    @Test
    void lengthsTakenInTurnKeepTheirOwnShiftTables() {
        // One computer over frames whose lengths alternate (a stream's data packets and its acknowledgements) and
        // collide in its small cache of recent shift tables: a table kept for one length and used for another gives a
        // wrong value at once.
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.recent", 0x1C30L);
        final Icrc icrc = new Icrc();
        final MaskedCopyIcrc oracle = new MaskedCopyIcrc();
        final int[] rests = {1024, 16, 24, 28, 1028, 20, 36, 52, 0, 8, 1016, 4, 2048, 1032};
        final int ip = 14;
        for (int i = 0; i < 3_000; i++) {
            final int rest = random.nextInt(3) == 0 ? rests[random.nextInt(rests.length)] : rests[i % 3];
            final int bth = ip + 20 + 8;
            final int end = bth + 12 + rest;
            final byte[] bytes = new byte[end + 4];
            random.nextBytes(bytes);
            final ByteBuffer buffer = buffer(i % 4, bytes, random);
            assertThat(icrc.compute(buffer, ip, 20, false, ip + 20, bth, end)).as("case %d, %d bytes", i, rest)
                .isEqualTo(oracle.compute(buffer, ip, 20, false, ip + 20, bth, end));
        }
    }

    @Test
    void matchesTheMaskedCopyWhenTheHeadersLieApartOrTheEndIsShort() {
        // The rare path: IP, UDP and BTH not back to back (each CRCed in turn), or an ICRC index inside the BTH.
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.apart", 0x1C2FL);
        final Icrc icrc = new Icrc();
        final MaskedCopyIcrc oracle = new MaskedCopyIcrc();
        for (int i = 0; i < 5_000; i++) {
            final boolean ipv6 = random.nextBoolean();
            final boolean udp = !ipv6 || random.nextBoolean();
            final int ipLength = ipv6 ? 40 : 20 + 4 * random.nextInt(11);
            final int ip = random.nextInt(16);
            final int udpAt = udp ? ip + ipLength + random.nextInt(3) : -1;
            final int bth = (udp ? udpAt + 8 : ip + ipLength) + random.nextInt(3);
            final int end = random.nextInt(5) == 0 ? bth + random.nextInt(12) : bth + 12 + random.nextInt(600);
            final byte[] bytes = new byte[Math.max(end, bth + 12) + 4];
            random.nextBytes(bytes);
            final ByteBuffer buffer = buffer(random.nextInt(4), bytes, random);
            assertThat(icrc.compute(buffer, ip, ipLength, ipv6, udpAt, bth, end)).as("case %d", i)
                .isEqualTo(oracle.compute(buffer, ip, ipLength, ipv6, udpAt, bth, end));
        }
    }

    @Test
    void everyEncapsulationOpcodeAndPayloadLengthSealsAndVerifiesLikeTheRule() {
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.frames", 0x1C30L);
        final RandomFrames frames = new RandomFrames(random);
        final FrameDecoder decoder = new FrameDecoder();
        final MaskedCopyIcrc oracle = new MaskedCopyIcrc();
        int checked = 0;
        for (final Encapsulation e : encapsulations(frames)) {
            // every payload length 0..4100 of one opcode (every pad count), with random payload bytes
            for (int length = 0; length <= 4100; length++) {
                final byte[] payload = new byte[length];
                random.nextBytes(payload);
                checked += check(FrameBuilder.of(e, Opcode.RDMA_WRITE_ONLY).payload(payload)
                    .psn(random.nextInt(1 << 24)).ecn(random.nextInt(4)), decoder, oracle);
            }
            // every known opcode in both transport versions, a few lengths, odd pads and non-zero pad bytes
            for (final Opcode opcode : Opcode.known()) {
                for (int tver = 0; tver <= (opcode == Opcode.CNP ? 0 : 1); tver++) {
                    for (final int length : new int[] {0, 1, 2, 3, 4, 5, 255, 1023, 1024, 4096}) {
                        final byte[] payload = new byte[HeaderLayout.carriesPayload(opcode) ? length : 0];
                        random.nextBytes(payload);
                        FrameBuilder builder = FrameBuilder.of(e, opcode).tver(tver).payload(payload)
                            .with("bth.fecn", random.nextInt(2)).with("bth.becn", random.nextInt(2));
                        if (payload.length > 0 && random.nextBoolean()) {
                            builder = builder.padFill(1 + random.nextInt(255));
                        }
                        checked += check(builder, decoder, oracle);
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(5 * 4100);
    }

    @Test
    void ipv4OptionsAreCoveredAndTheForcedFieldsFollowTheLongerHeader() {
        final SplittableRandom random = Seeds.random("IcrcInPlaceTest.options", 0x1C31L);
        final RandomFrames frames = new RandomFrames(random);
        final FrameDecoder decoder = new FrameDecoder();
        final MaskedCopyIcrc oracle = new MaskedCopyIcrc();
        for (int i = 0; i < 2_000; i++) {
            final byte[] plain = frames.frame().encapsulation(Encapsulation.ipv4("10.0.0.1", "10.0.0.2")
                .withTtl(random.nextInt(256)).withDscp(random.nextInt(64))).build();
            final int words = 1 + random.nextInt(10);
            final byte[] bytes = withIpv4Options(plain, words, random);
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            assertThat(f.isRoce()).as("frame %d", i).isTrue();
            assertThat(f.ipHeaderLength()).isEqualTo(20 + 4 * words);
            assertThat(f.computeIcrc()).as("frame %d", i).isEqualTo(IcrcTest.naive(bytes, f))
                .isEqualTo(oracle.compute(ByteBuffer.wrap(bytes), 14, f.ipHeaderLength(), false,
                    f.offset(HeaderKind.UDP), f.offset(HeaderKind.BTH), f.offset(HeaderKind.ICRC)));
            // an option byte is covered as it is
            final int before = f.computeIcrc();
            bytes[14 + 20 + random.nextInt(4 * words)] ^= (byte) (1 + random.nextInt(255));
            assertThat(decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length).computeIcrc()).isNotEqualTo(before);
        }
    }

    /** Builds, checks the sealed ICRC on the wire and the decoder's verdict against both oracles; returns 1. */
    private static int check(final FrameBuilder builder, final FrameDecoder decoder, final MaskedCopyIcrc oracle) {
        final byte[] bytes = builder.build();
        final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        assertThat(f.isRoce()).isTrue();
        final int naive = IcrcTest.naive(bytes, f);
        final boolean v6 = f.has(HeaderKind.IPV6);
        final int masked = oracle.compute(ByteBuffer.wrap(bytes), f.offset(v6 ? HeaderKind.IPV6 : HeaderKind.IPV4),
            f.ipHeaderLength(), v6, f.offset(HeaderKind.UDP), f.offset(HeaderKind.BTH), f.offset(HeaderKind.ICRC));
        assertThat(f.icrcOnWire()).as("sealed by FrameBuilder: %s %d bytes", f.opcode(), bytes.length)
            .isEqualTo(naive).isEqualTo(masked);
        assertThat(f.computeIcrc()).isEqualTo(naive);
        assertThat(f.icrcValid()).isTrue();
        // one flipped bit anywhere in the covered, invariant bytes must fail the verification
        final int from = f.offset(HeaderKind.BTH) + 5;
        final int at = from + (f.offset(HeaderKind.ICRC) - from) / 2;
        bytes[at] ^= 0x10;
        final DecodedFrame damaged = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        assertThat(damaged.isRoce()).isTrue();
        assertThat(damaged.icrcValid()).as("bit flipped at %d", at).isFalse();
        return 1;
    }

    private static List<Encapsulation> encapsulations(final RandomFrames frames) {
        final List<Encapsulation> list = new ArrayList<>();
        list.add(Encapsulation.ipv4("10.1.2.3", "10.3.2.1").withTtl(17).withDscp(26));
        list.add(Encapsulation.ipv4("192.168.7.1", "192.168.7.2").withVlan(42, 3));
        list.add(Encapsulation.ipv6("fd00::1", "fd00::2").withFlowLabel(0xABCDE).withTtl(9).withDscp(46));
        list.add(Encapsulation.ipv6("2001:db8::7", "2001:db8::8").withVlan(4000, 5));
        list.add(Encapsulation.roceV1("fe80::1", "fe80::2").withFlowLabel(0x12345));
        list.add(frames.encapsulation());
        return list;
    }

    /** {@code plain} (untagged IPv4) with {@code words} 32-bit words of random IPv4 options after the fixed header. */
    private static byte[] withIpv4Options(final byte[] plain, final int words, final SplittableRandom random) {
        final int ip = 14;
        final byte[] options = new byte[4 * words];
        random.nextBytes(options);
        final byte[] bytes = new byte[plain.length + options.length];
        System.arraycopy(plain, 0, bytes, 0, ip + 20);
        System.arraycopy(options, 0, bytes, ip + 20, options.length);
        System.arraycopy(plain, ip + 20, bytes, ip + 20 + options.length, plain.length - ip - 20);
        bytes[ip] = (byte) (0x40 | (5 + words));
        final int totalLength = (((bytes[ip + 2] & 0xFF) << 8) | (bytes[ip + 3] & 0xFF)) + options.length;
        bytes[ip + 2] = (byte) (totalLength >>> 8);
        bytes[ip + 3] = (byte) totalLength;
        return bytes;
    }

    /** The same bytes as a heap buffer, a slice with a non-zero array offset, a read-only view or a direct copy. */
    private static ByteBuffer buffer(final int kind, final byte[] bytes, final SplittableRandom random) {
        switch (kind) {
            case 0:
                return ByteBuffer.wrap(bytes);
            case 1: {
                final int shift = 1 + random.nextInt(13);
                final byte[] wider = new byte[bytes.length + shift];
                random.nextBytes(wider);
                System.arraycopy(bytes, 0, wider, shift, bytes.length);
                final ByteBuffer slice = ByteBuffer.wrap(wider, shift, bytes.length).slice();
                assertThat(slice.arrayOffset()).isEqualTo(shift);
                return slice;
            }
            case 2:
                return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
            default: {
                final ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
                direct.put(bytes).clear();
                return direct;
            }
        }
    }
}

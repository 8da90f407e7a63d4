package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.testing.RandomFrames;
import org.metaroce.mrct.testing.Seeds;

/**
 * The decoder reads a heap buffer's backing array directly and every other buffer through its accessors. Both ways
 * must give the same result for every frame, truncated or damaged, and neither may read past the frame it was given,
 * even when the bytes beyond it are there in the backing array and would complete it.
 */
class FrameDecoderBufferKindsTest {
    private final FrameDecoder decoder = new FrameDecoder();
    private final Encapsulation v4 = Encapsulation.ipv4("192.168.1.1", "192.168.1.2");

    /** Everything the decoder says about a frame, with offsets relative to the frame's first byte. */
    private static String outcome(final DecodedFrame f) {
        final StringBuilder text = new StringBuilder();
        text.append(f.status()).append(' ').append(f.version()).append(' ').append(f.frameLength());
        if (f.status() == DecodeStatus.MALFORMED) {
            final DecodeFailure failure = f.failure();
            text.append(" failure ").append(failure.error()).append(' ').append(failure.field()).append('@')
                .append(failure.offset()).append(": ").append(failure.detail());
        }
        for (final HeaderKind kind : HeaderKind.values()) {
            if (f.has(kind)) {
                text.append(' ').append(kind).append('@').append(f.offset(kind) - f.frameOffset());
            }
        }
        text.append(" ip ").append(f.ipHeaderLength()).append(" op ").append(f.opcode()).append(" tver ")
            .append(f.tver()).append(" layout ").append(HeaderLayout.describe(f.layout()));
        if (f.isRoce()) {
            text.append(" payload ").append(f.payloadOffset() - f.frameOffset()).append('+').append(f.payloadLength())
                .append(" pad ").append(f.padLength()).append(" end ").append(f.packetEnd() - f.frameOffset())
                .append(" icrc ").append(f.icrcValid()).append(" psn ").append(f.bth().psn());
        }
        return text.toString();
    }

    /** The frame's first {@code length} bytes decoded from a buffer of exactly those bytes. */
    private String alone(final byte[] bytes, final int length) {
        final byte[] copy = java.util.Arrays.copyOf(bytes, length);
        return outcome(decoder.decode(ByteBuffer.wrap(copy), 0, length));
    }

    private void assertSameEverywhere(final byte[] bytes, final int length, final SplittableRandom random) {
        final String expected = alone(bytes, length);
        final String what = "frame cut at " + length + " of " + bytes.length;

        // The whole frame in a heap buffer, decoding only its first `length` bytes: the rest is in the array.
        assertThat(outcome(decoder.decode(ByteBuffer.wrap(bytes), 0, length))).as(what).isEqualTo(expected);

        // Inside a larger backing array, behind a slice whose arrayOffset is not 0, with the rest of the frame and
        // random bytes after the slice's limit.
        final int before = 1 + random.nextInt(64);
        final byte[] big = new byte[before + bytes.length + 64];
        random.nextBytes(big);
        System.arraycopy(bytes, 0, big, before, bytes.length);
        final ByteBuffer slice = ByteBuffer.wrap(big, before - 1, length + 1).slice();
        assertThat(slice.arrayOffset()).isEqualTo(before - 1);
        assertThat(outcome(decoder.decode(slice, 1, length))).as(what + " in a slice").isEqualTo(expected);
        // The same slice asked for more than it holds: its limit cuts the frame.
        assertThat(outcome(decoder.decode(slice, 1, bytes.length))).as(what + " cut by the limit").isEqualTo(expected);

        // Read-only (no accessible array) and direct buffers go through the buffer's accessors.
        assertThat(outcome(decoder.decode(ByteBuffer.wrap(bytes).asReadOnlyBuffer(), 0, length)))
            .as(what + " read-only").isEqualTo(expected);
        final ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 16);
        direct.put(8, bytes);
        assertThat(outcome(decoder.decode(direct, 8, length))).as(what + " direct").isEqualTo(expected);
    }

    @Test
    void everyBufferKindGivesTheSameResultForEveryCut() {
        final SplittableRandom random = Seeds.random("FrameDecoderBufferKindsTest.cuts", 11L);
        final RandomFrames frames = new RandomFrames(random);
        for (int i = 0; i < 60; i++) {
            final byte[] bytes = frames.frame().build();
            for (int cut = 0; cut <= bytes.length; cut += 1 + random.nextInt(3)) {
                assertSameEverywhere(bytes, cut, random);
            }
            assertSameEverywhere(bytes, bytes.length, random);
        }
    }

    @Test
    void everyBufferKindGivesTheSameResultForDamagedFrames() {
        final SplittableRandom random = Seeds.random("FrameDecoderBufferKindsTest.damage", 12L);
        final RandomFrames frames = new RandomFrames(random);
        int roce = 0;
        int malformed = 0;
        for (int i = 0; i < 3_000; i++) {
            final byte[] bytes = frames.frame().build();
            final int flips = 1 + random.nextInt(4);
            for (int j = 0; j < flips; j++) {
                // damage the headers, where the decoder looks
                bytes[random.nextInt(Math.min(bytes.length, 90))] ^= (byte) (1 << random.nextInt(8));
            }
            assertSameEverywhere(bytes, bytes.length, random);
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            roce += f.isRoce() ? 1 : 0;
            malformed += f.status() == DecodeStatus.MALFORMED ? 1 : 0;
        }
        assertThat(roce).isPositive();
        assertThat(malformed).isPositive();
    }

    @Test
    void aFrameCutInsideALargerArrayIsTruncatedThoughTheArrayHoldsTheRest() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.RDMA_WRITE_ONLY).payload(new byte[256]).build();
        final byte[] big = new byte[bytes.length * 2];
        System.arraycopy(bytes, 0, big, 100, bytes.length);
        // the IPv4 total length announces bytes that lie in the array, after the frame's given length
        final DecodedFrame f = decoder.decode(ByteBuffer.wrap(big), 100, 60);
        assertThat(f.status()).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(f.error()).isEqualTo(DecodeError.TRUNCATED);
        assertThat(f.failure().field()).isEqualTo("ip.total_length");
        assertThat(f.failure().offset()).isEqualTo(14 + 2);
        // a slice that ends inside the BTH: the backing array has it all, the slice does not
        final ByteBuffer slice = ByteBuffer.wrap(big, 99, 1 + 14 + 20 + 8 + 6).slice();
        final DecodedFrame g = decoder.decode(slice, 1, bytes.length);
        assertThat(g.frameLength()).isEqualTo(14 + 20 + 8 + 6);
        assertThat(g.error()).isEqualTo(DecodeError.TRUNCATED);
        assertThat(g.failure().field()).isEqualTo("ip.total_length");
        // and the whole frame from the same array decodes, with a valid ICRC
        final DecodedFrame whole = decoder.decode(ByteBuffer.wrap(big, 99, bytes.length + 1).slice(), 1, bytes.length);
        assertThat(whole.isRoce()).isTrue();
        assertThat(whole.icrcValid()).isTrue();
        assertThat(whole.payloadLength()).isEqualTo(256);
    }

    @Test
    void aFrameStartingBeyondTheLimitIsTruncatedEverywhere() {
        final byte[] bytes = FrameBuilder.of(v4, Opcode.SEND_ONLY).payload(new byte[16]).build();
        final ByteBuffer limited = ByteBuffer.wrap(bytes).limit(10);
        final DecodedFrame f = decoder.decode(limited, 20, bytes.length);
        assertThat(f.error()).isEqualTo(DecodeError.TRUNCATED);
        assertThat(f.failure().field()).isEqualTo("eth");
        assertThat(f.frameLength()).isZero();
    }
}

package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameDecoder#decode(ByteBuffer, int, int, int)}: the ICRC computed before (on another thread, by another
 * decoder) is the one {@code computeIcrc} and {@code icrcValid} give, for that decode only; without one, the ICRC and
 * the IPv4 header checksum are computed at the first question of a decode and kept until the next decode.
 */
class FrameDecoderKnownIcrcTest {
    private static byte[] frame() {
        return FrameBuilder.of(Encapsulation.ipv4("10.0.0.1", "10.0.0.2"), Opcode.RDMA_WRITE_ONLY)
            .payload(new byte[64]).psn(7).destQp(0x22).with("reth.dmalen", 64).build();
    }

    @Test
    void theKnownIcrcIsUsedForThatDecodeOnly() {
        final byte[] bytes = frame();
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        final FrameDecoder other = new FrameDecoder();
        final int computed = other.decode(buffer, 0, bytes.length).computeIcrc();
        final FrameDecoder decoder = new FrameDecoder();
        final DecodedFrame right = decoder.decode(buffer, 0, bytes.length, computed);
        assertThat(right.computeIcrc()).isEqualTo(computed);
        assertThat(right.icrcValid()).isTrue();
        // a wrong value given is believed: the caller vouches for it
        final DecodedFrame believed = decoder.decode(buffer, 0, bytes.length, computed ^ 1);
        assertThat(believed.icrcValid()).isFalse();
        assertThat(believed.computeIcrc()).isEqualTo(computed ^ 1);
        // the next plain decode computes again
        assertThat(decoder.decode(buffer, 0, bytes.length).icrcValid()).isTrue();
        assertThat(decoder.decode(buffer, 0, bytes.length).computeIcrc()).isEqualTo(computed);
    }

    @Test
    void theCarriedIcrcAndIpChecksumGivenAreUsedForThatDecodeOnly() {
        final byte[] bytes = frame();
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        final DecodedFrame plain = new FrameDecoder().decode(buffer, 0, bytes.length);
        final int computed = plain.computeIcrc();
        final int carried = plain.icrcOnWire();
        assertThat(carried).isEqualTo(computed);
        final FrameDecoder decoder = new FrameDecoder();
        final DecodedFrame given = decoder.decode(buffer, 0, bytes.length, computed, carried, true);
        assertThat(given.icrcOnWire()).isEqualTo(carried);
        assertThat(given.icrcValid()).isTrue();
        assertThat(given.ipChecksumValid()).isTrue();
        // wrong values given are believed, as the computed ICRC is
        final DecodedFrame believed = decoder.decode(buffer, 0, bytes.length, computed, carried ^ 4, false);
        assertThat(believed.icrcOnWire()).isEqualTo(carried ^ 4);
        assertThat(believed.icrcValid()).isFalse();
        assertThat(believed.ipChecksumValid()).isFalse();
        // the next decode reads the frame's bytes again
        final DecodedFrame again = decoder.decode(buffer, 0, bytes.length, computed);
        assertThat(again.icrcOnWire()).isEqualTo(carried);
        assertThat(again.ipChecksumValid()).isTrue();
        assertThat(decoder.decode(buffer, 0, bytes.length).icrcOnWire()).isEqualTo(carried);
        // a frame that is not RoCE ignores them
        final byte[] other = new byte[60];
        final DecodedFrame none = decoder.decode(ByteBuffer.wrap(other), 0, other.length, 1, 2, false);
        assertThat(none.isRoce()).isFalse();
    }

    @Test
    void theChecksumsAreJudgedOncePerDecodeAndAgainAtTheNext() {
        final byte[] bytes = frame();
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        final FrameDecoder decoder = new FrameDecoder();
        final DecodedFrame d = decoder.decode(buffer, 0, bytes.length);
        final int computed = d.computeIcrc();
        assertThat(d.icrcValid()).isTrue();
        assertThat(d.ipChecksumValid()).isTrue();
        final int ip = d.offset(HeaderKind.IPV4);
        final int payload = d.payloadOffset();
        // bytes changed under a decode: its answers stay those of the bytes it first judged
        bytes[payload] ^= 1;
        bytes[ip + 8] ^= 1; // ip.ttl
        assertThat(d.computeIcrc()).isEqualTo(computed);
        assertThat(d.ipChecksumValid()).isTrue();
        // the next decode judges the bytes as they are
        final DecodedFrame again = decoder.decode(buffer, 0, bytes.length);
        assertThat(again.computeIcrc()).isNotEqualTo(computed);
        assertThat(again.icrcValid()).isFalse();
        assertThat(again.ipChecksumValid()).isFalse();
    }

    @Test
    void aFrameThatIsNotRoceIgnoresIt() {
        final byte[] bytes = new byte[60];
        final DecodedFrame d = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length, 42);
        assertThat(d.isRoce()).isFalse();
    }
}

package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameDecoder#decode(ByteBuffer, int, int, int)}: the ICRC computed before (on another thread, by another
 * decoder) is the one {@code computeIcrc} and {@code icrcValid} give, for that decode only.
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
    void aFrameThatIsNotRoceIgnoresIt() {
        final byte[] bytes = new byte[60];
        final DecodedFrame d = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length, 42);
        assertThat(d.isRoce()).isFalse();
    }
}

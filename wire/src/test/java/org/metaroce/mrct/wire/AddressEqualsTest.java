package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** {@link DecodedFrame#ipSourceEquals} and {@link DecodedFrame#ipDestinationEquals} agree with the copied addresses. */
class AddressEqualsTest {
    private final FrameDecoder decoder = new FrameDecoder();

    private DecodedFrame decode(final Encapsulation e) {
        final byte[] frame = FrameBuilder.of(e, Opcode.SEND_ONLY).payload(new byte[8]).build();
        // inside a larger array, at an offset, so the comparison must use the frame's own offsets
        final byte[] backing = new byte[frame.length + 16];
        System.arraycopy(frame, 0, backing, 7, frame.length);
        return decoder.decode(ByteBuffer.wrap(backing), 7, frame.length);
    }

    private static void check(final DecodedFrame f) {
        final byte[] source = f.ipSource();
        final byte[] destination = f.ipDestination();
        assertThat(f.ipSourceEquals(source)).isTrue();
        assertThat(f.ipDestinationEquals(destination)).isTrue();
        assertThat(f.ipSourceEquals(destination)).isFalse();
        assertThat(f.ipDestinationEquals(source)).isFalse();
        for (int i = 0; i < source.length; i++) {
            final byte[] other = source.clone();
            other[i] ^= 1;
            assertThat(f.ipSourceEquals(other)).as("byte %d differs", i).isFalse();
        }
        assertThat(f.ipSourceEquals(new byte[source.length == 4 ? 16 : 4])).as("another family").isFalse();
        assertThat(f.ipSourceEquals(null)).isFalse();
        assertThat(f.ipDestinationEquals(null)).isFalse();
    }

    @Test
    void ipv4() {
        check(decode(Encapsulation.ipv4("192.0.2.1", "192.0.2.2")));
    }

    @Test
    void ipv6() {
        check(decode(Encapsulation.ipv6("2001:db8::1", "2001:db8::2")));
    }
}

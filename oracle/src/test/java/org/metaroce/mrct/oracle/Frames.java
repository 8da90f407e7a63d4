package org.metaroce.mrct.oracle;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/** Hand-built frames from a device (MAC {@link #DEVICE}) to its peer (MAC {@link #PEER}) for the oracle's tests. */
final class Frames {
    static final long DEVICE = 0x02_00_00_00_00_0DL;
    static final long PEER = 0x02_00_00_00_00_0AL;
    static final Encapsulation V4 = Encapsulation.ipv4("198.51.100.2", "198.51.100.1").withMacs(DEVICE, PEER);
    static final Encapsulation V6 = Encapsulation.ipv6("2001:db8::2", "2001:db8::1").withMacs(DEVICE, PEER);

    private Frames() {
    }

    static FrameBuilder of(final Opcode opcode) {
        return FrameBuilder.of(V4, opcode);
    }

    /** A SEND ONLY with 8 payload bytes. */
    static FrameBuilder send() {
        return of(Opcode.SEND_ONLY).payload(new byte[8]);
    }

    /** An ACK of ePSN 100: bth.psn 99, sacketh.base 100. */
    static FrameBuilder ack() {
        return of(Opcode.ACKNOWLEDGE).psn(99).with("sacketh.base", 100);
    }

    static DecodedFrame decode(final FrameBuilder builder) {
        return decode(builder.build());
    }

    static DecodedFrame decode(final byte[] bytes) {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }
}

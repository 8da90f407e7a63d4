package org.metaroce.mrct.bench;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Icrc;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.header.BthFlyweight;
import org.metaroce.mrct.wire.header.RethFlyweight;

/**
 * The frames every benchmark works on: RoCEv2 (TVer 0) RDMA WRITE ONLY over untagged IPv4, BTH + RETH + 1 KiB of
 * payload + ICRC, 1098 bytes on the wire without FCS. Each is distinct through its PSN, virtual address and payload
 * bytes. Two ways to build them, which give the same bytes: {@link #write} (allocation-free, flyweights into a caller's
 * buffer, as the reference NIC's hot path does) and {@link #builder} ({@link FrameBuilder}, the crafting path).
 */
public final class BenchFrames {
    /** Payload bytes per frame. */
    public static final int PAYLOAD = 1024;
    /** Destination QP of every frame. */
    public static final int QPN = 0x000123;
    /** R_Key of every frame. */
    public static final int RKEY = 0x00C0FFEE;
    /** Virtual address of frame 0; frame n writes PAYLOAD bytes further. */
    public static final long BASE_VA = 0x00007F0000000000L;
    /** The encapsulation of every frame. */
    public static final Encapsulation ENCAPSULATION = Encapsulation.ipv4("192.0.2.1", "192.0.2.2");
    /** BTH, RETH, payload and ICRC. */
    public static final int TRANSPORT_LENGTH = BthFlyweight.LENGTH + HeaderKind.RETH.length() + PAYLOAD + 4;
    /** Bytes of one frame. */
    public static final int FRAME_LENGTH = ENCAPSULATION.headerLength() + TRANSPORT_LENGTH;

    private final BthFlyweight bth = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final Icrc icrc = new Icrc();

    /** The payload of frame {@code n}: bytes that differ from frame to frame. */
    public static byte[] payload(final int n) {
        final byte[] payload = new byte[PAYLOAD];
        fillPayload(payload, n);
        return payload;
    }

    /** Fills {@code payload} with the bytes of frame {@code n}. */
    public static void fillPayload(final byte[] payload, final int n) {
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (n * 31 + i);
        }
    }

    /**
     * Writes frame {@code n} (PSN {@code n}, VA {@code BASE_VA + n * PAYLOAD}) at absolute index {@code offset} of
     * {@code buffer} without allocating: the lower headers, the BTH and RETH through their flyweights, the payload,
     * then the ICRC. Returns the frame's length.
     */
    public int write(final ByteBuffer buffer, final int offset, final int n, final byte[] payload) {
        final int bthAt = ENCAPSULATION.write(buffer, offset, TRANSPORT_LENGTH, 2);
        bth.wrap(buffer, bthAt).opcode(Opcode.RDMA_WRITE_ONLY.code()).flags(false, false, 0, 0).pkey(0xFFFF)
            .fecnBecn(false, false).destQp(QPN).ackReq(true).psn(n & 0xFFFFFF);
        reth.wrap(buffer, bthAt + BthFlyweight.LENGTH).va(BASE_VA + (long) n * PAYLOAD).rkey(RKEY)
            .dmaLength(PAYLOAD);
        buffer.put(bthAt + BthFlyweight.LENGTH + RethFlyweight.LENGTH, payload);
        ENCAPSULATION.sealIcrc(icrc, buffer, offset, TRANSPORT_LENGTH);
        return FRAME_LENGTH;
    }

    /** The crafting-path builder of frame {@code n}: the same fields as {@link #write}. */
    public static FrameBuilder builder(final int n, final byte[] payload) {
        return FrameBuilder.of(ENCAPSULATION, Opcode.RDMA_WRITE_ONLY).tver(0).payload(payload).ackReq(true)
            .psn(n).destQp(QPN).with("reth.va", BASE_VA + (long) n * PAYLOAD).with("reth.rkey", RKEY)
            .with("reth.dmalen", PAYLOAD);
    }

    /** {@code count} distinct frames back to back in one heap buffer, frame {@code i} at {@code i * FRAME_LENGTH}. */
    public static ByteBuffer ring(final int count) {
        final ByteBuffer buffer = ByteBuffer.allocate(count * FRAME_LENGTH);
        final BenchFrames frames = new BenchFrames();
        final byte[] payload = new byte[PAYLOAD];
        for (int i = 0; i < count; i++) {
            fillPayload(payload, i);
            frames.write(buffer, i * FRAME_LENGTH, i, payload);
        }
        return buffer;
    }
}

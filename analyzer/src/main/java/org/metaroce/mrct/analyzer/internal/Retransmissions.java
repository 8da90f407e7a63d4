package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;

/**
 * Tells whether a retransmission repeats its original (MR-RTX-006) without keeping the original: the ICRC covers
 * every byte a retransmission must repeat and, of the fields section 13.7 lets it change, all but three (the IPv4
 * identification, the UDP source port and AckReq; ECN, the flow label and the IPv4 checksum are masked). So a first
 * transmission costs only its ICRC and those three fields, kept per PSN; a retransmission is copied, given the
 * original's three fields back, and its ICRC computed again: equal to the original's exactly when everything else is
 * the same, payload included.
 */
final class Retransmissions {
    private final FrameDecoder decoder = new FrameDecoder();
    private ByteBuffer scratch = ByteBuffer.allocate(1 << 12);

    /** The fields of {@code fr} that a retransmission may change and the ICRC covers, packed for the ring. */
    static long variant(final Frame fr) {
        final DecodedFrame d = fr.decoded;
        final int id = d.has(HeaderKind.IPV4)
            ? BigEndian.u16(fr.buffer, d.offset(HeaderKind.IPV4) + Ipv4Flyweight.IDENTIFICATION_OFFSET) : 0;
        return (long) id << 16 | fr.sourcePort | (fr.ackReq ? 1L << 32 : 0);
    }

    /**
     * True when {@code fr}, with the original's variant fields put back, has the original's ICRC. Both ICRCs must be
     * right for the comparison to mean anything (the caller checks).
     */
    boolean repeats(final Frame fr, final int originalIcrc, final long originalVariant) {
        final DecodedFrame d = fr.decoded;
        final int length = d.frameLength();
        if (scratch.capacity() < length) {
            scratch = ByteBuffer.allocate(Integer.highestOneBit(length) << 1);
        }
        scratch.put(0, fr.buffer, d.frameOffset(), length);
        final int base = d.frameOffset();
        if (d.has(HeaderKind.IPV4)) {
            BigEndian.u16(scratch, d.offset(HeaderKind.IPV4) - base + Ipv4Flyweight.IDENTIFICATION_OFFSET,
                (int) (originalVariant >>> 16) & 0xFFFF);
        }
        BigEndian.u16(scratch, d.offset(HeaderKind.UDP) - base, (int) originalVariant & 0xFFFF);
        final int ackAt = d.offset(HeaderKind.BTH) - base + 8;
        final int ack = BigEndian.u8(scratch, ackAt);
        BigEndian.u8(scratch, ackAt, (originalVariant & 1L << 32) != 0 ? ack | 0x80 : ack & 0x7F);
        final DecodedFrame copy = decoder.decode(scratch, 0, length);
        return copy.isRoce() && copy.computeIcrc() == originalIcrc;
    }
}

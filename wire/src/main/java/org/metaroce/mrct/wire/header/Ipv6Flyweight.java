package org.metaroce.mrct.wire.header;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.BigEndian;

/**
 * IPv6 header (RFC 8200); also the InfiniBand GRH of RoCEv1 frames, which has the same layout (IPVer 6, TClass,
 * FlowLabel, PayLen, NxtHdr 0x1B, HopLmt, SGID, DGID).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |Version|   DSCP    |ECN|              Flow Label               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Payload Length        |  Next Header  |   Hop Limit   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Source Address (128)                          |
 * |                 Destination Address (128)                     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class Ipv6Flyweight extends HeaderFlyweight<Ipv6Flyweight> {
    public static final int VERSION_CLASS_FLOW_OFFSET = 0;
    public static final int PAYLOAD_LENGTH_OFFSET = VERSION_CLASS_FLOW_OFFSET + 4;
    public static final int NEXT_HEADER_OFFSET = PAYLOAD_LENGTH_OFFSET + 2;
    public static final int HOP_LIMIT_OFFSET = NEXT_HEADER_OFFSET + 1;
    public static final int SOURCE_OFFSET = HOP_LIMIT_OFFSET + 1;
    public static final int ADDRESS_LENGTH = 16;
    public static final int DESTINATION_OFFSET = SOURCE_OFFSET + ADDRESS_LENGTH;
    public static final int LENGTH = DESTINATION_OFFSET + ADDRESS_LENGTH;
    public static final int NEXT_HEADER_UDP = 17;
    /** GRH next header value announcing a BTH (RoCEv1). */
    public static final int NEXT_HEADER_BTH = 0x1B;

    private int word0() {
        return BigEndian.i32(buffer, offset + VERSION_CLASS_FLOW_OFFSET);
    }

    public int version() {
        return word0() >>> 28;
    }

    public int trafficClass() {
        return (word0() >>> 20) & 0xFF;
    }

    public int dscp() {
        return trafficClass() >>> 2;
    }

    public int ecn() {
        return trafficClass() & 0x3;
    }

    public int flowLabel() {
        return word0() & 0xFFFFF;
    }

    public Ipv6Flyweight versionClassFlow(final int version, final int dscp, final int ecn, final int flowLabel) {
        BigEndian.i32(buffer, offset + VERSION_CLASS_FLOW_OFFSET,
            ((version & 0xF) << 28) | ((dscp & 0x3F) << 22) | ((ecn & 0x3) << 20) | (flowLabel & 0xFFFFF));
        return this;
    }

    public int payloadLength() {
        return BigEndian.u16(buffer, offset + PAYLOAD_LENGTH_OFFSET);
    }

    public Ipv6Flyweight payloadLength(final int length) {
        BigEndian.u16(buffer, offset + PAYLOAD_LENGTH_OFFSET, length);
        return this;
    }

    public int nextHeader() {
        return BigEndian.u8(buffer, offset + NEXT_HEADER_OFFSET);
    }

    public Ipv6Flyweight nextHeader(final int nextHeader) {
        BigEndian.u8(buffer, offset + NEXT_HEADER_OFFSET, nextHeader);
        return this;
    }

    public int hopLimit() {
        return BigEndian.u8(buffer, offset + HOP_LIMIT_OFFSET);
    }

    public Ipv6Flyweight hopLimit(final int hopLimit) {
        BigEndian.u8(buffer, offset + HOP_LIMIT_OFFSET, hopLimit);
        return this;
    }

    /** Copies the source address into {@code dst[dstOffset..dstOffset+16)}. */
    public void source(final byte[] dst, final int dstOffset) {
        buffer.get(offset + SOURCE_OFFSET, dst, dstOffset, ADDRESS_LENGTH);
    }

    public Ipv6Flyweight source(final byte[] address) {
        buffer.put(offset + SOURCE_OFFSET, address, 0, ADDRESS_LENGTH);
        return this;
    }

    /** Copies the destination address into {@code dst[dstOffset..dstOffset+16)}. */
    public void destination(final byte[] dst, final int dstOffset) {
        buffer.get(offset + DESTINATION_OFFSET, dst, dstOffset, ADDRESS_LENGTH);
    }

    public Ipv6Flyweight destination(final byte[] address) {
        buffer.put(offset + DESTINATION_OFFSET, address, 0, ADDRESS_LENGTH);
        return this;
    }

    /** The wrapped buffer, for callers that compare addresses in place. */
    public ByteBuffer bytes() {
        return buffer;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

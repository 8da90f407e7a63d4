package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Placement Extended Transport Header, 12 bytes, right after the BTH in every MetaRoCE v1 request and read response
 * (MetaRoCE v1 section HDR). It makes every packet placeable on its own.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     MSN (24)                  |F|L|  resv 0   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Offset (32)                           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     RSN (24)                  |   Reserved    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * MSN numbers the requester's messages from 0; F and L mark the message's first and last packet; Offset is the byte
 * offset of this packet's payload in the message; RSN numbers the receive WQE a SEND or WRITE WITH IMMEDIATE
 * consumes.
 */
public final class PlethFlyweight extends HeaderFlyweight<PlethFlyweight> {
    public static final int MSN_OFFSET = 0;
    public static final int FLAGS_OFFSET = MSN_OFFSET + 3;
    public static final int MESSAGE_OFFSET_OFFSET = FLAGS_OFFSET + 1;
    public static final int RSN_OFFSET = MESSAGE_OFFSET_OFFSET + 4;
    public static final int RESERVED_OFFSET = RSN_OFFSET + 3;
    public static final int LENGTH = RESERVED_OFFSET + 1;
    /** F: first packet of the message. */
    public static final int FLAG_FIRST = 0x80;
    /** L: last packet of the message. */
    public static final int FLAG_LAST = 0x40;

    public int msn() {
        return BigEndian.u24(buffer, offset + MSN_OFFSET);
    }

    public PlethFlyweight msn(final int msn) {
        BigEndian.u24(buffer, offset + MSN_OFFSET, msn);
        return this;
    }

    /** The whole flags byte (F, L and six reserved bits). */
    public int flags() {
        return BigEndian.u8(buffer, offset + FLAGS_OFFSET);
    }

    public PlethFlyweight flags(final int flags) {
        BigEndian.u8(buffer, offset + FLAGS_OFFSET, flags);
        return this;
    }

    public boolean first() {
        return (flags() & FLAG_FIRST) != 0;
    }

    public boolean last() {
        return (flags() & FLAG_LAST) != 0;
    }

    /** Byte offset of the payload within the message (unsigned 32 bits). */
    public long messageOffset() {
        return BigEndian.u32(buffer, offset + MESSAGE_OFFSET_OFFSET);
    }

    public PlethFlyweight messageOffset(final long messageOffset) {
        BigEndian.u32(buffer, offset + MESSAGE_OFFSET_OFFSET, messageOffset);
        return this;
    }

    public int rsn() {
        return BigEndian.u24(buffer, offset + RSN_OFFSET);
    }

    public PlethFlyweight rsn(final int rsn) {
        BigEndian.u24(buffer, offset + RSN_OFFSET, rsn);
        return this;
    }

    public int reserved() {
        return BigEndian.u8(buffer, offset + RESERVED_OFFSET);
    }

    public PlethFlyweight reserved(final int value) {
        BigEndian.u8(buffer, offset + RESERVED_OFFSET, value);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Selective Acknowledgement Extended Transport Header, 12 bytes, after AETH in every MetaRoCE v1 ACKNOWLEDGE.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Reserved    |                  Base PSN (24)                |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Bitmap (64)                           |
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * Base is the responder's expected PSN; bit i of the bitmap (i = 0 is the most significant bit) is set when PSN
 * base + i has arrived.
 */
public final class SackethFlyweight extends HeaderFlyweight<SackethFlyweight> {
    public static final int RESERVED_OFFSET = 0;
    public static final int BASE_PSN_OFFSET = RESERVED_OFFSET + 1;
    public static final int BITMAP_OFFSET = BASE_PSN_OFFSET + 3;
    public static final int LENGTH = BITMAP_OFFSET + 8;
    /** Number of PSNs the bitmap covers. */
    public static final int BITMAP_BITS = 64;

    public int reserved() {
        return BigEndian.u8(buffer, offset + RESERVED_OFFSET);
    }

    public SackethFlyweight reserved(final int value) {
        BigEndian.u8(buffer, offset + RESERVED_OFFSET, value);
        return this;
    }

    public int basePsn() {
        return BigEndian.u24(buffer, offset + BASE_PSN_OFFSET);
    }

    public SackethFlyweight basePsn(final int psn) {
        BigEndian.u24(buffer, offset + BASE_PSN_OFFSET, psn);
        return this;
    }

    public long bitmap() {
        return BigEndian.i64(buffer, offset + BITMAP_OFFSET);
    }

    public SackethFlyweight bitmap(final long bitmap) {
        BigEndian.i64(buffer, offset + BITMAP_OFFSET, bitmap);
        return this;
    }

    /** True when bit {@code i} (PSN base + i) is set. */
    public boolean isSet(final int i) {
        return isSet(bitmap(), i);
    }

    /** Bit {@code i} of a bitmap value, most significant first. */
    public static boolean isSet(final long bitmap, final int i) {
        return i >= 0 && i < BITMAP_BITS && (bitmap & (Long.MIN_VALUE >>> i)) != 0;
    }

    /** The bitmap value with bit {@code i} set. */
    public static long withBit(final long bitmap, final int i) {
        return bitmap | (Long.MIN_VALUE >>> i);
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

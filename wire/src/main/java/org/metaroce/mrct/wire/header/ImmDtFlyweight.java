package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Immediate Data Extended Transport Header, 4 bytes, opaque and carried in network order.
 *
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                      Immediate Data (32)                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class ImmDtFlyweight extends HeaderFlyweight<ImmDtFlyweight> {
    public static final int IMMEDIATE_OFFSET = 0;
    public static final int LENGTH = IMMEDIATE_OFFSET + 4;

    public int immediate() {
        return BigEndian.i32(buffer, offset + IMMEDIATE_OFFSET);
    }

    public ImmDtFlyweight immediate(final int value) {
        BigEndian.i32(buffer, offset + IMMEDIATE_OFFSET, value);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

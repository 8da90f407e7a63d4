package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Invalidate Extended Transport Header, 4 bytes: the R_Key a SEND WITH INVALIDATE invalidates.
 *
 * <pre>
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          R_Key (32)                           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class IethFlyweight extends HeaderFlyweight<IethFlyweight> {
    public static final int RKEY_OFFSET = 0;
    public static final int LENGTH = RKEY_OFFSET + 4;

    public int rkey() {
        return BigEndian.i32(buffer, offset + RKEY_OFFSET);
    }

    public IethFlyweight rkey(final int rkey) {
        BigEndian.i32(buffer, offset + RKEY_OFFSET, rkey);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

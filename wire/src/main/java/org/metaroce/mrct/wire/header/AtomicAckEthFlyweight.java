package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Atomic Acknowledge Extended Transport Header, 8 bytes: the original remote data of an atomic.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Original Remote Data (64)                    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class AtomicAckEthFlyweight extends HeaderFlyweight<AtomicAckEthFlyweight> {
    public static final int ORIGINAL_OFFSET = 0;
    public static final int LENGTH = ORIGINAL_OFFSET + 8;

    public long original() {
        return BigEndian.i64(buffer, offset + ORIGINAL_OFFSET);
    }

    public AtomicAckEthFlyweight original(final long value) {
        BigEndian.i64(buffer, offset + ORIGINAL_OFFSET, value);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

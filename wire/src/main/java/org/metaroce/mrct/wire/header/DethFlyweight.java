package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Datagram Extended Transport Header, 8 bytes (UD only; decoded, not used by MetaRoCE v1).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                          Q_Key (32)                           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Reserved    |                  SrcQP (24)                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class DethFlyweight extends HeaderFlyweight<DethFlyweight> {
    public static final int QKEY_OFFSET = 0;
    public static final int RESERVED_OFFSET = QKEY_OFFSET + 4;
    public static final int SRC_QP_OFFSET = RESERVED_OFFSET + 1;
    public static final int LENGTH = SRC_QP_OFFSET + 3;

    public int qkey() {
        return BigEndian.i32(buffer, offset + QKEY_OFFSET);
    }

    public DethFlyweight qkey(final int qkey) {
        BigEndian.i32(buffer, offset + QKEY_OFFSET, qkey);
        return this;
    }

    public int srcQp() {
        return BigEndian.u24(buffer, offset + SRC_QP_OFFSET);
    }

    public DethFlyweight srcQp(final int qpn) {
        BigEndian.u24(buffer, offset + SRC_QP_OFFSET, qpn);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

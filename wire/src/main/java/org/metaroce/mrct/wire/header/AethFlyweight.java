package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.BigEndian;

/**
 * ACK Extended Transport Header, 4 bytes.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |   Syndrome    |                     MSN (24)                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * See {@link AethSyndrome} for the syndrome encoding; MSN counts the responder's completed messages modulo 2^24.
 */
public final class AethFlyweight extends HeaderFlyweight<AethFlyweight> {
    public static final int SYNDROME_OFFSET = 0;
    public static final int MSN_OFFSET = SYNDROME_OFFSET + 1;
    public static final int LENGTH = MSN_OFFSET + 3;

    public int syndromeValue() {
        return BigEndian.u8(buffer, offset + SYNDROME_OFFSET);
    }

    public AethSyndrome syndrome() {
        return AethSyndrome.valueOf(syndromeValue());
    }

    public AethFlyweight syndrome(final int syndrome) {
        BigEndian.u8(buffer, offset + SYNDROME_OFFSET, syndrome);
        return this;
    }

    public int msn() {
        return BigEndian.u24(buffer, offset + MSN_OFFSET);
    }

    public AethFlyweight msn(final int msn) {
        BigEndian.u24(buffer, offset + MSN_OFFSET, msn);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

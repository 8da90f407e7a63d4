package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Atomic Extended Transport Header, 28 bytes (COMPARE SWAP, FETCH ADD).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Virtual Address (64)                      |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         R_Key (32)                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                   Swap or Add Data (64)                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Compare Data (64)                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class AtomicEthFlyweight extends HeaderFlyweight<AtomicEthFlyweight> {
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = VA_OFFSET + 8;
    public static final int SWAP_ADD_OFFSET = RKEY_OFFSET + 4;
    public static final int COMPARE_OFFSET = SWAP_ADD_OFFSET + 8;
    public static final int LENGTH = COMPARE_OFFSET + 8;

    public long va() {
        return BigEndian.i64(buffer, offset + VA_OFFSET);
    }

    public AtomicEthFlyweight va(final long va) {
        BigEndian.i64(buffer, offset + VA_OFFSET, va);
        return this;
    }

    public int rkey() {
        return BigEndian.i32(buffer, offset + RKEY_OFFSET);
    }

    public AtomicEthFlyweight rkey(final int rkey) {
        BigEndian.i32(buffer, offset + RKEY_OFFSET, rkey);
        return this;
    }

    /** The swap value (COMPARE SWAP) or the addend (FETCH ADD). */
    public long swapAdd() {
        return BigEndian.i64(buffer, offset + SWAP_ADD_OFFSET);
    }

    public AtomicEthFlyweight swapAdd(final long value) {
        BigEndian.i64(buffer, offset + SWAP_ADD_OFFSET, value);
        return this;
    }

    public long compare() {
        return BigEndian.i64(buffer, offset + COMPARE_OFFSET);
    }

    public AtomicEthFlyweight compare(final long value) {
        BigEndian.i64(buffer, offset + COMPARE_OFFSET, value);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

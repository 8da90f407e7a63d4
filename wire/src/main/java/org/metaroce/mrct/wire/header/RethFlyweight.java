package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * RDMA Extended Transport Header, 16 bytes. With TVer 1 it is carried by every RDMA WRITE packet, identical across
 * the message.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                     Virtual Address (64)                      |
 * +                                                               +
 * |                                                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         R_Key (32)                            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       DMA Length (32)                         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class RethFlyweight extends HeaderFlyweight<RethFlyweight> {
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = VA_OFFSET + 8;
    public static final int DMA_LENGTH_OFFSET = RKEY_OFFSET + 4;
    public static final int LENGTH = DMA_LENGTH_OFFSET + 4;

    public long va() {
        return BigEndian.i64(buffer, offset + VA_OFFSET);
    }

    public RethFlyweight va(final long va) {
        BigEndian.i64(buffer, offset + VA_OFFSET, va);
        return this;
    }

    public int rkey() {
        return BigEndian.i32(buffer, offset + RKEY_OFFSET);
    }

    public RethFlyweight rkey(final int rkey) {
        BigEndian.i32(buffer, offset + RKEY_OFFSET, rkey);
        return this;
    }

    /** DMA length, unsigned 32 bits. */
    public long dmaLength() {
        return BigEndian.u32(buffer, offset + DMA_LENGTH_OFFSET);
    }

    public RethFlyweight dmaLength(final long length) {
        BigEndian.u32(buffer, offset + DMA_LENGTH_OFFSET, length);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

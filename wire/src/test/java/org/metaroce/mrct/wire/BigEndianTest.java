package org.metaroce.mrct.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The reads of {@link BigEndian} (and {@link LittleEndian#i32}) give the same values from every kind of buffer (a heap buffer is read from its array,
 * others through the buffer), and refuse the same indices: those outside the buffer's limit.
 */
class BigEndianTest {
    private static ByteBuffer[] kinds(final byte[] bytes, final int limit) {
        final ByteBuffer heap = ByteBuffer.wrap(bytes.clone()).limit(limit);
        final ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).clear().limit(limit);
        final ByteBuffer readOnly = ByteBuffer.wrap(bytes.clone()).asReadOnlyBuffer().limit(limit);
        // a slice: its array starts before index 0 (arrayOffset 3)
        final byte[] wider = new byte[bytes.length + 3];
        System.arraycopy(bytes, 0, wider, 3, bytes.length);
        final ByteBuffer slice = ByteBuffer.wrap(wider).position(3).slice().limit(limit);
        return new ByteBuffer[] {heap, direct, readOnly, slice};
    }

    @Test
    void everyKindOfBufferReadsTheSameBigEndianValues() {
        final Random random = new Random(8);
        final byte[] bytes = new byte[64];
        random.nextBytes(bytes);
        final ByteBuffer[] buffers = kinds(bytes, 60);
        for (int i = 0; i <= 52; i++) {
            final long expected = (bytes[i] & 0xFFL) << 56 | (bytes[i + 1] & 0xFFL) << 48 | (bytes[i + 2] & 0xFFL) << 40
                | (bytes[i + 3] & 0xFFL) << 32 | (bytes[i + 4] & 0xFFL) << 24 | (bytes[i + 5] & 0xFFL) << 16
                | (bytes[i + 6] & 0xFFL) << 8 | bytes[i + 7] & 0xFFL;
            for (final ByteBuffer b : buffers) {
                assertEquals(expected, BigEndian.i64(b, i), "i64 at " + i + " of " + b);
                assertEquals((int) (expected >>> 32), BigEndian.i32(b, i), "i32 at " + i + " of " + b);
                assertEquals(expected >>> 32, BigEndian.u32(b, i), "u32 at " + i + " of " + b);
                assertEquals((int) (expected >>> 40), BigEndian.u24(b, i), "u24 at " + i + " of " + b);
                assertEquals((int) (expected >>> 48), BigEndian.u16(b, i), "u16 at " + i + " of " + b);
                assertEquals((int) (expected >>> 56), BigEndian.u8(b, i), "u8 at " + i + " of " + b);
                assertEquals(Integer.reverseBytes((int) (expected >>> 32)), LittleEndian.i32(b, i),
                    "little-endian i32 at " + i + " of " + b);
            }
        }
    }

    @Test
    void everyKindOfBufferRefusesAReadPastItsLimitOrBeforeItsStart() {
        final ByteBuffer[] buffers = kinds(new byte[64], 60);
        for (final ByteBuffer b : buffers) {
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.u16(b, 59), "u16 across the limit " + b);
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.u24(b, 58), "u24 across the limit " + b);
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.i32(b, 57), "i32 across the limit " + b);
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.i64(b, 53), "i64 across the limit " + b);
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.u8(b, 60), "u8 at the limit " + b);
            assertThrows(IndexOutOfBoundsException.class, () -> LittleEndian.i32(b, 57), "LE i32 across the limit");
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.u8(b, -1), "u8 at -1 " + b);
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.u16(b, -1), "u16 at -1 " + b);
            assertThrows(IndexOutOfBoundsException.class, () -> BigEndian.i32(b, -1), "i32 at -1 " + b);
            assertEquals(0, BigEndian.u16(b, 58));
            assertEquals(0, BigEndian.i32(b, 56));
            assertEquals(0, BigEndian.i64(b, 52));
        }
    }
}

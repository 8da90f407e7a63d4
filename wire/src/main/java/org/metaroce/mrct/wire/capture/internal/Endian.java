package org.metaroce.mrct.wire.capture.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Multi-byte field access in a byte order chosen at each call, independent of the buffer's own
 * {@link ByteBuffer#order()}. Capture files carry their byte order in their magic numbers (pcap) or per section
 * (pcapng), so every accessor takes {@code bigEndian}: {@code true} for big-endian, {@code false} for little-endian.
 * Absolute indices only; the buffer's position and limit are never read or changed.
 */
final class Endian {
    private static final VarHandle SHORT_BE =
            MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT_LE =
            MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_BE = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Endian() {
    }

    /** Unsigned 8-bit value at {@code index}. */
    static int u8(final ByteBuffer buffer, final int index) {
        return buffer.get(index) & 0xFF;
    }

    /** Unsigned 16-bit value at {@code index} in the given byte order. */
    static int u16(final ByteBuffer buffer, final int index, final boolean bigEndian) {
        final short value = bigEndian ? (short) SHORT_BE.get(buffer, index) : (short) SHORT_LE.get(buffer, index);
        return value & 0xFFFF;
    }

    /** 32-bit value at {@code index} in the given byte order, as a Java int (see {@link #u32} for unsigned). */
    static int i32(final ByteBuffer buffer, final int index, final boolean bigEndian) {
        return bigEndian ? (int) INT_BE.get(buffer, index) : (int) INT_LE.get(buffer, index);
    }

    /** Unsigned 32-bit value at {@code index} in the given byte order. */
    static long u32(final ByteBuffer buffer, final int index, final boolean bigEndian) {
        return i32(buffer, index, bigEndian) & 0xFFFF_FFFFL;
    }

    /** 64-bit value at {@code index} in the given byte order. */
    static long i64(final ByteBuffer buffer, final int index, final boolean bigEndian) {
        return bigEndian ? (long) LONG_BE.get(buffer, index) : (long) LONG_LE.get(buffer, index);
    }

    /** Writes the low 16 bits of {@code value} at {@code index} in the given byte order. */
    static void put16(final ByteBuffer buffer, final int index, final int value, final boolean bigEndian) {
        if (bigEndian) {
            SHORT_BE.set(buffer, index, (short) value);
        } else {
            SHORT_LE.set(buffer, index, (short) value);
        }
    }

    /** Writes {@code value} at {@code index} in the given byte order. */
    static void put32(final ByteBuffer buffer, final int index, final int value, final boolean bigEndian) {
        if (bigEndian) {
            INT_BE.set(buffer, index, value);
        } else {
            INT_LE.set(buffer, index, value);
        }
    }

    /** Writes {@code value} at {@code index} in the given byte order. */
    static void put64(final ByteBuffer buffer, final int index, final long value, final boolean bigEndian) {
        if (bigEndian) {
            LONG_BE.set(buffer, index, value);
        } else {
            LONG_LE.set(buffer, index, value);
        }
    }
}

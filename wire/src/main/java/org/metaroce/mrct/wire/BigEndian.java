package org.metaroce.mrct.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Big-endian (network order) accessors over absolute buffer indices, independent of the buffer's own
 * {@link ByteBuffer#order()}. Every multi-byte wire field in mrct is read and written through this class or through
 * {@link LittleEndian} (the ICRC), so the byte order is always explicit at the call site.
 */
public final class BigEndian {
    private static final VarHandle SHORT = MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_SHORT =
        MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_LONG =
        MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private BigEndian() {
    }

    /** Unsigned 8-bit value at {@code index}. */
    public static int u8(final ByteBuffer buffer, final int index) {
        // a writable heap buffer from its array (see u16): no call of the buffer's own get, which the JIT must
        // dispatch on the buffer's class where both heap and direct buffers pass
        if (buffer.hasArray() && index >= 0 && index < buffer.limit()) {
            return buffer.array()[buffer.arrayOffset() + index] & 0xFF;
        }
        return buffer.get(index) & 0xFF;
    }

    /** Unsigned 16-bit value at {@code index}. */
    public static int u16(final ByteBuffer buffer, final int index) {
        // A writable heap buffer is read from its array when the index is within its limit (as the buffer's own
        // access requires): the same value, without the checks of the buffer view's VarHandle, which cost as much as
        // the read on the analyser's per-frame path. Anything else (direct, read-only, out of bounds) goes through it.
        if (buffer.hasArray() && index >= 0 && index <= buffer.limit() - 2) {
            final byte[] array = buffer.array();
            final int at = buffer.arrayOffset() + index;
            return (array[at] & 0xFF) << 8 | array[at + 1] & 0xFF;
        }
        return ((short) SHORT.get(buffer, index)) & 0xFFFF;
    }

    /**
     * Unsigned 8-bit value at {@code index} of an array. The array forms serve hot paths that have already checked the
     * index against the bytes they may read (a frame's end), and only the array's own bounds are checked here.
     */
    public static int u8(final byte[] array, final int index) {
        return array[index] & 0xFF;
    }

    /** Unsigned 16-bit value at {@code index} of an array (see {@link #u8(byte[], int)}). */
    public static int u16(final byte[] array, final int index) {
        return ((short) ARRAY_SHORT.get(array, index)) & 0xFFFF;
    }

    /** Unsigned 24-bit value at {@code index}. */
    public static int u24(final ByteBuffer buffer, final int index) {
        if (buffer.hasArray() && index >= 0 && index <= buffer.limit() - 3) {
            final byte[] array = buffer.array();
            final int at = buffer.arrayOffset() + index;
            return (array[at] & 0xFF) << 16 | (array[at + 1] & 0xFF) << 8 | array[at + 2] & 0xFF;
        }
        return ((buffer.get(index) & 0xFF) << 16) | u16(buffer, index + 1);
    }

    /** 32-bit value at {@code index} (as a Java int; use {@link #u32} for the unsigned value). */
    public static int i32(final ByteBuffer buffer, final int index) {
        if (buffer.hasArray() && index >= 0 && index <= buffer.limit() - 4) {
            return (int) ARRAY_INT.get(buffer.array(), buffer.arrayOffset() + index);
        }
        return (int) INT.get(buffer, index);
    }

    /** Unsigned 32-bit value at {@code index}. */
    public static long u32(final ByteBuffer buffer, final int index) {
        return i32(buffer, index) & 0xFFFF_FFFFL;
    }

    /** 64-bit value at {@code index}. */
    public static long i64(final ByteBuffer buffer, final int index) {
        if (buffer.hasArray() && index >= 0 && index <= buffer.limit() - 8) {
            return (long) ARRAY_LONG.get(buffer.array(), buffer.arrayOffset() + index);
        }
        return (long) LONG.get(buffer, index);
    }

    /** Unsigned value of {@code bytes} (1 to 8) bytes at {@code index}. */
    public static long uN(final ByteBuffer buffer, final int index, final int bytes) {
        switch (bytes) {
            case 1:
                return u8(buffer, index);
            case 2:
                return u16(buffer, index);
            case 3:
                return u24(buffer, index);
            case 4:
                return u32(buffer, index);
            case 8:
                return i64(buffer, index);
            default:
                long value = 0;
                for (int i = 0; i < bytes; i++) {
                    value = (value << 8) | (buffer.get(index + i) & 0xFF);
                }
                return value;
        }
    }

    /** Writes the low 8 bits of {@code value} at {@code index}. */
    public static void u8(final ByteBuffer buffer, final int index, final int value) {
        buffer.put(index, (byte) value);
    }

    /** Writes the low 16 bits of {@code value} at {@code index}. */
    public static void u16(final ByteBuffer buffer, final int index, final int value) {
        SHORT.set(buffer, index, (short) value);
    }

    /** Writes the low 24 bits of {@code value} at {@code index}. */
    public static void u24(final ByteBuffer buffer, final int index, final int value) {
        buffer.put(index, (byte) (value >>> 16));
        u16(buffer, index + 1, value);
    }

    /** Writes {@code value} as 32 bits at {@code index}. */
    public static void i32(final ByteBuffer buffer, final int index, final int value) {
        INT.set(buffer, index, value);
    }

    /** Writes the low 32 bits of {@code value} at {@code index}. */
    public static void u32(final ByteBuffer buffer, final int index, final long value) {
        INT.set(buffer, index, (int) value);
    }

    /** Writes {@code value} as 64 bits at {@code index}. */
    public static void i64(final ByteBuffer buffer, final int index, final long value) {
        LONG.set(buffer, index, value);
    }

    /** Writes the low {@code bytes} (1 to 8) bytes of {@code value} at {@code index}, most significant first. */
    public static void uN(final ByteBuffer buffer, final int index, final int bytes, final long value) {
        for (int i = bytes - 1, shift = 0; i >= 0; i--, shift += 8) {
            buffer.put(index + i, (byte) (value >>> shift));
        }
    }
}

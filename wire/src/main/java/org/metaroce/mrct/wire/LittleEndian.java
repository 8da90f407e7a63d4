package org.metaroce.mrct.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Little-endian accessors. On the MetaRoCE wire only the ICRC is little-endian (it is sent least significant byte
 * first, like the Ethernet FCS); memory images of atomic operands may be too.
 */
public final class LittleEndian {
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle ARRAY_INT =
        MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {
    }

    /** 32-bit little-endian value at {@code index}. */
    public static int i32(final ByteBuffer buffer, final int index) {
        // a writable heap buffer from its array within the limit, as BigEndian.i32
        if (buffer.hasArray() && index >= 0 && index <= buffer.limit() - 4) {
            return (int) ARRAY_INT.get(buffer.array(), buffer.arrayOffset() + index);
        }
        return (int) INT.get(buffer, index);
    }

    /** Writes {@code value} little-endian at {@code index}. */
    public static void i32(final ByteBuffer buffer, final int index, final int value) {
        INT.set(buffer, index, value);
    }

    /** 64-bit little-endian value at {@code index}. */
    public static long i64(final ByteBuffer buffer, final int index) {
        return (long) LONG.get(buffer, index);
    }

    /** Writes {@code value} little-endian at {@code index}. */
    public static void i64(final ByteBuffer buffer, final int index, final long value) {
        LONG.set(buffer, index, value);
    }
}

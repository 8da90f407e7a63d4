package org.metaroce.mrct.spi;

import java.util.Arrays;

/**
 * A frame the device emitted, with the time it was seen on the adapter's clock (virtual time for the reference,
 * capture timestamps for live devices and recordings).
 *
 * @param bytes the Ethernet frame without FCS
 * @param timestampNanos time on the adapter's clock, in nanoseconds
 */
public record CapturedFrame(byte[] bytes, long timestampNanos) {
    public CapturedFrame {
        bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The bytes without a defensive copy; callers must not modify them. */
    public byte[] unsafeBytes() {
        return bytes;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof CapturedFrame that && timestampNanos == that.timestampNanos
            && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(bytes) + Long.hashCode(timestampNanos);
    }

    @Override
    public String toString() {
        return "CapturedFrame[" + bytes.length + " bytes at " + timestampNanos + " ns]";
    }
}

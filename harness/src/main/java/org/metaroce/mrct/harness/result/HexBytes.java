package org.metaroce.mrct.harness.result;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Memory contents in a {@link ControlRecord}: a copy of the bytes whose text ({@link #toString}) is their hex, as the
 * records' plain values give bytes, made only when asked for. The case's journal records every {@code writeMemory}
 * and {@code readMemory} of a case while it runs; formatting their hex at once (a 512 KiB region is a million
 * characters) cost the engine a tenth of its CPU on a 256-frame case (docs/real-devices.md, "The engine's CPU per
 * frame"), while the documents carry it only around failures. Equal when the bytes are.
 */
public final class HexBytes {
    private final byte[] bytes;

    /** A copy of {@code bytes}. */
    public HexBytes(final byte[] bytes) {
        this.bytes = bytes.clone();
    }

    /** How many bytes. */
    public int length() {
        return bytes.length;
    }

    /** A copy of the bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The bytes as lower-case hex without separators, as {@link ControlCalls#bytes} gives them. */
    @Override
    public String toString() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof HexBytes that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }
}

package org.metaroce.mrct.wire;

import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * One named field of a frame: which header it lives in, where, and how wide. The same descriptors drive decoding
 * ({@link DecodedFrame#get(FrameField)}), crafting ({@link FrameBuilder#with(String, long)}), the harness's field
 * matchers and the {@code mrct decode} output, so a field has one name and one definition everywhere.
 *
 * <p>A numeric field is up to 64 bits: the {@code width} bits at {@code shift} of a {@code containerBytes}-byte
 * big-endian (or, for the ICRC, little-endian) unit at {@code byteOffset} from the header's start. Address fields
 * ({@code ip.src}, {@code ip.dst}) are {@link Format#IPV4} or {@link Format#IPV6} and are read as bytes.
 */
public final class FrameField {
    /** How a value is shown to people. */
    public enum Format { DECIMAL, HEX, FLAG, MAC, IPV4, IPV6 }

    private final String name;
    private final HeaderKind header;
    private final int byteOffset;
    private final int containerBytes;
    private final int shift;
    private final int width;
    private final boolean littleEndian;
    private final Format format;

    FrameField(final String name, final HeaderKind header, final int byteOffset, final int containerBytes,
               final int shift, final int width, final boolean littleEndian, final Format format) {
        this.name = name;
        this.header = header;
        this.byteOffset = byteOffset;
        this.containerBytes = containerBytes;
        this.shift = shift;
        this.width = width;
        this.littleEndian = littleEndian;
        this.format = format;
    }

    /** Dotted name such as {@code bth.psn}. */
    public String name() {
        return name;
    }

    /** The header that holds the field. */
    public HeaderKind header() {
        return header;
    }

    /** Offset of the field's container from the start of its header. */
    public int byteOffset() {
        return byteOffset;
    }

    /** Size of the field's container in bytes. */
    public int containerBytes() {
        return containerBytes;
    }

    /** Width in bits. */
    public int width() {
        return width;
    }

    /** Display format. */
    public Format format() {
        return format;
    }

    /** True for the address fields, which are not numbers. */
    public boolean isAddress() {
        return format == Format.IPV4 || format == Format.IPV6;
    }

    /** Largest value the field holds, as an unsigned mask. */
    public long mask() {
        return width >= 64 ? -1L : (1L << width) - 1;
    }

    /** Reads the field from the header at absolute index {@code headerOffset}. */
    public long read(final ByteBuffer buffer, final int headerOffset) {
        final int index = headerOffset + byteOffset;
        final long container;
        if (littleEndian) {
            container = LittleEndian.i32(buffer, index) & 0xFFFF_FFFFL;
        } else {
            container = BigEndian.uN(buffer, index, containerBytes);
        }
        return (container >>> shift) & mask();
    }

    /** Writes {@code value} (masked to the field's width) into the header at absolute index {@code headerOffset}. */
    public void write(final ByteBuffer buffer, final int headerOffset, final long value) {
        final int index = headerOffset + byteOffset;
        final long fieldMask = mask() << shift;
        if (littleEndian) {
            final long old = LittleEndian.i32(buffer, index) & 0xFFFF_FFFFL;
            LittleEndian.i32(buffer, index, (int) ((old & ~fieldMask) | ((value << shift) & fieldMask)));
        } else {
            final long old = BigEndian.uN(buffer, index, containerBytes);
            BigEndian.uN(buffer, index, containerBytes, (old & ~fieldMask) | ((value << shift) & fieldMask));
        }
    }

    /** Reads an address field's bytes. */
    public byte[] readBytes(final ByteBuffer buffer, final int headerOffset) {
        final byte[] bytes = new byte[containerBytes];
        buffer.get(headerOffset + byteOffset, bytes, 0, containerBytes);
        return bytes;
    }

    /** Writes an address field's bytes (exactly {@link #containerBytes()} of them). */
    public void writeBytes(final ByteBuffer buffer, final int headerOffset, final byte[] bytes) {
        if (bytes.length != containerBytes) {
            throw new IllegalArgumentException(name + " takes " + containerBytes + " bytes, not " + bytes.length);
        }
        buffer.put(headerOffset + byteOffset, bytes, 0, containerBytes);
    }

    /** Formats a numeric value the way messages show it: decimal and hex, e.g. {@code 4660 (0x1234)}. */
    public String describe(final long value) {
        switch (format) {
            case FLAG:
                return Long.toString(value);
            case MAC:
                return MacAddress.format(value);
            default:
                return Long.toUnsignedString(value) + " (0x" + Long.toHexString(value).toUpperCase(Locale.ROOT) + ")";
        }
    }

    @Override
    public String toString() {
        return name;
    }
}

package org.metaroce.mrct.wire.capture;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Builds capture bytes by hand, field by field, in an explicit byte order that may change midway (a second pcapng
 * section); the tests' independent way to produce files without the writers under test.
 */
final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private boolean bigEndian;

    private Bytes(final boolean bigEndian) {
        this.bigEndian = bigEndian;
    }

    static Bytes bigEndian() {
        return new Bytes(true);
    }

    static Bytes littleEndian() {
        return new Bytes(false);
    }

    /** Switches the byte order of the fields that follow. */
    Bytes order(final boolean newBigEndian) {
        this.bigEndian = newBigEndian;
        return this;
    }

    Bytes u8(final int value) {
        out.write(value);
        return this;
    }

    Bytes u16(final int value) {
        return field(value, 2);
    }

    Bytes u32(final long value) {
        return field(value, 4);
    }

    Bytes u64(final long value) {
        return field(value, 8);
    }

    Bytes bytes(final byte[] value) {
        out.writeBytes(value);
        return this;
    }

    Bytes zeros(final int count) {
        return bytes(new byte[count]);
    }

    /** Zero bytes up to the next multiple of 4 of the total size. */
    Bytes pad4() {
        return zeros((4 - out.size() % 4) % 4);
    }

    /** A pcapng option: code, length, value, padding. */
    Bytes option(final int code, final byte[] value) {
        return u16(code).u16(value.length).bytes(value).pad4();
    }

    /** A pcapng option holding UTF-8 text. */
    Bytes option(final int code, final String value) {
        return option(code, value.getBytes(StandardCharsets.UTF_8));
    }

    /** opt_endofopt. */
    Bytes endOfOptions() {
        return u16(0).u16(0);
    }

    int size() {
        return out.size();
    }

    byte[] toArray() {
        return out.toByteArray();
    }

    private Bytes field(final long value, final int width) {
        for (int i = 0; i < width; i++) {
            final int shift = bigEndian ? 8 * (width - 1 - i) : 8 * i;
            out.write((int) (value >>> shift));
        }
        return this;
    }
}

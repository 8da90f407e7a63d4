package org.metaroce.mrct.oracle.internal;

import java.util.Locale;
import org.metaroce.mrct.wire.Psn;

/** How findings write values: decimal with hex, hex alone, PSNs in script space when the caller gives an origin. */
public final class Text {
    private Text() {
    }

    /** {@code 0x1F}: upper-case digits, lower-case prefix. */
    public static String hex(final long value) {
        return "0x" + Long.toHexString(value).toUpperCase(Locale.ROOT);
    }

    /** {@code 31 (0x1F)}. */
    public static String number(final long value) {
        return value + " (" + hex(value) + ")";
    }

    /** A 32-bit value as 8 hex digits. */
    public static String hex32(final int value) {
        return String.format(Locale.ROOT, "0x%08X", value);
    }

    /** A 64-bit value as 16 hex digits. */
    public static String hex64(final long value) {
        return String.format(Locale.ROOT, "0x%016X", value);
    }

    /** 0 or 1. */
    public static String bit(final boolean value) {
        return value ? "1" : "0";
    }

    /** A PSN: relative to {@code origin} (with the absolute value) when the caller gave one, else absolute. */
    public static String psn(final int psn, final Integer origin) {
        final int absolute = psn & Psn.MASK;
        if (origin == null) {
            return Integer.toString(absolute);
        }
        return Psn.diff(absolute, origin) + " [absolute " + hex(absolute) + "]";
    }
}

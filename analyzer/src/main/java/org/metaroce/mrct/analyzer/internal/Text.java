package org.metaroce.mrct.analyzer.internal;

import java.util.Locale;

/** How findings write numbers: PSNs and 24-bit values in decimal and hex, durations with a unit. */
final class Text {
    private Text() {
    }

    /** {@code 5454383 (0x53392f)}. */
    static String psn(final int psn) {
        return psn + " (0x" + Integer.toHexString(psn) + ")";
    }

    /** A 24-bit field value in decimal and hex. */
    static String number(final long value) {
        return value + " (0x" + Long.toHexString(value) + ")";
    }

    static String hex64(final long value) {
        return String.format(Locale.ROOT, "0x%016x", value);
    }

    static String hex32(final int value) {
        return String.format(Locale.ROOT, "0x%08x", value);
    }

    static String hex(final long value) {
        return "0x" + Long.toHexString(value);
    }

    /** A duration: {@code 850 ns}, {@code 12.5 µs}, {@code 3.20 ms}, {@code 1.500 s}. */
    static String ago(final long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        if (nanos < 1_000_000) {
            return String.format(Locale.ROOT, "%.1f µs", nanos / 1e3);
        }
        if (nanos < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
    }

    /** A rate in Mb/s, to three significant figures or so. */
    static String rate(final double mbps) {
        return mbps >= 100 ? String.format(Locale.ROOT, "%.0f Mb/s", mbps)
            : String.format(Locale.ROOT, "%.2f Mb/s", mbps);
    }
}

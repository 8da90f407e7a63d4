package org.metaroce.mrct.wire;

/**
 * 24-bit packet sequence number arithmetic (MetaRoCE v1 conventions; RoCEv2 BTH.PSN).
 *
 * <p>PSNs live modulo 2<sup>24</sup>. {@code a} is after {@code b} when {@code (a - b) mod 2^24} lies in
 * {@code [1, 2^23)}; the two halves of the circle are "after" and "before", so the comparison is exact across the
 * wrap from 0xFFFFFF to 0.
 */
public final class Psn {
    /** Number of distinct PSNs. */
    public static final int MODULUS = 1 << 24;
    /** Mask of a PSN. */
    public static final int MASK = MODULUS - 1;
    /** Half the PSN circle: the largest forward distance still read as "after". */
    public static final int HALF = 1 << 23;

    private Psn() {
    }

    /** {@code psn + delta} modulo 2^24 ({@code delta} may be negative). */
    public static int add(final int psn, final int delta) {
        return (psn + delta) & MASK;
    }

    /** Forward distance from {@code from} to {@code to}, in {@code [0, 2^24)}. */
    public static int distance(final int from, final int to) {
        return (to - from) & MASK;
    }

    /**
     * Signed difference {@code a - b} interpreted on the half-window circle: positive when {@code a} is after
     * {@code b}, negative when before, in {@code [-2^23, 2^23)}.
     */
    public static int diff(final int a, final int b) {
        return ((a - b) << 8) >> 8;
    }

    /** Comparator-style compare on the half-window circle. */
    public static int compare(final int a, final int b) {
        return Integer.signum(diff(a, b));
    }

    /** True when {@code a} is strictly after {@code b}. */
    public static boolean isAfter(final int a, final int b) {
        return diff(a, b) > 0;
    }

    /** True when {@code a} is strictly before {@code b}. */
    public static boolean isBefore(final int a, final int b) {
        return diff(a, b) < 0;
    }

    /** True when {@code psn} lies in the window {@code [start, start + length)}, modulo 2^24. */
    public static boolean inWindow(final int psn, final int start, final int length) {
        return distance(start, psn) < length;
    }
}

package org.metaroce.mrct.wire.capture.internal;

/**
 * Converts pcapng timestamps (an unsigned 64-bit count of units) to nanoseconds, for one {@code if_tsresol} value:
 * with its most significant bit clear the unit is 10^-n seconds, with it set 2^-n seconds, where n is the low 7 bits.
 * Results are rounded down to a whole nanosecond, as exact integer arithmetic (no floating point).
 */
final class TimestampScale {
    /** The {@code if_tsresol} that applies when an interface has none: 6, microseconds. */
    static final int DEFAULT_TSRESOL = 6;

    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final int BINARY_BIT = 0x80;
    private static final int EXPONENT_MASK = 0x7F;
    private static final int NANOSECOND_EXPONENT = 9;
    /** 10^(n-9) fits an unsigned 64-bit divisor up to n = 28; beyond, every count is below one nanosecond. */
    private static final int LARGEST_DIVISOR_EXPONENT = 28;

    private enum Kind { MULTIPLY, DIVIDE, SHIFT, ZERO }

    private final int tsresol;
    private final Kind kind;
    private final long factor;
    private final long maxUnits;
    private final int shift;

    private TimestampScale(final int tsresol, final Kind kind, final long factor, final int shift) {
        this.tsresol = tsresol;
        this.kind = kind;
        this.factor = factor;
        this.maxUnits = kind == Kind.MULTIPLY ? Long.MAX_VALUE / factor : 0;
        this.shift = shift;
    }

    /**
     * The scale for one {@code if_tsresol} byte.
     *
     * @param tsresol the option's value, 0 to 255
     * @return a scale; every value is valid
     */
    static TimestampScale of(final int tsresol) {
        final int exponent = tsresol & EXPONENT_MASK;
        if ((tsresol & BINARY_BIT) != 0 && exponent != 0) {
            return new TimestampScale(tsresol, Kind.SHIFT, NANOS_PER_SECOND, exponent);
        }
        if (exponent <= NANOSECOND_EXPONENT) {
            return new TimestampScale(tsresol, Kind.MULTIPLY, powerOfTen(NANOSECOND_EXPONENT - exponent), 0);
        }
        if (exponent <= LARGEST_DIVISOR_EXPONENT) {
            return new TimestampScale(tsresol, Kind.DIVIDE, powerOfTen(exponent - NANOSECOND_EXPONENT), 0);
        }
        return new TimestampScale(tsresol, Kind.ZERO, 0, 0);
    }

    /** 10^n as an unsigned 64-bit value, for n up to 19. */
    private static long powerOfTen(final int n) {
        long value = 1;
        for (int i = 0; i < n; i++) {
            value *= 10;
        }
        return value;
    }

    /**
     * Nanoseconds for a count of units.
     *
     * @param units the timestamp, an unsigned 64-bit count
     * @return the nanoseconds, rounded down; -1 when they exceed {@link Long#MAX_VALUE}
     */
    long toNanos(final long units) {
        switch (kind) {
            case MULTIPLY:
                return units >= 0 && units <= maxUnits ? units * factor : -1;
            case DIVIDE:
                return Long.divideUnsigned(units, factor);
            case SHIFT:
                return shiftedProduct(units);
            default:
                return 0;
        }
    }

    /** floor(units * 10^9 / 2^shift) over the 128-bit product. */
    private long shiftedProduct(final long units) {
        final long low = units * factor;
        final long high = Math.multiplyHigh(units, factor) + (units < 0 ? factor : 0);
        final long result;
        if (shift < Long.SIZE) {
            if (high >>> shift != 0) {
                return -1;
            }
            result = (low >>> shift) | (high << (Long.SIZE - shift));
        } else {
            result = high >>> (shift - Long.SIZE);
        }
        return result < 0 ? -1 : result;
    }

    /** The unit as a user reads it, e.g. {@code 10^-6 s} or {@code 2^-9 s}. */
    String unit() {
        return ((tsresol & BINARY_BIT) != 0 ? "2^-" : "10^-") + (tsresol & EXPONENT_MASK) + " s";
    }
}

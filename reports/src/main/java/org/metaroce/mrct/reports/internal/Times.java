package org.metaroce.mrct.reports.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Exact decimal renderings of durations, so that reports carry no floating-point noise. */
public final class Times {
    private Times() {
    }

    /** Nanoseconds as seconds with three decimals ({@code 1234567} is {@code 0.001}); negative values count as 0. */
    public static String seconds(final long nanos) {
        return BigDecimal.valueOf(Math.max(0, nanos), 9).setScale(3, RoundingMode.HALF_UP).toPlainString();
    }

    /** Nanoseconds as milliseconds with three decimals ({@code 1234567} is {@code 1.235 ms}). */
    public static String millis(final long nanos) {
        return BigDecimal.valueOf(nanos, 6).setScale(3, RoundingMode.HALF_UP).toPlainString() + " ms";
    }
}

package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.harness.cases.Expr;

/**
 * How long expectations wait: the case's window or the run's default, widened by the run's tolerance (0 on virtual
 * time).
 */
final class Timing {
    private final RunContext run;
    private final Names names;

    Timing(final RunContext run, final Names names) {
        this.run = run;
        this.names = names;
    }

    /** The window an expectation waits: {@code within}, or the run's default when the case does not say. */
    long window(final Expr within) {
        return within != null ? names.eval(within) : run.expectTimeoutNs();
    }

    /**
     * The run's absolute tolerance: the harness's lateness budget, which the device's requester timers are scaled to
     * ({@link RealTimeTimers}) and an {@code advance} before a judgement is widened by.
     */
    long absoluteTolerance() {
        return run.toleranceNs();
    }

    /** The slack allowed around a window: the larger of the absolute and the relative tolerance (the oracle's). */
    long tolerance(final long window) {
        return new org.metaroce.mrct.oracle.TimingTolerance(run.toleranceNs(), run.tolerancePercent()).around(window);
    }

    /**
     * A window as failure messages give it: the nominal window, and when the run widens it, the effective window the
     * device was given ("8 us (1008 us with the run's tolerance of 1 ms)").
     */
    String effective(final long window) {
        final long slack = tolerance(window);
        return slack == 0 ? nanos(window) : nanos(window) + " (" + nanos(window + slack) + " with the run's tolerance of "
            + nanos(slack) + ")";
    }

    /** A measured duration, to three significant digits at most: "1.33 ms", "5 ms", "870 us", "412 ns". */
    static String measured(final long nanos) {
        final long magnitude = Math.abs(nanos);
        final String unit = magnitude >= 1_000_000 ? " ms" : magnitude >= 1000 ? " us" : " ns";
        final long scale = magnitude >= 1_000_000 ? 1_000_000 : magnitude >= 1000 ? 1000 : 1;
        return java.math.BigDecimal.valueOf(nanos).divide(java.math.BigDecimal.valueOf(scale))
            .round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString() + unit;
    }

    /** A duration in the largest unit that divides it: "3 ms", "250 us", "17 ns". */
    /**
     * When the pacer is free again after {@code at}: the last request sent at or before {@code at} holds it for its
     * bits at {@code mbps} (section 14.4); {@code Long.MIN_VALUE} when none was sent by then.
     */
    static long pacerFree(final java.util.List<RequesterChecker.Sent> sent, final long at, final double mbps) {
        for (int i = sent.size() - 1; i >= 0; i--) {
            final RequesterChecker.Sent busy = sent.get(i);
            if (busy.time() <= at) {
                return busy.time() + (long) Math.ceil(busy.wireBytes() * 8000.0 / mbps);
            }
        }
        return Long.MIN_VALUE / 2;
    }

    static String nanos(final long nanos) {
        if (nanos % 1_000_000 == 0 && nanos != 0) {
            return nanos / 1_000_000 + " ms";
        }
        if (nanos % 1000 == 0 && nanos != 0) {
            return nanos / 1000 + " us";
        }
        return nanos + " ns";
    }
}

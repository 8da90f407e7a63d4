package org.metaroce.mrct.harness.engine;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.spi.QpAttribute;

/**
 * The device's requester timers in a requester case on a real-time adapter. There the harness stands in for the
 * responder and the network: its answers reach the device as late as the harness is, which the run tolerates up to its
 * absolute tolerance (a later answer makes a failed expectation INCONCLUSIVE, {@link HarnessLateness}). A conforming
 * device resends when its timer expires, so a timer shorter than that lateness would be judged on the harness's
 * reaction time, not on the protocol.
 *
 * <p>So the harness gives the device's QP timers {@link #MARGIN} times the tolerance at least: every one of {@code
 * rto_low_ns}, {@code rto_high_ns} and {@code reorder_time_ns} (the values the case computes for virtual time, its own
 * and its connections' included) is multiplied by one whole factor, which keeps their ratios (what the cases are
 * about: rto_low against rto_high, reorder_time_ns against rto_low_ns, delays of reorder_time_ns / 2) and makes the
 * shortest non-zero one at least {@code MARGIN x tolerance}. The QP is created with the scaled values through the
 * agent, and the case's names are bound to them, so every window a case derives from a timer ({@code after:
 * rto_low_ns}, {@code expect_none: 2 * rto_high_ns}, a network delay of {@code reorder_time_ns / 2}) follows the
 * timers actually set; the requester checker judges expiries against them too. The margin of 4 is what the cases
 * leave between a timer and the harness's own schedule: a packet held back by three quarters of reorder_time_ns
 * arrives a quarter of it early, which must absorb the harness's lateness within the tolerance.
 *
 * <p>Table B-1 bounds rto_high_ns by 1 s: a tolerance too large for that (more than about 20 ms with the default
 * timers) leaves the case NOT_APPLICABLE, saying so ({@link OutsideProfile}). On virtual time the factor is 1.
 */
final class RealTimeTimers {
    /** How many times the run's tolerance the shortest scaled timer is at least. */
    static final long MARGIN = 4;
    /** Table B-1: rto_high_ns is at most 1 s. */
    static final long RTO_HIGH_MAX_NS = 1_000_000_000L;
    /** The timers scaled, by their Appendix B names. */
    static final List<String> TIMERS = List.of("rto_low_ns", "rto_high_ns", "reorder_time_ns");

    private final long factor;
    private final long budget;

    private RealTimeTimers(final long factor, final long budget) {
        this.factor = factor;
        this.budget = budget;
    }

    /** No scaling (virtual time, or a case where the device is not the requester). */
    static RealTimeTimers none() {
        return new RealTimeTimers(1, 0);
    }

    /**
     * The factor for the timers bound in {@code names} (the case's values for virtual time) given the harness's
     * lateness budget {@code budgetNs}; throws {@link OutsideProfile} when rto_high_ns would exceed Table B-1's bound.
     */
    static RealTimeTimers forCase(final Map<String, Long> names, final long budgetNs) {
        final long shortest = shortest(names.get("rto_low_ns"), names.get("reorder_time_ns"));
        if (budgetNs <= 0 || shortest == Long.MAX_VALUE) {
            return new RealTimeTimers(1, budgetNs);
        }
        final long factor = Math.max(1, -Math.floorDiv(-MARGIN * budgetNs, shortest));
        final long high = names.getOrDefault("rto_high_ns", 0L);
        if (high > 0 && (high > RTO_HIGH_MAX_NS / factor)) {
            throw new OutsideProfile("on a real-time adapter the harness gives the device's requester timers at "
                + "least " + MARGIN + " times the run's tolerance of " + Timing.nanos(budgetNs) + " (x" + factor
                + " here), and rto_high_ns would be " + Timing.measured(high * factor) + ", above Table B-1's 1 s: "
                + "run the requester cases with a smaller --tolerance");
        }
        return new RealTimeTimers(factor, budgetNs);
    }

    private static long shortest(final Long... values) {
        long out = Long.MAX_VALUE;
        for (final Long value : values) {
            if (value != null && value > 0) {
                out = Math.min(out, value);
            }
        }
        return out;
    }

    /** The factor every timer is multiplied by (1: none). */
    long factor() {
        return factor;
    }

    /** Binds the scaled timers in {@code names} in place of the case's values for virtual time. */
    void apply(final Names names) {
        if (factor == 1) {
            return;
        }
        for (final String timer : TIMERS) {
            final Long value = names.bound(timer);
            if (value != null) {
                names.bind(timer, value * factor);
            }
        }
    }

    /** Whether {@code attribute} is one of the timers scaled. */
    static boolean isTimer(final QpAttribute attribute) {
        return TIMERS.contains(attribute.label());
    }

    /**
     * A connection's own timer attribute: its expression evaluated as on virtual time (against the unscaled timers),
     * then scaled, so that a literal ({@code rto_low_ns: 1ms}) scales as one naming a timer does.
     */
    long attribute(final Expr expr, final Names names) {
        if (factor == 1) {
            return names.eval(expr);
        }
        return expr.eval(name -> {
            final Long value = names.lookup(name);
            return value != null && TIMERS.contains(name) ? value / factor : value;
        }) * factor;
    }

    /** One line for the case's notes: what the timers became, or null when nothing was scaled. */
    String describe(final Names names) {
        if (factor == 1) {
            return null;
        }
        final StringBuilder out = new StringBuilder("real time: the device's requester timers are ").append(factor)
            .append(" times the case's (");
        for (int i = 0; i < TIMERS.size(); i++) {
            final Long value = names.bound(TIMERS.get(i));
            out.append(i == 0 ? "" : ", ").append(TIMERS.get(i)).append(' ')
                .append(value == null ? "unset" : Timing.measured(value));
        }
        return out.append("), so that the run's tolerance of ").append(Timing.nanos(budget)).append(" fits ")
            .append(MARGIN).append(" times in the shortest").toString();
    }
}

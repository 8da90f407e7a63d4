package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.spi.Capability;

/**
 * On a real-time adapter the harness multiplies the device's timers (docs/real-time-requester.md): a requester case
 * that expects a retransmission timer to expire must wait in terms of those timers, or it judges the device before its
 * timer was due. RTX-001-first-and-last-lost waited a literal 2 ms, which judged the timer's resend about 4 ms into a
 * 32 ms {@code rto_low_ns} over UDP: the project's CI failed on it (the device was right). A case waits in terms of
 * the timers when an {@code advance} or an {@code expect} window names one (directly or through its parameters); a
 * case with no {@code advance} waits in its windows alone.
 */
class RealTimeWaitsTest {
    private static final Set<String> TIMERS = Set.of("rto_low_ns", "rto_high_ns", "reorder_time_ns");

    @Test
    void aCaseExpectingATimeoutWaitsInTermsOfTheDevicesTimers() throws Exception {
        final Suite suite = new Suite();
        final List<String> literal = new ArrayList<>();
        int judged = 0;
        for (final CaseDef c : suite.cases) {
            if (c.role() != Role.REQUESTER || c.capabilities().contains(Capability.VIRTUAL_TIME)
                || !expectsTimeouts(c)) {
                continue;
            }
            judged++;
            final List<Expr> advances = new ArrayList<>();
            boolean timedWait = false;
            for (final Step step : c.steps()) {
                if (step instanceof Step.Advance a) {
                    advances.add(a.duration());
                    timedWait |= namesATimer(a.duration(), c.params(), new HashSet<>());
                } else if (step instanceof Step.Expect e) {
                    // a window "after: rto_low_ns, within: ..." waits for the expiry by itself
                    timedWait |= e.after() != null && namesATimer(e.after(), c.params(), new HashSet<>())
                        || e.within() != null && namesATimer(e.within(), c.params(), new HashSet<>());
                }
            }
            if (!advances.isEmpty() && !timedWait) {
                literal.add(c.id() + " " + advances);
            }
        }
        assertThat(judged).as("requester cases that run on real time and expect a timeout").isGreaterThan(10);
        assertThat(literal).as("cases whose waits do not follow the device's timers on real time").isEmpty();
    }

    private static boolean expectsTimeouts(final CaseDef c) {
        for (final Step step : c.steps()) {
            if (step instanceof Step.ExpectCounters counters) {
                final Expr timeouts = counters.values().get("timeouts");
                if (timeouts != null && (timeouts.constantValue() == null || timeouts.constantValue() > 0)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code e} names a timer, directly or through the case's parameters. */
    private static boolean namesATimer(final Expr e, final Map<String, Expr> params, final Set<String> seen) {
        for (final String name : e.names()) {
            if (TIMERS.contains(name)) {
                return true;
            }
            final Expr param = params.get(name);
            if (param != null && seen.add(name) && namesATimer(param, params, seen)) {
                return true;
            }
        }
        return false;
    }
}

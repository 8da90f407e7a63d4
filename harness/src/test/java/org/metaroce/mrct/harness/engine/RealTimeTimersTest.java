package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.spi.QpAttribute;

/** The device's requester timers on a real-time adapter: one factor that makes the shortest 4 x the tolerance. */
class RealTimeTimersTest {
    private static Names names(final long low, final long high, final long reorder) {
        final Names names = new Names();
        names.bindAll(Map.of("rto_low_ns", low, "rto_high_ns", high, "reorder_time_ns", reorder, "pmtu", 1024L));
        return names;
    }

    @Test
    void theShortestTimerBecomesFourTimesTheToleranceAndTheRatiosStay() {
        final Names names = names(100_000, 320_000, 25_000);
        final RealTimeTimers timers = RealTimeTimers.forCase(names.bound(), 1_000_000);
        assertThat(timers.factor()).isEqualTo(160);
        timers.apply(names);
        assertThat(names.bound("reorder_time_ns")).isEqualTo(4_000_000);
        assertThat(names.bound("rto_low_ns")).isEqualTo(16_000_000);
        assertThat(names.bound("rto_high_ns")).isEqualTo(51_200_000);
        assertThat(names.bound("pmtu")).as("only the timers").isEqualTo(1024);
        assertThat(timers.describe(names)).contains("160 times").contains("rto_low_ns 16 ms")
            .contains("tolerance of 1 ms");
    }

    @Test
    void aZeroReorderTimeIsLeftAloneAndRtoLowSetsTheFactor() {
        final Names names = names(100_000, 320_000, 0);
        final RealTimeTimers timers = RealTimeTimers.forCase(names.bound(), 1_000_000);
        assertThat(timers.factor()).isEqualTo(40);
        timers.apply(names);
        assertThat(names.bound("reorder_time_ns")).isZero();
        assertThat(names.bound("rto_low_ns")).isEqualTo(4_000_000);
    }

    @Test
    void timersAlreadyLongEnoughAndVirtualTimeKeepTheirValues() {
        assertThat(RealTimeTimers.forCase(names(16_000_000, 64_000_000, 4_000_000).bound(), 1_000_000).factor())
            .isEqualTo(1);
        assertThat(RealTimeTimers.forCase(names(100_000, 320_000, 25_000).bound(), 0).factor()).isEqualTo(1);
        final Names names = names(100_000, 320_000, 25_000);
        RealTimeTimers.none().apply(names);
        assertThat(names.bound("rto_low_ns")).isEqualTo(100_000);
        assertThat(RealTimeTimers.none().describe(names)).isNull();
    }

    @Test
    void aConnectionsOwnTimerScalesLikeTheNamedOnesALiteralIncluded() {
        final Names names = names(100_000, 320_000, 25_000);
        final RealTimeTimers timers = RealTimeTimers.forCase(names.bound(), 1_000_000);
        timers.apply(names);
        assertThat(timers.attribute(Expr.parse("rto_low_ns / 4"), names)).isEqualTo(4_000_000);
        assertThat(timers.attribute(Expr.parse("1000000"), names)).as("a literal 1 ms").isEqualTo(160_000_000);
        assertThat(RealTimeTimers.isTimer(QpAttribute.REORDER_TIME_NS)).isTrue();
        assertThat(RealTimeTimers.isTimer(QpAttribute.PMTU)).isFalse();
    }

    @Test
    void aToleranceTooLargeForTableB1LeavesTheCaseNotApplicable() {
        assertThatThrownBy(() -> RealTimeTimers.forCase(names(100_000, 320_000, 25_000).bound(), 100_000_000))
            .isInstanceOf(OutsideProfile.class).hasMessageContaining("tolerance of 100 ms")
            .hasMessageContaining("above Table B-1's 1 s");
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The DCQCN reaction point (section 14.3) against values worked out by hand from Table 14-3.
 */
class ReactionPointTest {
    private static final double G = 1.0 / 256;

    private static DcqcnConstants constants(final long alphaTimer, final long rateTimer, final long byteCounter,
                                                  final int f) {
        return new DcqcnConstants(100_000, G, 1.0, alphaTimer, rateTimer, byteCounter, f, 40, 400, 10);
    }

    @Test
    void aCnpSetsRtToRcAndCutsRcByHalfAlpha() {
        final ReactionPoint model = Models.exact(constants(10_000_000, 10_000_000, 1L << 30, 5), 0,
            List.of(1_000L, 2_000L), List.of(), 3_000);
        assertThat(model.at(0).rc()).isEqualTo(100_000);
        assertThat(model.at(0).rule()).isEqualTo("MR-CC-011");
        assertThat(model.at(1_000).rc()).isEqualTo(50_000);
        assertThat(model.at(1_000).rt()).isEqualTo(100_000);
        assertThat(model.at(1_000).alpha()).isEqualTo(1.0);
        assertThat(model.at(1_000).rule()).isEqualTo("MR-CC-010");
        assertThat(model.at(2_000).rc()).isEqualTo(25_000);
        assertThat(model.at(2_000).rt()).isEqualTo(50_000);
        assertThat(model.at(1_999).rc()).isEqualTo(50_000);
        assertThat(model.max(500, 1_500)).isEqualTo(100_000);
        assertThat(model.lowest(500, 2_500).rc()).isEqualTo(25_000);
        assertThat(model.lowest(500, 2_500).time()).isEqualTo(2_000);
    }

    /**
     * With alpha 0 a CNP cuts by nothing (Rc x (1 - 0 / 2)) and then raises alpha to g: Rc stays at the line rate, and
     * the lowest point of a span holding RTS and that CNP is the CNP (the later of equal Rc), so that a QP slower than
     * the line rate right after it is judged against MR-CC-010, not MR-CC-011. The second CNP cuts by g / 2.
     */
    @Test
    void aCnpThatCutsByNothingIsTheLowestPointAfterIt() {
        final DcqcnConstants k = new DcqcnConstants(100_000, 0.5, 0.0, 10_000_000, 10_000_000, 1L << 30, 5, 40, 400,
            10);
        final ReactionPoint model = Models.exact(k, 0, List.of(1_000L, 2_000L), List.of(), 3_000);
        assertThat(model.at(1_000).rc()).isEqualTo(100_000);
        assertThat(model.at(1_000).alpha()).isEqualTo(0.5);
        assertThat(model.lowest(500, 1_500).rule()).isEqualTo("MR-CC-010");
        assertThat(model.lowest(500, 1_500).time()).isEqualTo(1_000);
        assertThat(model.lowest(0, 900).rule()).isEqualTo("MR-CC-011");
        assertThat(model.at(2_000).rc()).isEqualTo(75_000);
    }

    /**
     * The model of a QP whose rate timer counts from its last packet (MR-CC-013 broken): packets 500 ns apart keep a
     * 1 us timer from expiring; a 1.5 us gap lets it expire once, 1 us after the packet before the gap. The exact model
     * steps at 1, 2 and 3 us.
     */
    @Test
    void aRateTimerCountedFromPacketsStepsOnlyAfterAGapLongerThanTheTimer() {
        final DcqcnConstants k = constants(10_000_000, 1_000, 1L << 30, 5);
        final ReactionPoint fromPackets = new ReactionPoint(k, 0).rateTimerFromPackets();
        final ReactionPoint exact = new ReactionPoint(k, 0);
        for (final ReactionPoint model : List.of(fromPackets, exact)) {
            model.cnp(0);
            for (long t = 100; t <= 2_100; t += 500) {
                model.sent(t, 1_000);
            }
            model.sent(3_600, 1_000);
            model.advance(3_600);
        }
        assertThat(fromPackets.points()).extracting(ReactionPoint.Point::time).containsExactly(0L, 0L, 3_100L);
        assertThat(fromPackets.at(3_100).rc()).isEqualTo(75_000);
        assertThat(exact.points()).extracting(ReactionPoint.Point::time).containsExactly(0L, 0L, 1_000L, 2_000L,
            3_000L);
    }

    @Test
    void alphaDecaysOncePerAlphaTimerWithoutCnpAndACnpRestartsTheTimer() {
        // alpha timer 1 us: decays at 1, 2 and 3 us; the CNP at 3.5 us cuts by alpha / 2 with alpha = (1 - g)^3
        final ReactionPoint model = Models.exact(constants(1_000, 10_000_000, 1L << 30, 5), 0, List.of(3_500L,
            4_400L), List.of(), 5_000);
        final double alpha = Math.pow(1 - G, 3);
        assertThat(model.at(3_500).rc()).isCloseTo(100_000 * (1 - alpha / 2), within(1e-6));
        final double after = (1 - G) * alpha + G;
        assertThat(model.at(3_500).alpha()).isCloseTo(after, within(1e-12));
        // restarted at 3.5 us, the timer has not expired by 4.4 us: no decay before the second CNP
        assertThat(model.at(4_400).rc()).isCloseTo(model.at(3_500).rc() * (1 - after / 2), within(1e-6));
    }

    @Test
    void fastRecoveryThenAdditiveIncreaseOnTheRateTimer() {
        final ReactionPoint model = Models.exact(constants(10_000_000, 1_000, 1L << 30, 5), 0, List.of(500L),
            List.of(), 6_600);
        // 50000 after the CNP; T = 1..4 fast recovery towards Rt 100000; T = 5 additive from an unclamped Rt
        assertThat(model.at(1_500).rc()).isEqualTo(75_000);
        assertThat(model.at(2_500).rc()).isEqualTo(87_500);
        assertThat(model.at(3_500).rc()).isEqualTo(93_750);
        assertThat(model.at(4_500).rc()).isEqualTo(96_875);
        assertThat(model.at(5_500).rc()).isEqualTo((100_040 + 96_875) / 2.0);
        assertThat(model.at(5_500).rt()).isEqualTo(100_000);
        assertThat(model.at(5_500).cause()).startsWith("additive increase (rate timer, T 5");
        assertThat(model.at(6_500).rc()).isEqualTo((100_040 + 98_457.5) / 2);
    }

    @Test
    void byteCounterEventsAndHyperIncreaseWhenBothCountsExceedF() {
        // F = 1, B = 1024: two CNPs (Rc 25000, Rt 50000), two 1024-byte packets (BC 1, 2), then the rate timer
        final List<DcqcnStream.DataPacket> packets = List.of(Models.packet(100, 1024),
            Models.packet(200, 1024));
        final ReactionPoint model = Models.exact(constants(10_000_000, 1_000, 1024, 1), 0, List.of(0L, 1L),
            packets, 2_500);
        assertThat(model.at(1).rc()).isEqualTo(25_000);
        assertThat(model.at(100).rc()).isEqualTo((50_040 + 25_000) / 2.0);
        assertThat(model.at(200).rc()).isEqualTo((50_080 + 37_520) / 2.0);
        assertThat(model.at(1_001).rc()).isEqualTo((50_120 + 43_800) / 2.0);
        assertThat(model.at(2_001).rt()).isEqualTo(50_520);
        assertThat(model.at(2_001).rc()).isEqualTo((50_520 + 46_960) / 2.0);
        assertThat(model.at(2_001).cause()).startsWith("hyper increase");
    }

    @Test
    void rcStaysBetweenTheMinimumRateAndTheLineRate() {
        final List<Long> cnps = new ArrayList<>();
        for (long t = 0; t < 20; t++) {
            cnps.add(t);
        }
        final ReactionPoint low = Models.exact(constants(10_000_000, 10_000_000, 1L << 30, 5), 0, cnps, List.of(),
            100);
        assertThat(low.at(100).rc()).isEqualTo(10);
        final DcqcnConstants k = new DcqcnConstants(100_000, G, 1.0, 10_000_000, 1_000, 1L << 30, 1,
            400, 400, 10);
        final ReactionPoint high = Models.exact(k, 0, List.of(0L), List.of(), 50_000);
        assertThat(high.points()).allSatisfy(p -> {
            assertThat(p.rc()).isLessThanOrEqualTo(100_000);
            assertThat(p.rt()).isLessThanOrEqualTo(100_000);
        });
        assertThat(high.at(50_000).rc()).isEqualTo(100_000);
    }

    @Test
    void limitingRtBeforeRcFollowsItGivesALowerRcNearTheLineRate() {
        // after the CNP Rc 50000, Rt 100000; with F = 1 the first timer step is additive: Rt 100040 before the limit
        final DcqcnConstants k = constants(10_000_000, 1_000, 1L << 30, 1);
        final ReactionPoint literal = Models.exact(k, 0, List.of(500L), List.of(), 1_600);
        final ReactionPoint limitedFirst = Models.replay(k, true, 0, List.of(500L), List.of(), 1_600);
        assertThat(literal.at(1_500).rc()).isEqualTo((100_040 + 50_000) / 2.0);
        assertThat(limitedFirst.at(1_500).rc()).isEqualTo((100_000 + 50_000) / 2.0);
        assertThat(limitedFirst.at(1_500).rt()).isEqualTo(100_000);
        assertThat(literal.at(1_500).rt()).isEqualTo(100_000);
    }

    @Test
    void onePacketCrossingTheByteCounterSeveralTimesMakesOneStepPerMultiple() {
        // B = 1000: a 3500-byte packet after the CNP is 3 byte-counter events (3 fast-recovery steps from Rc 50000
        // towards Rt 100000), A keeps 500
        final DcqcnConstants k = constants(10_000_000, 10_000_000, 1_000, 5);
        final ReactionPoint model = Models.exact(k, 0, List.of(100L), List.of(Models.packet(200, 3_500)), 300);
        assertThat(model.at(200).rc()).isEqualTo(93_750);
        assertThat(model.at(200).cause()).contains("BC 3");
        final long steps = model.points().stream().filter(p -> p.rule().equals(ReactionPoint.INCREASE)).count();
        assertThat(steps).isEqualTo(3);
        // the 500 bytes kept: 500 more make the fourth event, 499 would not
        final ReactionPoint more = Models.exact(k, 0, List.of(100L), List.of(Models.packet(200, 3_500),
            Models.packet(250, 500)), 300);
        assertThat(more.at(250).rc()).isEqualTo(96_875);
        final ReactionPoint less = Models.exact(k, 0, List.of(100L), List.of(Models.packet(200, 3_500),
            Models.packet(250, 499)), 300);
        assertThat(less.at(250).rc()).isEqualTo(93_750);
    }

    @Test
    void theLatestTimersBoundRcFromBelow() {
        final DcqcnConstants k = constants(1_000, 10_000, 1L << 30, 5);
        final DcqcnConstants late = k.latest(100);
        assertThat(late.alphaTimerNs()).isEqualTo(1_000 + 100 + 2_000 + 100);
        assertThat(late.rateTimerNs()).isEqualTo(10_000 + 1_000 + 2_000 + 100);
        assertThat(late.byteCounter()).isEqualTo(k.byteCounter());
        // 30 us after a CNP: exact timers decayed alpha more before the second CNP and stepped Rc more often
        final List<Long> cnps = List.of(1_000L, 31_000L);
        final ReactionPoint exact = Models.exact(k, 0, cnps, List.of(), 60_000);
        final ReactionPoint slow = Models.exact(late, 0, cnps, List.of(), 60_000);
        assertThat(slow.at(31_000).alpha()).isGreaterThan(exact.at(31_000).alpha());
        assertThat(slow.at(30_999).rc()).isLessThan(exact.at(30_999).rc());
        assertThat(slow.at(31_000).rc()).isLessThan(exact.at(31_000).rc());
        assertThat(slow.at(60_000).rc()).isLessThan(exact.at(60_000).rc());
    }

    @Test
    void theLeastAlphaAndTheCutItAllows() {
        final DcqcnConstants k = constants(1_000, 10_000, 1L << 30, 5);
        assertThat(k.alphaAtLeast(0, 0)).isEqualTo(1.0);
        assertThat(k.alphaAtLeast(2, 3)).isCloseTo(Math.pow(1 - G, 5), within(1e-12));
        assertThat(k.cutFromLineRate(1.0)).isEqualTo(50_000);
        assertThat(k.cutFromLineRate(0)).isEqualTo(100_000);
        // a model that received those CNPs and decays never has a smaller alpha
        final ReactionPoint model = Models.exact(k, 0, List.of(500L, 900L), List.of(), 3_900);
        assertThat(model.alpha()).isGreaterThanOrEqualTo(k.alphaAtLeast(2, 3));
    }

    @Test
    void constantsOutOfRangeAreRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() ->
            new DcqcnConstants(100_000, 2, 1, 1, 1, 1, 1, 1, 1, 1)).withMessageContaining("g 2");
    }
}

package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.Opcode;

/**
 * The harness's DCQCN reaction point (section 14.3) against values worked out by hand from Table 14-3, and the window
 * rates it is compared with (section 14.4).
 */
class DcqcnModelTest {
    private static final double G = 1.0 / 256;

    private static DcqcnModel.Constants constants(final long alphaTimer, final long rateTimer, final long byteCounter,
                                                  final int f) {
        return new DcqcnModel.Constants(100_000, G, 1.0, alphaTimer, rateTimer, byteCounter, f, 40, 400, 10);
    }

    @Test
    void aCnpSetsRtToRcAndCutsRcByHalfAlpha() {
        final DcqcnModel model = new DcqcnModel(constants(10_000_000, 10_000_000, 1L << 30, 5), 0,
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
        assertThat(model.min(500, 2_500)).isEqualTo(25_000);
        assertThat(model.lowest(500, 2_500).time()).isEqualTo(2_000);
    }

    @Test
    void alphaDecaysOncePerAlphaTimerWithoutCnpAndACnpRestartsTheTimer() {
        // alpha timer 1 us: decays at 1, 2 and 3 us; the CNP at 3.5 us cuts by alpha / 2 with alpha = (1 - g)^3
        final DcqcnModel model = new DcqcnModel(constants(1_000, 10_000_000, 1L << 30, 5), 0, List.of(3_500L,
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
        final DcqcnModel model = new DcqcnModel(constants(10_000_000, 1_000, 1L << 30, 5), 0, List.of(500L),
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
        final List<DcqcnModel.Packet> packets = List.of(new DcqcnModel.Packet(100, 1024),
            new DcqcnModel.Packet(200, 1024));
        final DcqcnModel model = new DcqcnModel(constants(10_000_000, 1_000, 1024, 1), 0, List.of(0L, 1L),
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
        final DcqcnModel low = new DcqcnModel(constants(10_000_000, 10_000_000, 1L << 30, 5), 0, cnps, List.of(),
            100);
        assertThat(low.at(100).rc()).isEqualTo(10);
        final DcqcnModel.Constants k = new DcqcnModel.Constants(100_000, G, 1.0, 10_000_000, 1_000, 1L << 30, 1,
            400, 400, 10);
        final DcqcnModel high = new DcqcnModel(k, 0, List.of(0L), List.of(), 50_000);
        assertThat(high.points()).allSatisfy(p -> {
            assertThat(p.rc()).isLessThanOrEqualTo(100_000);
            assertThat(p.rt()).isLessThanOrEqualTo(100_000);
        });
        assertThat(high.at(50_000).rc()).isEqualTo(100_000);
    }

    @Test
    void anOpenWindowBoundsTheRateOfAStalledQp() {
        final List<RequesterChecker.Sent> sent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            sent.add(new RequesterChecker.Sent(i * 100L, i, Opcode.RDMA_WRITE_MIDDLE, 1000, false, 0xC000, i));
        }
        // 16 packets of 8000 bits from 400 ns; closed at 10 us instead of by a 17th packet
        final double[] open = RequesterSteps.openWindow(sent, 10_400);
        assertThat(open[2]).isEqualTo(4);
        assertThat(open[1]).isCloseTo(16 * 8000 * 1000.0 / 10_000, within(1e-9));
        assertThat(RequesterSteps.openWindow(sent, 350)).isNull();
        assertThat(RequesterSteps.openWindow(sent.subList(0, 15), 10_000)).isNull();
        assertThat(RequesterSteps.windowRates(sent)).hasSize(4);
        assertThat(RequesterSteps.windowRates(sent).get(0)[1]).isCloseTo(16 * 8000 * 1000.0 / 1600, within(1e-9));
    }

    @Test
    void theQpsOwnRatioAttributesWinOverTheDeclaredParameters() {
        final Connection c = new Connection("q", 1, 0x123, 0x456, 0, 0,
            org.metaroce.mrct.wire.Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1, 0xFFFF, 1024, 128);
        c.createdWith(org.metaroce.mrct.spi.QpAttributes.empty()
            .with(org.metaroce.mrct.spi.QpAttribute.DCQCN_ALPHA_INIT, 0L));
        final RequesterSteps steps = new RequesterSteps(null, new java.util.HashMap<>(), n -> null, 0, 0,
            java.util.Map.of("dcqcn_alpha_init", 1.0, "dcqcn_g", 0.5));
        final DcqcnModel model = steps.model(c, 0);
        assertThat(model.at(0).alpha()).isZero();
        final Connection plain = new Connection("r", 1, 0x124, 0x457, 0, 0,
            org.metaroce.mrct.wire.Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1, 0xFFFF, 1024, 128);
        assertThat(steps.model(plain, 0).at(0).alpha()).isEqualTo(1.0);
    }

    @Test
    void theLatestTimersBoundRcFromBelow() {
        final DcqcnModel.Constants k = constants(1_000, 10_000, 1L << 30, 5);
        final DcqcnModel.Constants late = RequesterSteps.latest(k, 100);
        assertThat(late.alphaTimerNs()).isEqualTo(1_000 + 100 + 2_000 + 100);
        assertThat(late.rateTimerNs()).isEqualTo(10_000 + 1_000 + 2_000 + 100);
        assertThat(late.byteCounter()).isEqualTo(k.byteCounter());
        // 30 us after a CNP: exact timers decayed alpha 29 times more before the second CNP and stepped Rc 3 times
        final List<Long> cnps = List.of(1_000L, 31_000L);
        final DcqcnModel exact = new DcqcnModel(k, 0, cnps, List.of(), 60_000);
        final DcqcnModel slow = new DcqcnModel(late, 0, cnps, List.of(), 60_000);
        assertThat(slow.at(31_000).alpha()).isGreaterThan(exact.at(31_000).alpha());
        assertThat(slow.at(30_999).rc()).isLessThan(exact.at(30_999).rc());
        assertThat(slow.at(31_000).rc()).isLessThan(exact.at(31_000).rc());
        assertThat(slow.at(60_000).rc()).isLessThan(exact.at(60_000).rc());
    }

    @Test
    void limitingRtBeforeRcFollowsItGivesALowerRcNearTheLineRate() {
        // after the CNP Rc 50000, Rt 100000; with F = 1 the first timer step is additive: Rt 100040 before the limit
        final DcqcnModel.Constants k = constants(10_000_000, 1_000, 1L << 30, 1);
        final DcqcnModel literal = new DcqcnModel(k, 0, List.of(500L), List.of(), 1_600);
        final DcqcnModel limitedFirst = new DcqcnModel(k, true, 0, List.of(500L), List.of(), 1_600);
        assertThat(literal.at(1_500).rc()).isEqualTo((100_040 + 50_000) / 2.0);
        assertThat(limitedFirst.at(1_500).rc()).isEqualTo((100_000 + 50_000) / 2.0);
        assertThat(limitedFirst.at(1_500).rt()).isEqualTo(100_000);
        assertThat(literal.at(1_500).rt()).isEqualTo(100_000);
    }
}

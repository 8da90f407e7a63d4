package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The window rates of section 14.4 judged against the DCQCN model, on hand-built packet sequences: each rule the
 * judgement names fires on a sequence that breaks it and keeps quiet on one that meets it.
 */
class DcqcnStreamTest {
    /** 100 Gb/s, alpha 1, 10 ms alpha timer, the rate timer as given, B 1 GiB, F 5. */
    private static DcqcnStream stream(final long rateTimer) {
        return new DcqcnStream(new DcqcnConstants(100_000, 1.0 / 256, 1.0, 10_000_000, rateTimer, 1L << 30, 5, 40,
            400, 10), 0);
    }

    /** {@code count} packets of 1000 bytes (8000 bits) every {@code gap} ns from {@code from}, numbered from 100. */
    private static void send(final DcqcnStream s, final long from, final long gap, final int count) {
        for (int i = 0; i < count; i++) {
            s.onDataSent(from + i * gap, 1_000, 100 + i);
        }
    }

    private static List<DcqcnStream.WindowFinding> judge(final DcqcnStream s, final DcqcnStream.Backlog backlog) {
        return s.checkWindows(0, Long.MAX_VALUE / 2, 1_000_000, 5, 0, backlog);
    }

    @Test
    void windowRatesCountSixteenPacketsOverTheTimeToTheSeventeenth() {
        final DcqcnStream s = stream(10_000_000);
        send(s, 0, 100, 20);
        final List<double[]> windows = s.windowRates();
        assertThat(windows).hasSize(4);
        assertThat(windows.get(0)[1]).isCloseTo(16 * 8000 * 1000.0 / 1600, within(1e-9));
        // 16 packets of 8000 bits from 400 ns, closed at 10.4 us instead of by a 17th packet
        final double[] open = s.openWindow(10_400);
        assertThat(open[2]).isEqualTo(4);
        assertThat(open[1]).isCloseTo(16 * 8000 * 1000.0 / 10_000, within(1e-9));
        assertThat(s.openWindow(350)).isNull();
    }

    @Test
    void aQpAtLineRateWithoutCnpsIsQuiet() {
        final DcqcnStream s = stream(10_000_000);
        send(s, 0, 80, 40);
        assertThat(judge(s, new DcqcnStream.Backlog(true, false))).isEmpty();
    }

    @Test
    void aWindowAboveTheLineRateBreaksMrCc015() {
        final DcqcnStream s = stream(10_000_000);
        send(s, 0, 60, 17);
        final List<DcqcnStream.WindowFinding> found = judge(s, null);
        assertThat(found).singleElement().satisfies(w -> {
            assertThat(w.finding().rule()).isEqualTo("MR-CC-015");
            assertThat(w.finding().frame()).isEqualTo(100);
            assertThat(w.finding().actual()).isEqualTo("133333.3 Mb/s");
            assertThat(w.t0()).isZero();
            assertThat(w.t16()).isEqualTo(960);
        });
    }

    @Test
    void noCutAfterACnpBreaksMrCc010AndACutKeepsItQuiet() {
        final DcqcnStream fast = stream(10_000_000);
        fast.onCnpReceived(10);
        send(fast, 20, 80, 17);
        assertThat(judge(fast, null)).singleElement().satisfies(w -> {
            assertThat(w.finding().rule()).isEqualTo("MR-CC-010");
            assertThat(w.finding().expected()).startsWith("at most 52500.0 Mb/s");
            assertThat(w.point().rule()).isEqualTo(ReactionPoint.CUT);
            assertThat(w.finding().basis().source()).contains("CNP at 10 ns").contains("Rc 50000.0 Mb/s");
        });
        final DcqcnStream cut = stream(10_000_000);
        cut.onCnpReceived(10);
        send(cut, 20, 160, 17);
        assertThat(judge(cut, new DcqcnStream.Backlog(true, false))).isEmpty();
    }

    @Test
    void aWindowAboveAnRcSetByAnIncreaseBreaksMrCc017() {
        // rate timer 1 us: Rc 50000 after the CNP at 0, 75000 at 1 us, 87500 at 2 us
        final DcqcnStream s = stream(1_000);
        s.onCnpReceived(0);
        send(s, 1_100, 80, 17);
        assertThat(judge(s, null)).singleElement().satisfies(w -> {
            assertThat(w.finding().rule()).isEqualTo("MR-CC-017");
            assertThat(w.point().rule()).isEqualTo(ReactionPoint.INCREASE);
            assertThat(w.finding().expected()).startsWith("at most 91875.0 Mb/s");
        });
    }

    @Test
    void aBackloggedQpBelowItsRcBlamesTheEventThatSetIt() {
        final DcqcnStream s = stream(10_000_000);
        s.onCnpReceived(10);
        send(s, 20, 800, 17); // 10 Gb/s against an Rc of 50 Gb/s
        assertThat(judge(s, new DcqcnStream.Backlog(true, false))).singleElement().satisfies(w -> {
            assertThat(w.finding().rule()).isEqualTo("MR-CC-010");
            assertThat(w.finding().expected()).startsWith("at least 47500.0 Mb/s");
            assertThat(w.finding().actual()).isEqualTo("10000.0 Mb/s");
        });
        // without the live run's knowledge that the QP had work to send, a slow window proves nothing
        assertThat(judge(s, null)).isEmpty();
        assertThat(judge(s, new DcqcnStream.Backlog(false, false))).isEmpty();
    }

    /**
     * Rate timer 10 us: the CNP at 0 halves Rc, the expiry at 10 us takes it to 75 Gb/s and the one at 20 us to 87.5.
     * A backlogged QP that stays at the cut's 50 Gb/s misses the timer's steps (MR-CC-013); one that recovers, but
     * less than fast recovery does, took a step of the wrong kind (MR-CC-014).
     */
    @Test
    void aWindowAtTheRcWithoutTheTimersStepsBlamesMrCc013AndOneBetweenBlamesMrCc014() {
        final DcqcnStream stuck = stream(10_000);
        stuck.onCnpReceived(0);
        send(stuck, 10, 160, 600); // 50 Gb/s throughout
        final List<DcqcnStream.WindowFinding> missing = stuck.checkWindows(0, Long.MAX_VALUE / 2, 96_000, 5, 0,
            new DcqcnStream.Backlog(true, false));
        assertThat(missing).isNotEmpty().allSatisfy(w -> {
            assertThat(w.finding().rule()).isEqualTo("MR-CC-013");
            assertThat(w.finding().expected()).contains("fewer increase steps");
            assertThat(w.point().rule()).isEqualTo(ReactionPoint.INCREASE);
        });
        final DcqcnStream between = stream(10_000);
        between.onCnpReceived(0);
        send(between, 20_000, 123, 300); // 65 Gb/s from 20 us: above the cut's Rc, below 87.5 Gb/s
        final List<DcqcnStream.WindowFinding> wrongKind = between.checkWindows(20_000, Long.MAX_VALUE / 2, 56_000, 5,
            0, new DcqcnStream.Backlog(true, false));
        assertThat(wrongKind).isNotEmpty().allSatisfy(w -> assertThat(w.finding().rule()).isEqualTo("MR-CC-014"));
    }

    /**
     * A QP that received no CNP but slowed to the Rc the CNPs naming another QP of the device would have left it at
     * breaks MR-CC-016; without those CNPs the same window blames its own model point (entering RTS, MR-CC-011), and a
     * QP at the line rate stays quiet whatever other QPs received.
     */
    @Test
    void aWindowSlowedByAnotherQpsCnpsBlamesMrCc016() {
        final DcqcnStream slowed = stream(10_000_000);
        slowed.onOtherQpsCnp(10);
        send(slowed, 20, 160, 40); // 50 Gb/s
        final DcqcnStream.Backlog backlog = new DcqcnStream.Backlog(true, false);
        assertThat(judge(slowed, backlog)).isNotEmpty()
            .allSatisfy(w -> assertThat(w.finding().rule()).isEqualTo("MR-CC-016"));
        final DcqcnStream alone = stream(10_000_000);
        send(alone, 20, 160, 40);
        assertThat(judge(alone, backlog)).isNotEmpty()
            .allSatisfy(w -> assertThat(w.finding().rule()).isEqualTo("MR-CC-011"));
        final DcqcnStream unslowed = stream(10_000_000);
        unslowed.onOtherQpsCnp(10);
        send(unslowed, 20, 80, 40); // 100 Gb/s
        assertThat(judge(unslowed, backlog)).isEmpty();
    }

    @Test
    void aStalledBackloggedQpIsCaughtByItsOpenWindow() {
        final DcqcnStream s = stream(10_000_000);
        send(s, 0, 80, 16);
        final List<DcqcnStream.WindowFinding> found = s.checkWindows(0, 100_000, 100_000, 5, 0,
            new DcqcnStream.Backlog(true, true));
        assertThat(found).singleElement().satisfies(w -> {
            assertThat(w.finding().rule()).isEqualTo("MR-CC-011");
            assertThat(w.t16()).isEqualTo(100_000);
            assertThat(w.finding().expected()).contains("no 17th packet came by 100 us");
        });
        assertThat(s.checkWindows(0, 100_000, 100_000, 5, 0, new DcqcnStream.Backlog(true, false))).isEmpty();
    }

    @Test
    void windowsOutsideTheIntervalAreNotJudged() {
        final DcqcnStream s = stream(10_000_000);
        send(s, 0, 60, 17);
        assertThat(s.checkWindows(1, 10_000, 10_000, 5, 0, null)).isEmpty();
        assertThat(s.checkWindows(0, 959, 10_000, 5, 0, null)).isEmpty();
        assertThat(s.checkWindows(0, 960, 10_000, 5, 0, null)).hasSize(1);
    }

    @Test
    void aSlowWindowThatOnlyAnUndecayedAlphaExplainsBlamesMrCc012() {
        final DcqcnConstants k = DcqcnConstants.DEFAULTS.withoutAlphaDecay();
        assertThat(k.alphaTimerNs()).isEqualTo(Long.MAX_VALUE / 4);
        assertThat(Models.exact(k, 0, List.of(0L), List.of(), 10_000_000).alpha()).isEqualTo(1.0);
        // alpha timer 1 us: a hundred decays between the CNPs at 0 and 100 us leave alpha about 0.68 for the second cut
        // (Rc about 33 Gb/s); a QP that never decayed alpha cuts by alpha 1 to 25 Gb/s
        final java.util.function.LongFunction<List<DcqcnStream.WindowFinding>> after = gap -> {
            final DcqcnStream s = new DcqcnStream(new DcqcnConstants(100_000, 1.0 / 256, 1.0, 1_000, 10_000_000,
                1L << 30, 5, 40, 400, 10), 0);
            s.onCnpReceived(0);
            s.onCnpReceived(100_000);
            send(s, 100_010, gap, 17);
            return judge(s, new DcqcnStream.Backlog(true, false));
        };
        assertThat(after.apply(320)).extracting(w -> w.finding().rule()).containsExactly("MR-CC-012");
        assertThat(after.apply(240)).isEmpty();
        assertThat(after.apply(800)).extracting(w -> w.finding().rule()).containsExactly("MR-CC-010");
    }

    @Test
    void aQpPacedAtItsTargetRateAfterASecondCnpBreaksMrCc017AndAnUncutOneMrCc010() {
        // CNPs at 0 and 10 us: Rc 50 then 25 Gb/s, Rt 100 then 50 Gb/s
        final java.util.function.LongFunction<List<DcqcnStream.WindowFinding>> after = gap -> {
            final DcqcnStream s = stream(10_000_000);
            s.onCnpReceived(0);
            s.onCnpReceived(10_000);
            send(s, 10_010, gap, 17);
            return judge(s, null);
        };
        assertThat(after.apply(160)).extracting(w -> w.finding().rule()).containsExactly("MR-CC-017");
        assertThat(after.apply(80)).extracting(w -> w.finding().rule()).containsExactly("MR-CC-010");
        assertThat(after.apply(320)).isEmpty();
    }
}

package org.metaroce.mrct.oracle.internal.cc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The rate checks know departures only to the whole ns: a window is taken 1 ns shorter for the lower bound. */
class RateGranularityTest {
    /** 16 frames of 4186 bytes (PMTU 4096) at exactly 100 Gb/s take 5358.08 ns; on the ns clock 5359 at most. */
    @Test
    void aPacerExactToTheNanosecondReachesTheRateWithinOneNanosecond() {
        final long bits = 16 * 4186 * 8L;
        final double measured = bits * 1000.0 / 5359;
        assertThat(measured).isLessThan(100_000);
        assertThat(WindowRates.upTo1NsShorter(measured, 5359)).isGreaterThanOrEqualTo(100_000)
            .isCloseTo(bits * 1000.0 / 5358, within(1e-6));
    }

    /** Rounding every gap up instead (335 ns each) leaves the window 16 ns long: still too slow at 0 % tolerance. */
    @Test
    void aPacerThatRoundsEveryGapUpStaysTooSlow() {
        final long bits = 16 * 4186 * 8L;
        assertThat(WindowRates.upTo1NsShorter(bits * 1000.0 / (16 * 335), 16 * 335)).isLessThan(100_000);
    }

    @Test
    void aWindowOfOneNanosecondOrLessIsTakenAsMeasured() {
        assertThat(WindowRates.upTo1NsShorter(5000, 1)).isEqualTo(5000);
        assertThat(WindowRates.upTo1NsShorter(5000, 0)).isEqualTo(5000);
    }
}

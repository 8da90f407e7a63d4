package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MR-CC-010 from a capture (the state before the CNP unknown), on hand-built packet sequences. */
class CutWindowTest {
    /** 100 Gb/s, rate timer 55 us, B 10 MiB. */
    private static final DcqcnConstants K = DcqcnConstants.DEFAULTS;

    /** Feeds 17 packets of 1000 bytes every {@code gap} ns from {@code from}; the finding of the last, or null. */
    private static Finding feed(final CutWindow w, final long from, final long gap) {
        Finding last = null;
        for (int i = 0; i < 17; i++) {
            last = w.onData(from + i * gap, 1_000, 10 + i, 5, Basis.FRAME);
        }
        return last;
    }

    @Test
    void aQpThatKeepsItsRateAfterACnpBreaksMrCc010() {
        final CutWindow w = new CutWindow(0, 2_000, K, 1.0);
        assertThat(w.boundMbps()).isEqualTo(50_000);
        final Finding f = feed(w, 2_100, 80);
        assertThat(f).isNotNull();
        assertThat(f.rule()).isEqualTo("MR-CC-010");
        assertThat(f.expected()).isEqualTo("at most 52500.0 Mb/s");
        assertThat(f.actual()).isEqualTo("100000.0 Mb/s");
        assertThat(f.frame()).isEqualTo(26);
        assertThat(w.firstFrame()).isEqualTo(10);
        assertThat(w.open()).isFalse();
    }

    @Test
    void aQpThatCutsItsRateIsQuiet() {
        final CutWindow w = new CutWindow(0, 2_000, K, 1.0);
        assertThat(feed(w, 2_100, 160)).isNull();
        assertThat(w.rate()).isEqualTo(50_000);
    }

    @Test
    void packetsBeforeTheReactionTimeAreNotMeasured() {
        final CutWindow w = new CutWindow(0, 2_000, K, 1.0);
        for (int i = 0; i < 20; i++) {
            assertThat(w.onData(100 + i * 10, 1_000, i, 5, Basis.FRAME)).isNull();
        }
        assertThat(w.open()).isTrue();
    }

    @Test
    void theMeasurementGivesUpWhenAnIncreaseStepMayHaveRaisedRc() {
        // the rate timer expires 55 us after the CNP
        final CutWindow late = new CutWindow(0, 2_000, K, 1.0);
        assertThat(feed(late, 55_001, 80)).isNull();
        assertThat(late.open()).isFalse();
        // the byte counter reached before the 16th packet
        final DcqcnConstants small = new DcqcnConstants(100_000, 1.0 / 256, 1.0, 55_000, 55_000, 4_000, 5, 40, 400,
            10);
        final CutWindow counted = new CutWindow(0, 2_000, small, 1.0);
        assertThat(feed(counted, 2_100, 80)).isNull();
        assertThat(counted.open()).isFalse();
    }
}

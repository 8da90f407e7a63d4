package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The DCQCN reaction point against values worked out by hand from section 14.3. */
class ReactionPointHandWorkedTest {
    /** line 100 Gb/s, g 1/256, alpha 1, timers 55 us, B 10 MiB, F 5, R_AI 40, R_HAI 400, min 10. */
    private static final DcqcnConstants K = new DcqcnConstants(100_000, 1.0 / 256, 1.0, 55_000, 55_000,
        10_485_760, 5, 40, 400, 10);

    @Test
    void aQpStartsAtLineRateAndItsFirstCnpHalvesIt() {
        final ReactionPoint model = Models.exact(K, 0, List.of(1_000L), List.of(), 1_000);
        assertThat(model.at(0).rc()).isEqualTo(100_000);
        assertThat(model.at(0).rule()).isEqualTo("MR-CC-011");
        final ReactionPoint.Point cut = model.at(1_000);
        assertThat(cut.rc()).isCloseTo(50_000, within(1e-9));
        assertThat(cut.rt()).isEqualTo(100_000);
        assertThat(cut.alpha()).isCloseTo(1.0, within(1e-12)); // (1 - g) * 1 + g
        assertThat(cut.rule()).isEqualTo("MR-CC-010");
    }

    @Test
    void theRateTimerRecoversHalfWayTowardsTheTargetEachTime() {
        final ReactionPoint model = Models.exact(K, 0, List.of(1_000L), List.of(), 1_000 + 2 * 55_000);
        assertThat(model.at(1_000 + 55_000).rc()).isCloseTo(75_000, within(1e-9));
        assertThat(model.at(1_000 + 110_000).rc()).isCloseTo(87_500, within(1e-9));
        assertThat(model.at(1_000 + 110_000).rule()).isEqualTo("MR-CC-014");
    }

    @Test
    void alphaDecaysWithoutCnpsSoALaterCutIsShallower() {
        final long later = 1_000 + 10 * 55_000 + 500;
        final ReactionPoint model = Models.exact(K, 0, List.of(1_000L, later), List.of(), later);
        final double alphaBefore = Math.pow(1 - K.g(), 10);
        final ReactionPoint.Point second = model.at(later);
        final double rcBefore = model.at(later - 1).rc();
        assertThat(second.rc()).isCloseTo(rcBefore * (1 - alphaBefore / 2), within(1e-6));
    }

    @Test
    void aByteCounterEventIsAnIncreaseStep() {
        final List<DcqcnStream.DataPacket> packets = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            packets.add(Models.packet(2_000 + i, 1_000_000));
        }
        final ReactionPoint model = Models.exact(K, 0, List.of(1_000L), packets, 3_000);
        // 11 MB sent after the CNP: one byte-counter event, fast recovery to (100000 + 50000) / 2
        assertThat(model.at(3_000).rc()).isCloseTo(75_000, within(1e-9));
        assertThat(model.at(3_000).cause()).contains("byte counter");
    }

    @Test
    void rcNeverFallsBelowTheMinimumNorRisesAboveLineRate() {
        final List<Long> cnps = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            cnps.add(1_000L + i);
        }
        final ReactionPoint model = Models.exact(K, 0, cnps, List.of(), 100_000_000);
        for (final ReactionPoint.Point point : model.points()) {
            assertThat(point.rc()).isBetween(10.0, 100_000.0);
        }
        assertThat(model.lowest(0, 100_000_000).rc()).isEqualTo(10.0);
        // without bytes sent BC stays 0: after F fast-recovery steps every rate-timer step is an additive increase
        // of R_AI, so 100 ms (1818 expiries) bring Rt to about 10 + 1813 x 40 and Rc just behind it
        assertThat(model.at(100_000_000).rt()).isCloseTo(10 + (1818 - 5) * 40.0, within(80.0));
        assertThat(model.at(100_000_000).rc()).isLessThan(model.at(100_000_000).rt());
    }
}

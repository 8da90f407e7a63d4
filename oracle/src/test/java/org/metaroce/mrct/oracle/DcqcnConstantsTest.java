package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Table 14-3's arithmetic that bounds Rc from below: each CNP at most halves it, and the minimum rate floors it. */
class DcqcnConstantsTest {
    @Test
    void eachCnpReceivedByThenAtMostHalvesTheRate() {
        final List<Long> cnps = List.of(10_000L, 20_000L, 30_000L);
        assertThat(DcqcnConstants.rateFloor(cnps, 5_000, 100_000, 10)).isEqualTo(100_000);
        assertThat(DcqcnConstants.rateFloor(cnps, 10_000, 100_000, 10)).isEqualTo(50_000);
        assertThat(DcqcnConstants.rateFloor(cnps, 29_999, 100_000, 10)).isEqualTo(25_000);
        assertThat(DcqcnConstants.rateFloor(cnps, 1_000_000, 100_000, 10)).isEqualTo(12_500);
    }

    @Test
    void theMinimumRateIsTheFloorWhateverTheCnps() {
        final List<Long> many = java.util.Collections.nCopies(100, 0L);
        assertThat(DcqcnConstants.rateFloor(many, 0, 100_000, 10)).isEqualTo(10);
        assertThat(DcqcnConstants.rateFloor(List.of(0L, 0L), 0, 30, 10)).isCloseTo(10, within(1e-9));
        assertThat(DcqcnConstants.rateFloor(List.of(), 0, 1_000, 10)).isEqualTo(1_000);
    }
}

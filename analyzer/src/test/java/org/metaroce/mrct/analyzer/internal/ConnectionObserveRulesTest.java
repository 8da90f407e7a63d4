package org.metaroce.mrct.analyzer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Connection#observeRules} counts sets of rules as they come, a few at a time, and adds them to each check's
 * count when one is read: the counts are those of one {@link Connection#observe} per check of every set, whether
 * few sets alternate or many (more than it keeps, so sets are added early to make room), and with counts read between.
 */
class ConnectionObserveRulesTest {
    private static final Check[] CHECKS = Check.values();

    @Test
    void countsAsOneObservationPerCheckOfEverySet() {
        final Random random = new Random(812);
        final int bits = Math.min(CHECKS.length, Long.SIZE);
        for (final int kinds : new int[] {1, 3, 4, 5, 9}) {
            final long[] sets = new long[kinds];
            for (int k = 0; k < kinds; k++) {
                sets[k] = random.nextLong() & (bits == Long.SIZE ? -1L : (1L << bits) - 1);
            }
            final Connection bySets = new Connection("c", null, 1);
            final Connection oneByOne = new Connection("c", null, 1);
            for (int frame = 0; frame < 5_000; frame++) {
                // mostly one kind after another, now and then a rare one
                final long set = sets[random.nextInt(10) == 0 ? random.nextInt(kinds) : frame % Math.min(kinds, 2)];
                bySets.observeRules(set, CHECKS);
                for (long r = set; r != 0; r &= r - 1) {
                    oneByOne.observe(CHECKS[Long.numberOfTrailingZeros(r)], 1);
                }
                if (frame == 2_500) {
                    assertCounts(bySets, oneByOne, kinds);
                }
            }
            assertCounts(bySets, oneByOne, kinds);
        }
    }

    private static void assertCounts(final Connection bySets, final Connection oneByOne, final int kinds) {
        long total = 0;
        for (final Check check : CHECKS) {
            assertThat(bySets.observed(check)).as("%s with %d kinds of frame", check, kinds)
                .isEqualTo(oneByOne.observed(check));
            total += oneByOne.observed(check);
        }
        assertThat(total).isPositive();
    }
}

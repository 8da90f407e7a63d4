package org.metaroce.mrct.analyzer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The buckets of a series, allocated only where its amounts fall, give the points of all {@value Buckets#POINTS}
 * buckets allocated at once (the plain algorithm, written here as the reference), bit for bit, from the bucket of the
 * first amount on: series starting early, late, going back in time, spanning many merges, with seeded random times and
 * amounts.
 */
class BucketsTest {
    /** The plain algorithm: every bucket allocated from the start. */
    private static final class Dense {
        private final long origin;
        private int shift = 10;
        private long width = 1 << 10;
        private final double[] sums = new double[Buckets.POINTS];
        private int used;

        Dense(final long origin) {
            this.origin = origin;
        }

        void add(final long tsNs, final double amount) {
            final long at = Math.max(0, tsNs - origin);
            while (at >>> shift >= Buckets.POINTS) {
                for (int j = 0; j < Buckets.POINTS / 2; j++) {
                    sums[j] = sums[2 * j] + sums[2 * j + 1];
                }
                Arrays.fill(sums, Buckets.POINTS / 2, Buckets.POINTS, 0);
                width *= 2;
                shift++;
                used = (used + 1) / 2;
            }
            final int i = (int) (at >>> shift);
            sums[i] += amount;
            used = Math.max(used, i + 1);
        }

        /** From the first bucket holding an amount (every amount here is positive): the flow's first frame. */
        List<double[]> series(final double scale) {
            final List<double[]> points = new ArrayList<>();
            int first = 0;
            while (first < used && sums[first] == 0) {
                first++;
            }
            for (int i = first; i < used; i++) {
                points.add(new double[] {i * width / 1e9, sums[i] * scale / width});
            }
            return points;
        }
    }

    @Test
    void sparseBucketsGiveTheDenseSeries() {
        final SplittableRandom random = new SplittableRandom(12);
        for (int run = 0; run < 400; run++) {
            final long origin = 1_700_000_000_000_000_000L;
            final Buckets sparse = new Buckets(origin);
            final Dense dense = new Dense(origin);
            // where the flow starts within the capture, how long it lasts, how far its times go back
            final long start = random.nextLong(run % 4 == 0 ? 1_000 : 50_000_000_000L);
            final long span = random.nextLong(1, run % 3 == 0 ? 100_000 : 20_000_000_000L);
            final int frames = random.nextInt(1, run % 5 == 0 ? 3 : 3_000);
            for (int f = 0; f < frames; f++) {
                final long back = random.nextInt(10) == 0 ? random.nextLong(span) : 0;
                final long ts = origin + start + Math.max(0, (span * f / frames) - back);
                final double amount = random.nextInt(4) == 0 ? 1 : random.nextInt(64, 8_300) * 8.0;
                sparse.add(ts, amount);
                dense.add(ts, amount);
            }
            final List<double[]> expected = dense.series(1_000);
            final List<double[]> actual = sparse.series(1_000);
            assertThat(actual).as("run %d", run).hasSameSizeAs(expected);
            for (int i = 0; i < expected.size(); i++) {
                assertThat(actual.get(i)).as("run %d point %d", run, i).containsExactly(expected.get(i));
            }
            assertThat(sparse.counts()).hasSameSizeAs(expected);
            // a flow that starts late starts its points late: none before its first frame's bucket
            assertThat(actual.get(0)[1]).as("run %d", run).isPositive();
        }
    }

    @Test
    void aOneFrameFlowLateInTheCaptureIsOnePointAtItsTimeNotAZeroRateFromTheCapturesStart() {
        final long origin = 1_000_000_000L;
        final Buckets buckets = new Buckets(origin);
        buckets.add(origin + 16_711_680L, 150 * 8.0);
        // 16.7 ms after the origin: buckets of 65,536 ns, the frame in bucket 255
        assertThat(buckets.series(1_000)).hasSize(1);
        assertThat(buckets.series(1_000).get(0)).containsExactly(255 * 65_536 / 1e9, 150 * 8.0 * 1_000 / 65_536);
        assertThat(buckets.counts()).hasSize(1);
        assertThat(new Buckets(origin).series(1_000)).isEmpty();
    }
}

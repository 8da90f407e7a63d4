package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A time series in at most {@value #POINTS} buckets, whatever the capture's length: amounts are added to the bucket of
 * their time, and when time runs past the last bucket, pairs of buckets are merged and their width doubled. The
 * HTML report plots what {@link #series} returns.
 */
final class Buckets {
    static final int POINTS = 256;

    private final long origin;
    /** The bucket width is 1024 ns times a power of two: {@code 1 << shift} ns. */
    private int shift = 10;
    private long width = 1 << 10;
    private final double[] sums = new double[POINTS];
    private int used;

    /** @param origin the time of the first frame of the capture, shared by every series of the analysis */
    Buckets(final long origin) {
        this.origin = origin;
    }

    void add(final long tsNs, final double amount) {
        final long at = Math.max(0, tsNs - origin);
        while (at >>> shift >= POINTS) {
            merge();
        }
        final int i = (int) (at >>> shift);
        sums[i] += amount;
        used = Math.max(used, i + 1);
    }

    private void merge() {
        for (int j = 0; j < POINTS / 2; j++) {
            sums[j] = sums[2 * j] + sums[2 * j + 1];
        }
        Arrays.fill(sums, POINTS / 2, POINTS, 0);
        width *= 2;
        shift++;
        used = (used + 1) / 2;
    }

    boolean isEmpty() {
        return used == 0;
    }

    /**
     * The points {@code [seconds since the origin, sum x scale / bucket width in ns]}: with bits and a scale of 1000,
     * Mb/s; with counts and a scale of 1, a count per nanosecond (use {@link #counts()} for counts per bucket).
     */
    List<double[]> series(final double scale) {
        final List<double[]> points = new ArrayList<>(used);
        for (int i = 0; i < used; i++) {
            points.add(new double[] {i * width / 1e9, sums[i] * scale / width});
        }
        return points;
    }

    /** The points {@code [seconds since the origin, sum in the bucket]}. */
    List<double[]> counts() {
        final List<double[]> points = new ArrayList<>(used);
        for (int i = 0; i < used; i++) {
            points.add(new double[] {i * width / 1e9, sums[i]});
        }
        return points;
    }
}

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
    /**
     * The buckets {@code lo} to {@code lo + sums.length - 1}; the others hold 0. Only the buckets a flow's frames fell
     * in are allocated (a short flow late in a long capture has a few, not {@value #POINTS}: the analysis keeps every
     * flow's series until the reports, so this is most of what a short connection costs).
     */
    private double[] sums = new double[0];
    private int lo;
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
        if (sums.length == 0) {
            sums = new double[1];
            lo = i;
        } else if (i < lo || i >= lo + sums.length) {
            final int from = Math.min(lo, i);
            final int to = Math.max(lo + sums.length, i + 1);
            // grown by half again at least, so that a flow moving through the buckets copies them a few times only
            final int length = Math.min(POINTS - from, Math.max(to - from, sums.length + (sums.length >> 1) + 1));
            final int start = i < lo ? Math.max(0, to - length) : from;
            final double[] grown = new double[length];
            System.arraycopy(sums, 0, grown, lo - start, sums.length);
            sums = grown;
            lo = start;
        }
        sums[i - lo] += amount;
        used = Math.max(used, i + 1);
    }

    private double at(final int i) {
        return i >= lo && i < lo + sums.length ? sums[i - lo] : 0;
    }

    /** Pairs of buckets merged into one, their width doubled (bucket j holds what 2j and 2j + 1 held). */
    private void merge() {
        if (sums.length > 0) {
            final int from = lo / 2;
            final int to = (lo + sums.length + 1) / 2;
            final double[] merged = new double[to - from];
            for (int j = from; j < to; j++) {
                merged[j - from] = at(2 * j) + at(2 * j + 1);
            }
            sums = merged;
            lo = from;
        }
        width *= 2;
        shift++;
        used = (used + 1) / 2;
    }

    boolean isEmpty() {
        return used == 0;
    }

    /**
     * The first bucket of the points: the first an amount fell in. The buckets before it are the time before the
     * flow's first frame, which the series does not show: until 2026-12-04 they were points of rate 0 from the
     * capture's start, up to 255 of them for a one-frame connection late in a capture (the series of the 20,000
     * connections of {@code GenerateTraffic FILE 20000 connections 7} held 7,333,364 numbers, 40,000 without them;
     * report.json 452 MB, 381 MB without).
     */
    private int first() {
        return sums.length == 0 ? used : lo;
    }

    /**
     * The points {@code [seconds since the origin, sum x scale / bucket width in ns]}, from the bucket of the flow's
     * first frame to that of its last: with bits and a scale of 1000, Mb/s; with counts and a scale of 1, a count per
     * nanosecond (use {@link #counts()} for counts per bucket).
     */
    List<double[]> series(final double scale) {
        final List<double[]> points = new ArrayList<>(used - first());
        for (int i = first(); i < used; i++) {
            points.add(new double[] {i * width / 1e9, at(i) * scale / width});
        }
        return points;
    }

    /** The points {@code [seconds since the origin, sum in the bucket]}, from the first amount's bucket. */
    List<double[]> counts() {
        final List<double[]> points = new ArrayList<>(used - first());
        for (int i = first(); i < used; i++) {
            points.add(new double[] {i * width / 1e9, at(i)});
        }
        return points;
    }
}

package org.metaroce.mrct.analyzer.internal;

import java.util.List;

/**
 * A flow's data rate over time, as section 14.4 counts it: (frame length + 4) x 8 bits per data packet, requests,
 * retransmissions and read responses alike; and the CNPs its QP received, on the same time axis.
 */
final class RateMeter {
    private final Buckets bits;
    private final Buckets cnps;
    long dataBits;
    long firstNs = Long.MIN_VALUE;
    long lastNs;

    RateMeter(final long origin) {
        bits = new Buckets(origin);
        cnps = new Buckets(origin);
    }

    void data(final long tsNs, final int frameLength) {
        final long b = (frameLength + 4L) * 8L;
        bits.add(tsNs, b);
        dataBits += b;
        if (firstNs == Long.MIN_VALUE) {
            firstNs = tsNs;
        }
        lastNs = tsNs;
    }

    void cnpReceived(final long tsNs) {
        cnps.add(tsNs, 1);
    }

    /** Mb/s per bucket. */
    List<double[]> rate() {
        return bits.series(1_000);
    }

    List<double[]> cnps() {
        return cnps.counts();
    }

    boolean hasData() {
        return !bits.isEmpty();
    }

    boolean hasCnps() {
        return !cnps.isEmpty();
    }

    /** The mean data rate between the first and the last data packet, Mb/s; 0 with fewer than two. */
    double meanMbps() {
        return lastNs > firstNs && firstNs != Long.MIN_VALUE ? dataBits * 1_000.0 / (lastNs - firstNs) : 0;
    }
}

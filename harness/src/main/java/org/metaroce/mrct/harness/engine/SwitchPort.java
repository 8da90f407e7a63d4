package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A switch egress port on the way from the device to the peer: a FIFO drained at a fixed rate, shared with background
 * traffic modelled as a fluid, marking CE on enqueue with DCQCN's RED-like profile (probability 0 below Kmin, rising
 * linearly to Pmax at Kmax, 1 above) and dropping what would overflow its buffer. Time in nanoseconds, rates in Mb/s
 * (bits per microsecond), lengths in bytes. Marking draws come from the case's seed.
 */
final class SwitchPort {
    /** A background load active in [from, to). */
    record Load(double mbps, long from, long to) {
    }

    /** What happened to one frame. */
    record Fate(boolean dropped, boolean marked, long departure) {
    }

    private final double bytesPerNs;
    private final long kmin;
    private final long kmax;
    private final double pmax;
    private final long buffer;
    private final List<Load> loads;
    private final SplittableRandom random;
    private double queue;
    private long updated;
    private double maxQueue;
    private final List<double[]> samples = new ArrayList<>();

    SwitchPort(final double rateMbps, final long kmin, final long kmax, final double pmax, final long buffer,
               final List<Load> loads, final long start, final SplittableRandom random) {
        if (rateMbps <= 0 || kmax < kmin || pmax < 0 || pmax > 1) {
            throw new IllegalArgumentException("switch: rate_mbps must be positive, kmin <= kmax, pmax_pct 0..100");
        }
        this.bytesPerNs = rateMbps / 8000.0;
        this.kmin = kmin;
        this.kmax = kmax;
        this.pmax = pmax;
        this.buffer = buffer;
        this.loads = List.copyOf(loads);
        this.random = random;
        this.updated = start;
    }

    /** Brings the fluid queue to {@code time}: the drain and every background load active meanwhile. */
    private void advance(final long time) {
        long t = updated;
        while (t < time) {
            long next = time;
            double inflow = 0;
            for (final Load load : loads) {
                if (load.from() > t && load.from() < next) {
                    next = load.from();
                }
                if (load.to() > t && load.to() < next) {
                    next = load.to();
                }
                if (load.from() <= t && t < load.to()) {
                    inflow += load.mbps() / 8000.0;
                }
            }
            queue = Math.min(buffer, Math.max(0, queue + (inflow - bytesPerNs) * (next - t)));
            maxQueue = Math.max(maxQueue, queue);
            t = next;
        }
        updated = Math.max(updated, time);
    }

    /** A frame of {@code bytes} reaching the port at {@code time}. */
    Fate enqueue(final long time, final int bytes) {
        advance(time);
        final double p = queue <= kmin ? 0 : queue >= kmax ? 1 : pmax * (queue - kmin) / Math.max(1, kmax - kmin);
        final boolean marked = p > 0 && random.nextDouble() < p;
        if (queue + bytes > buffer) {
            samples.add(new double[] {time, queue});
            return new Fate(true, false, time);
        }
        queue += bytes;
        maxQueue = Math.max(maxQueue, queue);
        samples.add(new double[] {time, queue});
        return new Fate(false, marked, time + (long) Math.ceil(queue / bytesPerNs));
    }

    /** The queue length at each arrival: (time ns, bytes). */
    List<double[]> samples() {
        return samples;
    }

    double maxQueue() {
        return maxQueue;
    }

    /** The largest queue seen at an arrival at or after {@code time}. */
    double maxQueueSince(final long time) {
        double max = 0;
        for (final double[] sample : samples) {
            if (sample[0] >= time) {
                max = Math.max(max, sample[1]);
            }
        }
        return max;
    }
}

package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * The DCQCN reaction point of one QP as MetaRoCE v1 section 14.3 defines it, replayed from what the harness saw: the
 * instant the QP entered RTS, the CNPs it received and the data bytes it sent. The result is the rate Rc the QP's pacer
 * must keep to at every moment, with the event that set it, so that window rates measured on the wire can be compared
 * with it (MR-CC-010 to MR-CC-017). Rates in Mb/s, times in nanoseconds.
 */
final class DcqcnModel {
    /** The DCQCN constants of Appendix B. */
    record Constants(double lineRateMbps, double g, double alphaInit, long alphaTimerNs, long rateTimerNs,
                     long byteCounter, int f, double raiMbps, double rhaiMbps, double minRateMbps) {
    }

    /** Rc from {@code time} on, and why (the rule whose action set it). */
    record Point(long time, double rc, double rt, double alpha, String cause, String rule) {
    }

    /** A data packet sent: its time and its frame length plus 4 (FCS). */
    record Packet(long time, int bytes) {
    }

    private final Constants k;
    private final boolean rtLimitedFirst;
    private final List<Point> points = new ArrayList<>();

    private double rc;
    private double rt;
    private double alpha;
    private int timerEvents;
    private int byteEvents;
    private long bytes;

    /**
     * Replays the reaction point from {@code rts} to {@code until}. Timers due at the instant of a CNP expire first
     * (alpha before rate), as a device catching up its timers when the CNP arrives would.
     */
    DcqcnModel(final Constants constants, final long rts, final List<Long> cnps, final List<Packet> packets,
               final long until) {
        this(constants, false, rts, cnps, packets, until);
    }

    /**
     * With {@code rtLimitedFirst}, an increase step limits Rt to the line rate before it computes Rc := (Rt + Rc) / 2,
     * the other reading of "after every action" in Table 14-3 (section 14.3 applies the limits after the whole
     * action, so Rc may be computed from an Rt above the line rate); it never gives a higher Rc.
     */
    DcqcnModel(final Constants constants, final boolean rtLimitedFirst, final long rts, final List<Long> cnps,
               final List<Packet> packets, final long until) {
        this.k = constants;
        this.rtLimitedFirst = rtLimitedFirst;
        rc = k.lineRateMbps();
        rt = k.lineRateMbps();
        alpha = k.alphaInit();
        points.add(new Point(rts, rc, rt, alpha, "entering RTS", "MR-CC-011"));
        long alphaNext = rts + k.alphaTimerNs();
        long rateNext = rts + k.rateTimerNs();
        int c = 0;
        int p = 0;
        while (true) {
            final long tc = c < cnps.size() ? cnps.get(c) : Long.MAX_VALUE;
            final long tp = p < packets.size() ? packets.get(p).time() : Long.MAX_VALUE;
            final long t = Math.min(Math.min(tc, tp), Math.min(alphaNext, rateNext));
            if (t > until) {
                break;
            }
            if (alphaNext == t) {
                alpha = (1 - k.g()) * alpha;
                alphaNext = t + k.alphaTimerNs();
            } else if (rateNext == t) {
                timerEvents++;
                increase(t, "rate timer");
                rateNext = t + k.rateTimerNs();
            } else if (tc == t) {
                rt = rc;
                rc = Math.max(k.minRateMbps(), rc * (1 - alpha / 2));
                alpha = (1 - k.g()) * alpha + k.g();
                timerEvents = 0;
                byteEvents = 0;
                bytes = 0;
                alphaNext = t + k.alphaTimerNs();
                rateNext = t + k.rateTimerNs();
                record(t, "CNP", "MR-CC-010");
                c++;
            } else {
                bytes += packets.get(p).bytes();
                while (bytes >= k.byteCounter()) {
                    byteEvents++;
                    bytes -= k.byteCounter();
                    increase(t, "byte counter");
                }
                p++;
            }
        }
    }

    private void increase(final long time, final String trigger) {
        final String step;
        if (timerEvents < k.f() && byteEvents < k.f()) {
            step = "fast recovery";
        } else if (timerEvents > k.f() && byteEvents > k.f()) {
            rt += (Math.min(timerEvents, byteEvents) - k.f()) * k.rhaiMbps();
            step = "hyper increase";
        } else {
            rt += k.raiMbps();
            step = "additive increase";
        }
        if (rtLimitedFirst) {
            rt = Math.min(rt, k.lineRateMbps());
        }
        rc = (rt + rc) / 2;
        rt = Math.min(rt, k.lineRateMbps());
        rc = Math.max(k.minRateMbps(), Math.min(rc, k.lineRateMbps()));
        record(time, step + " (" + trigger + ", T " + timerEvents + ", BC " + byteEvents + ")", "MR-CC-014");
    }

    private void record(final long time, final String cause, final String rule) {
        final Point last = points.get(points.size() - 1);
        if (last.rc() != rc || rule.equals("MR-CC-010")) {
            points.add(new Point(time, rc, rt, alpha, cause, rule));
        }
    }

    /** Every change of Rc, in time order (the first is the QP entering RTS). */
    List<Point> points() {
        return points;
    }

    /** The point in force at {@code time}. */
    Point at(final long time) {
        Point current = points.get(0);
        for (final Point point : points) {
            if (point.time() > time) {
                break;
            }
            current = point;
        }
        return current;
    }

    /** The largest Rc in force at any moment of [from, to]. */
    double max(final long from, final long to) {
        double max = at(from).rc();
        for (final Point point : points) {
            if (point.time() > from && point.time() <= to) {
                max = Math.max(max, point.rc());
            }
        }
        return max;
    }

    /** The smallest Rc in force at any moment of [from, to]. */
    double min(final long from, final long to) {
        return lowest(from, to).rc();
    }

    /** The point whose Rc is the smallest in force during [from, to] (the earliest of equals). */
    Point lowest(final long from, final long to) {
        Point min = at(from);
        for (final Point point : points) {
            if (point.time() > from && point.time() <= to && point.rc() < min.rc()) {
                min = point;
            }
        }
        return min;
    }
}

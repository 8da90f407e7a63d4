package org.metaroce.mrct.oracle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The DCQCN reaction point of one QP as section 14.3 defines it (Tables 14-2 and 14-3), fed in time order with what
 * the observer saw: the CNPs the QP received and the data packets it sent, from the instant it entered RTS. It keeps
 * every change of the current rate Rc with the event that set it, so that window rates measured on the wire can be
 * compared with it (MR-CC-010 to MR-CC-017). Timers are run lazily up to each event: a timer due at the instant of a
 * CNP or a packet expires first, the alpha timer before the rate timer, as a device catching up its timers would.
 *
 * <p>Table 14-3 limits Rc and Rt once an event's whole action is done (spec v1.1, which settled the order): an
 * increase step computes Rc := (Rt + Rc) / 2 from an Rt that may be above the line rate and limits both afterwards.
 * Both bounds use that order, the upper one with timers on time, the lower one with the latest timers
 * ({@link DcqcnConstants#latest}). With {@code rtLimitedFirst} Rt is limited before Rc follows it: the model of a
 * device that reads Table 14-3 the other way (it never gives a higher Rc), which conforms no longer.
 */
public final class ReactionPoint {
    /** Rule IDs the model's points name. */
    public static final String RTS = "MR-CC-011";
    public static final String CUT = "MR-CC-010";
    public static final String INCREASE = "MR-CC-014";

    /**
     * Rc from {@code time} on, with Rt and alpha there, and why: {@code cause} in words, {@code rule} the rule whose
     * action set it (MR-CC-011 entering RTS, MR-CC-010 a CNP, MR-CC-014 an increase step).
     */
    public record Point(long time, double rc, double rt, double alpha, String cause, String rule) {
        /** "Rc 50000.0 Mb/s, Rt 100000.0 Mb/s, alpha 1.0000". */
        public String state() {
            return String.format(Locale.ROOT, "Rc %.1f Mb/s, Rt %.1f Mb/s, alpha %.4f", rc, rt, alpha);
        }
    }

    private final DcqcnConstants k;
    private final boolean rtLimitedFirst;
    private boolean rateTimerFromPackets;
    private final List<Point> points = new ArrayList<>();
    private double rc;
    private double rt;
    private double alpha;
    private int timerEvents;
    private int byteEvents;
    private long bytes;
    private long alphaNext;
    private long rateNext;
    private long now;

    /** A QP entering RTS at {@code rtsNs}: Rc and Rt at the line rate, alpha at dcqcn_alpha_init (MR-CC-011). */
    public ReactionPoint(final DcqcnConstants constants, final boolean rtLimitedFirst, final long rtsNs) {
        this.k = constants;
        this.rtLimitedFirst = rtLimitedFirst;
        rc = k.lineRateMbps();
        rt = k.lineRateMbps();
        alpha = k.alphaInit();
        points.add(new Point(rtsNs, rc, rt, alpha, "entering RTS", RTS));
        alphaNext = rtsNs + k.alphaTimerNs();
        rateNext = rtsNs + k.rateTimerNs();
        now = rtsNs;
    }

    /** The exact model of a QP entering RTS at {@code rtsNs}. */
    public ReactionPoint(final DcqcnConstants constants, final long rtsNs) {
        this(constants, false, rtsNs);
    }

    /**
     * Makes this model that of a QP whose rate timer counts from its last data packet sent instead of from the last CNP
     * or expiry (MR-CC-013 broken: a backlogged QP's timer then expires only when a packet takes longer than
     * dcqcn_rate_timer_ns to leave); to be called before the first event. Returns this model.
     */
    public ReactionPoint rateTimerFromPackets() {
        rateTimerFromPackets = true;
        return this;
    }

    /** The constants the model runs with. */
    public DcqcnConstants constants() {
        return k;
    }

    /** Runs the timers due up to and including {@code time}; time never goes back. */
    public void advance(final long time) {
        while (Math.min(alphaNext, rateNext) <= time) {
            if (alphaNext <= rateNext) {
                final long t = alphaNext;
                alpha = (1 - k.g()) * alpha;
                alphaNext = t + k.alphaTimerNs();
            } else {
                final long t = rateNext;
                timerEvents++;
                increase(t, "rate timer");
                rateNext = t + k.rateTimerNs();
            }
        }
        now = Math.max(now, time);
    }

    /** A CNP for the QP received at {@code time} (MR-CC-010). */
    public void cnp(final long time) {
        advance(time);
        rt = rc;
        rc = Math.max(k.minRateMbps(), rc * (1 - alpha / 2));
        alpha = (1 - k.g()) * alpha + k.g();
        timerEvents = 0;
        byteEvents = 0;
        bytes = 0;
        alphaNext = time + k.alphaTimerNs();
        rateNext = time + k.rateTimerNs();
        record(time, "CNP", CUT);
    }

    /**
     * A data packet the QP sent at {@code time}, of {@code wireBytes} (its frame length plus 4, the FCS): A grows by
     * them, and a packet that carries A past several multiples of dcqcn_byte_counter makes one increase step per
     * multiple (MR-CC-013).
     */
    public void sent(final long time, final long wireBytes) {
        advance(time);
        if (rateTimerFromPackets) {
            rateNext = time + k.rateTimerNs();
        }
        bytes += wireBytes;
        while (bytes >= k.byteCounter()) {
            byteEvents++;
            bytes -= k.byteCounter();
            increase(time, "byte counter");
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
        record(time, step + " (" + trigger + ", T " + timerEvents + ", BC " + byteEvents + ")", INCREASE);
    }

    private void record(final long time, final String cause, final String rule) {
        final Point last = points.get(points.size() - 1);
        if (last.rc() != rc || rule.equals(CUT)) {
            points.add(new Point(time, rc, rt, alpha, cause, rule));
        }
    }

    /** Every change of Rc so far, in time order (the first is the QP entering RTS); a read-only view. */
    public List<Point> points() {
        return Collections.unmodifiableList(points);
    }

    /** The point in force at {@code time}. */
    public Point at(final long time) {
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
    public double max(final long from, final long to) {
        double max = at(from).rc();
        for (final Point point : points) {
            if (point.time() > from && point.time() <= to) {
                max = Math.max(max, point.rc());
            }
        }
        return max;
    }

    /** The largest Rt in force at any moment of [from, to]. */
    public double maxRt(final long from, final long to) {
        double max = at(from).rt();
        for (final Point point : points) {
            if (point.time() > from && point.time() <= to) {
                max = Math.max(max, point.rt());
            }
        }
        return max;
    }

    /**
     * The point whose Rc is the smallest in force during [from, to]; of equals the latest, the event that last set that
     * Rc (a CNP that cuts by nothing, alpha being 0, sets the Rc the QP had since RTS: a QP slower than it after the CNP
     * reacted to the CNP, not to entering RTS).
     */
    public Point lowest(final long from, final long to) {
        Point min = at(from);
        for (final Point point : points) {
            if (point.time() > from && point.time() <= to && point.rc() <= min.rc()) {
                min = point;
            }
        }
        return min;
    }

    /** The current alpha (after the timers run up to the last event or {@link #advance}). */
    public double alpha() {
        return alpha;
    }

    /** The time of the last event or {@link #advance}. */
    public long now() {
        return now;
    }
}

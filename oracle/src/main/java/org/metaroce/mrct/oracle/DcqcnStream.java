package org.metaroce.mrct.oracle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.metaroce.mrct.oracle.internal.cc.WindowRates;

/**
 * One QP's side of section 14 as a reaction point, fed frame by frame with the times the frames were seen: the data
 * packets it sent (requests, retransmissions, read responses) and the CNPs it received. It replays the QP's DCQCN state
 * ({@link ReactionPoint}) and judges its window rates (section 14.4) against it: a window above the largest Rc in force
 * breaks MR-CC-017 (MR-CC-015 above the line rate, MR-CC-010 while the Rc of a CNP's cut is in force), and, where the
 * caller knows the QP was kept backlogged (a live run does, a capture does not), a window below the smallest Rc the QP
 * had to keep up with blames the event that set that Rc (the lower bound of MR-CC-019, a MUST since spec v1.1, which
 * section 14.4 states for a backlogged QP).
 */
public final class DcqcnStream {
    /** A data packet the QP sent: when, its frame length plus 4 (the FCS), and its number for the findings. */
    public record DataPacket(long time, long wireBytes, long frame) {
    }

    /**
     * A finding on a window, with the window (its first packet's time {@code t0}, its closing time {@code t16}, the
     * index of its first packet) and the model point the finding blames.
     */
    public record WindowFinding(Finding finding, long t0, long t16, int first, ReactionPoint.Point point) {
    }

    /** What only a live run knows of the QP: that it had work to send throughout, and at the end of the interval. */
    public record Backlog(boolean throughout, boolean atEnd) {
    }

    private final DcqcnConstants k;
    private final long rtsNs;
    private final List<DataPacket> sent = new ArrayList<>();
    private final List<Long> cnps = new ArrayList<>();
    private final List<Long> othersCnps = new ArrayList<>();

    /** The QP entered RTS at {@code rtsNs} with constants {@code k}. */
    public DcqcnStream(final DcqcnConstants k, final long rtsNs) {
        this.k = k;
        this.rtsNs = rtsNs;
    }

    /** A data packet the QP sent, in time order. */
    public void onDataSent(final long time, final long wireBytes, final long frame) {
        sent.add(new DataPacket(time, wireBytes, frame));
    }

    /** A CNP the QP received, in time order. */
    public void onCnpReceived(final long time) {
        cnps.add(time);
    }

    /**
     * A CNP that the device received, in time order, naming another of its QPs (bth.dqpn not this QP's): what a live
     * run knows and a capture may, so that a window slowed by it blames MR-CC-016.
     */
    public void onOtherQpsCnp(final long time) {
        othersCnps.add(time);
    }

    /** The data packets so far, read-only. */
    public List<DataPacket> sent() {
        return Collections.unmodifiableList(sent);
    }

    /** The CNPs received so far, read-only. */
    public List<Long> cnps() {
        return Collections.unmodifiableList(cnps);
    }

    public DcqcnConstants constants() {
        return k;
    }

    /** The exact model of the QP up to {@code until}: the largest Rc a conforming QP can have at each moment. */
    public ReactionPoint model(final long until) {
        return replay(new ReactionPoint(k, false, rtsNs), until);
    }

    /**
     * The model with the latest timers the timer window allows (plus the observer's {@code toleranceNs}): with the exact
     * one, it bounds the smallest Rc a conforming QP can have. An increase step computes Rc from the raised Rt before
     * Rt is limited, as in the exact model: spec v1.1 settles the order (Table 14-3, MR-CC-014), so a QP that limits Rt
     * first, and recovers more slowly near the line rate, is too slow for this bound.
     */
    public ReactionPoint latestModel(final long until, final long toleranceNs) {
        return replay(new ReactionPoint(k.latest(toleranceNs), false, rtsNs), until);
    }

    /**
     * The lower-bound model of a QP that never decays alpha (MR-CC-012 broken): what a window too slow for the
     * conforming models is compared with before a CNP's cut is blamed.
     */
    public ReactionPoint withoutAlphaDecay(final long until, final long toleranceNs) {
        return replay(new ReactionPoint(k.latest(toleranceNs).withoutAlphaDecay(), false, rtsNs), until);
    }

    /** Ways a QP can make fewer increase steps than MR-CC-013 requires (the models of {@link #missingSteps}). */
    public enum MissingSteps {
        /** The rate timer's expiries make no step. */
        RATE_TIMER,
        /** The byte counter's multiples make no step. */
        BYTE_COUNTER,
        /** The rate timer counts from the last data packet sent, not from the last CNP or expiry. */
        TIMER_FROM_PACKETS
    }

    /**
     * The model of a QP that makes fewer increase steps than MR-CC-013 requires, in the way {@code missing} says: what a
     * window too slow for an Rc set by an increase step is compared with before the step's kind (MR-CC-014) is blamed.
     * With {@code toleranceNs} at or above 0 the timers are the latest the timer window allows (a lower bound), below 0
     * exact.
     */
    public ReactionPoint missingSteps(final MissingSteps missing, final long until, final long toleranceNs) {
        final DcqcnConstants timers = toleranceNs < 0 ? k : k.latest(toleranceNs);
        return switch (missing) {
            case RATE_TIMER -> replay(new ReactionPoint(timers.withoutRateTimerSteps(), false, rtsNs), until);
            case BYTE_COUNTER -> replay(new ReactionPoint(timers.withoutByteCounterSteps(), false, rtsNs), until);
            case TIMER_FROM_PACKETS -> replay(new ReactionPoint(timers, false, rtsNs).rateTimerFromPackets(),
                until);
        };
    }

    /**
     * The lower-bound model of the QP had it also taken the CNPs that named the device's other QPs (MR-CC-016 broken),
     * or null when there were none.
     */
    public ReactionPoint withOtherQpsCnps(final long until, final long toleranceNs) {
        if (othersCnps.isEmpty()) {
            return null;
        }
        final List<Long> all = new ArrayList<>(cnps);
        all.addAll(othersCnps);
        all.sort(null);
        return replay(new ReactionPoint(k.latest(toleranceNs), false, rtsNs), all, until);
    }

    /** Feeds the model every CNP and packet up to {@code until} in time order, a CNP before a packet of its instant. */
    private ReactionPoint replay(final ReactionPoint model, final long until) {
        return replay(model, cnps, until);
    }

    private ReactionPoint replay(final ReactionPoint model, final List<Long> cnps, final long until) {
        int c = 0;
        int p = 0;
        while (true) {
            final long tc = c < cnps.size() ? cnps.get(c) : Long.MAX_VALUE;
            final long tp = p < sent.size() ? sent.get(p).time() : Long.MAX_VALUE;
            if (Math.min(tc, tp) > until) {
                break;
            }
            if (tc <= tp) {
                model.cnp(tc);
                c++;
            } else {
                model.sent(tp, sent.get(p).wireBytes());
                p++;
            }
        }
        model.advance(until);
        return model;
    }

    /** Window rates of the packets (section 14.4): (closing time, Mb/s, index of the first packet), in order. */
    public List<double[]> windowRates() {
        return WindowRates.closed(sent);
    }

    /**
     * The window of the last 16 packets sent by {@code to}, closed at {@code to} instead of by a 17th packet: (to, the
     * most its window rate can still be in Mb/s, index of its first packet), or null.
     */
    public double[] openWindow(final long to) {
        return WindowRates.open(sent, to);
    }

    /**
     * Judges the windows that lie in [from, to] against the model up to {@code now}; every finding, in window order.
     *
     * @param tolerancePct rate_tolerance_pct
     * @param toleranceNs  the observer's own timing tolerance (0 on virtual time)
     * @param backlog      what a live run knows of the QP's backlog, or null: then no window is too slow
     */
    public List<WindowFinding> checkWindows(final long from, final long to, final long now, final double tolerancePct,
                                            final long toleranceNs, final Backlog backlog) {
        return WindowRates.judge(this, from, to, now, tolerancePct / 100.0, toleranceNs, backlog);
    }

    /** The instant the QP entered RTS. */
    public long rts() {
        return rtsNs;
    }
}

package org.metaroce.mrct.reference.internal;

/**
 * The DCQCN reaction point of one QP (MetaRoCE v1 section 14.3): current rate Rc, target rate Rt, alpha, the timer
 * and byte counters. Timers are evaluated lazily: before every event the state is brought up to the current virtual
 * time by replaying, in order, the timer expiries that fell due, which gives exactly the state eager timers would, but
 * costs nothing for idle QPs (a case may create 65,536 of them).
 */
final class Dcqcn {
    private final DcqcnParameters p;
    private final java.util.Set<org.metaroce.mrct.reference.Fault> faults;
    private double rc;
    private double rt;
    private double alpha;
    private int timerEvents;
    private int byteEvents;
    private long bytes;
    private long nextAlpha;
    private long nextRate;

    Dcqcn(final DcqcnParameters parameters, final long now,
          final java.util.Set<org.metaroce.mrct.reference.Fault> faults) {
        this.p = parameters;
        this.faults = faults;
        this.rc = parameters.lineRateMbps();
        this.rt = parameters.lineRateMbps();
        this.alpha = parameters.alphaInit();
        this.nextAlpha = now + parameters.alphaTimerNs();
        this.nextRate = now + parameters.rateTimerNs();
    }

    /** Current rate in Mb/s, after catching up with the timers due by {@code now}. */
    double rate(final long now) {
        catchUp(now);
        return rc;
    }

    double target(final long now) {
        catchUp(now);
        return rt;
    }

    double alpha(final long now) {
        catchUp(now);
        return alpha;
    }

    /** A CNP for this QP arrived (rule MR-CC-010). */
    void onCnp(final long now) {
        catchUp(now);
        if (faults.contains(org.metaroce.mrct.reference.Fault.NO_RATE_CUT)) {
            return;
        }
        rt = rc;
        final boolean raisedFirst = faults.contains(org.metaroce.mrct.reference.Fault.ALPHA_RAISED_BEFORE_CUT);
        if (raisedFirst) { // the bug: the order of Table 14-2's steps swapped
            alpha = (1 - p.g()) * alpha + p.g();
        }
        rc = rc * (1 - (faults.contains(org.metaroce.mrct.reference.Fault.WRONG_CUT_FACTOR) ? alpha : alpha / 2));
        if (!raisedFirst) {
            alpha = (1 - p.g()) * alpha + p.g();
        }
        timerEvents = 0;
        byteEvents = 0;
        bytes = 0;
        nextAlpha = now + p.alphaTimerNs();
        nextRate = now + p.rateTimerNs();
        clamp();
    }

    /** A data packet of {@code frameBytes} (frame length plus 4 for the FCS) left the port. */
    void onSent(final long now, final long frameBytes) {
        catchUp(now);
        if (faults.contains(org.metaroce.mrct.reference.Fault.RATE_TIMER_RESTARTED_ON_SEND)) {
            // the bug: the timer that runs from the last CNP or expiry is restarted by every packet sent
            nextRate = now + p.rateTimerNs();
        }
        bytes += frameBytes;
        while (bytes >= p.byteCounter()) {
            bytes -= p.byteCounter();
            byteEvents++;
            increase();
        }
    }

    private void catchUp(final long now) {
        while (nextAlpha <= now || nextRate <= now) {
            if (nextAlpha <= nextRate) {
                final long periods = (now - nextAlpha) / p.alphaTimerNs();
                final boolean decays = !faults.contains(org.metaroce.mrct.reference.Fault.NO_ALPHA_DECAY);
                if (periods > 64) {
                    alpha *= decays ? Math.pow(1 - p.g(), periods) : 1;
                    nextAlpha += periods * p.alphaTimerNs();
                } else {
                    alpha = decays ? (1 - p.g()) * alpha : alpha;
                    nextAlpha += p.alphaTimerNs();
                }
            } else {
                if (rc >= p.lineRateMbps() && rt >= p.lineRateMbps()
                    && !faults.contains(org.metaroce.mrct.reference.Fault.RATE_ABOVE_LINE)) {
                    // at line rate nothing an increase step does is visible: jump over the expiries
                    final long periods = (now - nextRate) / p.rateTimerNs() + 1;
                    timerEvents = (int) Math.min(Integer.MAX_VALUE, timerEvents + periods);
                    nextRate += periods * p.rateTimerNs();
                } else {
                    timerEvents++;
                    increase();
                    nextRate += p.rateTimerNs();
                }
            }
        }
    }

    private void increase() {
        final int f = p.f() + (faults.contains(org.metaroce.mrct.reference.Fault.FAST_RECOVERY_OFF_BY_ONE) ? 1 : 0);
        if (timerEvents < f && byteEvents < f) {
            rc = (rt + rc) / 2;
        } else if (timerEvents > p.f() && byteEvents > p.f()) {
            final int i = Math.min(timerEvents, byteEvents) - p.f();
            rt = rt + i * p.rhaiMbps();
            rc = (limitedFirst(rt) + rc) / 2;
        } else {
            rt = rt + p.raiMbps();
            rc = (limitedFirst(rt) + rc) / 2;
        }
        clamp();
    }

    /** Rt as the increase step uses it: unlimited (Table 14-3 limits after the whole action), unless the fault. */
    private double limitedFirst(final double raised) {
        return faults.contains(org.metaroce.mrct.reference.Fault.RT_LIMITED_BEFORE_RC)
            ? Math.min(raised, p.lineRateMbps()) : raised;
    }

    private void clamp() {
        final double ceiling = faults.contains(org.metaroce.mrct.reference.Fault.RATE_ABOVE_LINE)
            ? p.lineRateMbps() * 1.2 : p.lineRateMbps();
        rt = Math.min(rt, ceiling);
        rc = Math.min(rc, ceiling);
        rc = Math.max(rc, p.minRateMbps());
    }
}

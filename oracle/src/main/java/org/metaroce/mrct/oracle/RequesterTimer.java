package org.metaroce.mrct.oracle;

/**
 * One QP's retransmission timer and retry counter (Table 13-1), as a judge follows them from what it sees: started
 * when a PSN is sent while none is in flight and restarted on progress ({@link #start}, with D = rto_low_ns while at
 * most n_low PSNs are in flight, rto_high_ns otherwise: MR-RTX-007), run with rto_low_ns for the acknowledgement probe
 * ({@link #startProbe}: MR-RTX-020), stopped during an RNR wait or with nothing awaited ({@link #stop}). At its expiry
 * una must leave within the timer window of the front matter, T to T + T/10 + 2000 ns ({@link #latest}: MR-RTX-009,
 * MR-RTX-007 when the timer ran for rto_low_ns); una is sent at most retry_cnt + 1 times between two progress events
 * ({@link #exhausted}: MR-RTX-010, the counter back to 0 on progress: MR-RTX-011).
 *
 * <p>The live engine follows it for the device it drives (and adds what only it knows: when its pacer let the resend
 * leave); {@code mrct analyze} does not judge these rules (a capture does not show what the device learnt in time).
 */
public final class RequesterTimer {
    /** Not running. */
    public static final long NONE = Long.MIN_VALUE;
    /** The rule of the timeout used when at most n_low PSNs are in flight. */
    public static final String RTO_RULE = "MR-RTX-007";
    /** The rule of una's retransmission at the expiry. */
    public static final String EXPIRY_RULE = "MR-RTX-009";
    /** The rule of the moments the timer (re)starts. */
    public static final String RESTART_RULE = "MR-RTX-008";
    /** The rule of the retries' limit. */
    public static final String RETRY_RULE = "MR-RTX-010";
    /** The rule of the acknowledgement probe's timer. */
    public static final String PROBE_RULE = "MR-RTX-020";

    private final long rtoLowNs;
    private final long rtoHighNs;
    private final int nLow;
    private final int retryCnt;
    private long started = NONE;
    /** When a timer never restarted on progress would have started: {@link #started} but for {@link #progressed}. */
    private long unrestarted = NONE;
    /** True from una's resend at an expiry until the next answer or first transmission ({@link #settled}). */
    private boolean expiryResend;
    private long duration;
    /** The longest duration the device may have chosen: above {@link #duration} only after {@link #mayHaveCounted}. */
    private long longest;
    private int retries;

    /** A QP with these attributes (Appendix B). */
    public RequesterTimer(final long rtoLowNs, final long rtoHighNs, final int nLow, final int retryCnt) {
        this.rtoLowNs = rtoLowNs;
        this.rtoHighNs = rtoHighNs;
        this.nLow = nLow;
        this.retryCnt = retryCnt;
    }

    /** (Re)starts the timer at {@code time} with {@code inFlight} PSNs in flight. */
    public void start(final long time, final int inFlight) {
        unrestarted = time;
        started = time;
        duration = inFlight <= nLow ? rtoLowNs : rtoHighNs;
        longest = duration;
    }

    /**
     * Restarts the timer at {@code time} on progress that leaves {@code inFlight} PSNs in flight (MR-RTX-008), keeping
     * when it ran from before, so that a resend at the expiry of the timer not restarted is told apart
     * ({@link #earlyRule}).
     */
    public void progressed(final long time, final int inFlight) {
        final long from = running() ? unrestarted : time;
        start(time, inFlight);
        unrestarted = from;
    }

    /** una was resent at this timer's expiry: until {@link #settled}, no other PSN may follow it (MR-RTX-009). */
    public void resentAtExpiry() {
        expiryResend = true;
    }

    /** An answer arrived or a PSN was sent for the first time: a later resend is no longer part of an expiry's. */
    public void settled() {
        expiryResend = false;
    }

    /**
     * The rule a resend of {@code psn}, not una, without a cause breaks: MR-RTX-009 when it follows una's resend at an
     * expiry with nothing between (an expiry resends una and only una), else MR-RTX-002.
     */
    public String otherResendRule() {
        return expiryResend ? EXPIRY_RULE : "MR-RTX-002";
    }

    /**
     * A judge at one end of a link of some latency sees the device's view only late: the device restarted the timer
     * when the acknowledgement reached it, and by then it may have counted PSNs in flight that the judge saw only
     * after its start (sent just before or just after the acknowledgement arrived: they crossed on the wire). A judge
     * calls this with the PSNs in flight once it sees such a PSN; with more than n_low the device may rightly have
     * chosen rto_high_ns, so a resend is accepted up to that timer's window ({@link #latest}) while its start at
     * rto_low_ns stays lawful ({@link #expired}). Virtual time has no such crossing; its judge never calls this.
     */
    public void mayHaveCounted(final int inFlight) {
        if (running() && inFlight > nLow) {
            longest = rtoHighNs;
        }
    }

    /** (Re)starts the timer at {@code time} for the acknowledgement probe: rto_low_ns. */
    public void startProbe(final long time) {
        unrestarted = time;
        started = time;
        duration = rtoLowNs;
        longest = duration;
    }

    /** Stops the timer. */
    public void stop() {
        started = NONE;
    }

    /** True while the timer runs. */
    public boolean running() {
        return started != NONE;
    }

    /** When it was last started, or {@link #NONE}. */
    public long started() {
        return started;
    }

    /** Its duration T: rto_low_ns or rto_high_ns. */
    public long duration() {
        return duration;
    }

    /** True when it runs for rto_low_ns. */
    public boolean low() {
        return duration == rtoLowNs;
    }

    /** When it expires. */
    public long expiry() {
        return started + duration;
    }

    /**
     * The latest time the resend due at its expiry may leave: T + T/10 + 2000 ns after the start, + tolerance (T the
     * longest duration the device may have chosen, see {@link #mayHaveCounted}).
     */
    public long latest(final long toleranceNs) {
        return started + longest + longest / 10 + 2000 + toleranceNs;
    }

    /** True when it runs and has expired by {@code time} (within the tolerance). */
    public boolean expired(final long time, final long toleranceNs) {
        return running() && time + toleranceNs >= expiry();
    }

    /**
     * The rule a resend of una at {@code time} without another cause breaks: MR-RTX-007 when the timer runs for
     * rto_high_ns and rto_low_ns has passed (the device used the wrong timeout), MR-RTX-008 when only the timer as it
     * ran before the last progress could have expired by then (the device did not restart it), else MR-RTX-002 (no
     * cause at all).
     */
    public String earlyRule(final long time, final long toleranceNs) {
        if (running() && unrestarted < started && time + toleranceNs >= unrestarted + rtoLowNs
            && time + toleranceNs < started + rtoLowNs) {
            return RESTART_RULE; // the expiry of the timer as it ran before progress restarted it
        }
        return running() && duration == rtoHighNs && time + toleranceNs >= started + rtoLowNs ? RTO_RULE
            : "MR-RTX-002";
    }

    /** The rule a missing resend at the expiry breaks: MR-RTX-007 for rto_low_ns, MR-RTX-009 for rto_high_ns. */
    public String lateRule() {
        return low() ? RTO_RULE : EXPIRY_RULE;
    }

    /** True when a probe at {@code time} comes before rto_low_ns from the start (MR-RTX-020). */
    public boolean probeEarly(final long time, final long toleranceNs) {
        return running() && time + toleranceNs < started + rtoLowNs;
    }

    /** A timeout or a loss event for una: one more retry. */
    public void retry() {
        retries++;
    }

    /** Progress: the retry counter back to 0 (MR-RTX-011). */
    public void progress() {
        retries = 0;
    }

    /** Retries since the last progress. */
    public int retries() {
        return retries;
    }

    /** True when retry_cnt retries have been made: a further timeout or loss event for una moves the QP to ERROR. */
    public boolean exhausted() {
        return retries >= retryCnt;
    }
}

package org.metaroce.mrct.analyzer.internal;

/**
 * What every check of one analysis shares: the judge (what proves a violation), the parameters, and the time a
 * device is given to act on a frame it received.
 */
final class Context {
    /** Two frames with the same signature within this time may be two captured copies of one frame. */
    static final long COPY_WINDOW_NS = 1_000_000;
    /** The least time a device is given to act on a frame it received, when the capture is not at the device. */
    static final long MIN_REACTION_NS = 2_000;

    Judge judge;
    final Parameters parameters;
    /** MR-RTX-006 (-017, -018): the oracle's comparison of a retransmission with its original. */
    final org.metaroce.mrct.oracle.RequesterRepeat repeat = new org.metaroce.mrct.oracle.RequesterRepeat();
    /** Parameters read for every frame, looked up once. */
    final long ackReqInterval;
    final long ackReqIntervalMax;
    final long sendWindow;
    final long sendWindowMax;
    /** What a MR-REQ-011 finding at {@link #ackReqInterval} rests on (built once: the check runs on every request). */
    final org.metaroce.mrct.oracle.Basis ackReqIntervalBasis;
    /** What the oracle's per-frame checks observed, counted per connection ({@link OracleChecks}). */
    /** The oracle's per-frame checks, reused frame after frame (a context is one thread's). */
    final org.metaroce.mrct.oracle.FrameOracle.Checker oracle = new org.metaroce.mrct.oracle.FrameOracle.Checker();

    Context(final Judge judge, final Parameters parameters) {
        this.judge = judge;
        this.parameters = parameters;
        this.ackReqInterval = parameters.value("ack_req_interval");
        this.ackReqIntervalMax = parameters.lenientMax("ack_req_interval");
        this.sendWindow = parameters.value("send_window");
        this.sendWindowMax = parameters.lenientMax("send_window");
        this.ackReqIntervalBasis = org.metaroce.mrct.oracle.Basis.inferred("ack_req_interval from "
            + parameters.source());
    }

    private org.metaroce.mrct.oracle.Vantage vantage;

    /**
     * Where the frames were taken, for the oracle: at the device for mrct evidence; {@code fcs} as the file says. The
     * senders are MetaRoCE devices when a profile declares them or the file is mrct evidence.
     */
    /** True when the senders are known to be MetaRoCE devices (a declared profile, or mrct evidence). */
    boolean metaroceSenders() {
        return parameters.declared() || judge.atDevice();
    }

    org.metaroce.mrct.oracle.Vantage vantage(final int fcs) {
        final boolean metaroce = parameters.declared() || judge.atDevice();
        if (vantage == null || vantage.fcsLength() != fcs || vantage.atSender() != judge.atDevice()
            || vantage.metaroceSender() != metaroce) {
            vantage = org.metaroce.mrct.oracle.Vantage.capture(fcs, judge.atDevice(), metaroce);
        }
        return vantage;
    }

    /** The control records of an mrct evidence file, read ahead case by case; null for other captures. */
    EvidenceControl control;

    /** The device's QP that sends {@code flow} or receives it, as the evidence's control records show it, or null. */
    EvidenceControl.Qp qp(final Flow flow) {
        if (control == null) {
            return null;
        }
        final EvidenceControl.Qp sender = control.byDestination(flow.dqpn);
        return sender != null ? sender : control.byNumber(flow.dqpn);
    }

    /**
     * A QP attribute of the device's QP sending {@code flow}: the value its case gave it (the largest when it gave
     * several, {@code largest}, else the smallest), or {@code fallback} (the profile's or the default) when the
     * capture does not say.
     */
    double attribute(final Flow flow, final String name, final boolean largest, final double fallback) {
        final EvidenceControl.Qp qp = control == null ? null : control.byDestination(flow.dqpn);
        final java.util.List<Double> values = qp == null ? null : qp.values.get(name);
        if (values == null || values.isEmpty()) {
            return fallback;
        }
        double best = values.get(0);
        for (final double v : values) {
            best = largest ? Math.max(best, v) : Math.min(best, v);
        }
        return best;
    }

    /**
     * The tver attribute (0 or 1) the evidence's control records gave the device's QP of {@code flow}, or -1 when
     * they do not say (other captures). It is the QP's transport version, which the frames alone may not tell: a
     * frame of the other version sent to the QP is dropped by it (MR-ROB-008), and is no sign of the QP's version.
     */
    int tver(final Flow flow) {
        final EvidenceControl.Qp qp = qp(flow);
        final java.util.List<Double> values = qp == null ? null : qp.values.get("tver");
        if (values == null || values.size() != 1) {
            return -1;
        }
        final double tver = values.get(0);
        return tver == 0 ? 0 : tver == 1 ? 1 : -1;
    }

    /** True when the evidence's control records show the device's QP of {@code flow} moved to RESET in its case. */
    boolean resetShown(final Flow flow) {
        final EvidenceControl.Qp qp = qp(flow);
        return qp != null && qp.reset;
    }

    /**
     * The timing tolerance the run recorded in its evidence's section comment (the live engine's, which judged the
     * same frames); {@link org.metaroce.mrct.oracle.TimingTolerance#NONE} for other captures and evidence without one.
     */
    org.metaroce.mrct.oracle.TimingTolerance tolerance = org.metaroce.mrct.oracle.TimingTolerance.NONE;

    /**
     * The slack a check against a window of {@code windowNs} gives the device in its own capture (mrct evidence): the
     * run's tolerance around the window, as the live engine gives it; 0 for other captures, whose slack is the reaction
     * time ({@link #reaction}).
     */
    long windowSlack(final long windowNs) {
        return judge.atDevice() ? tolerance.around(windowNs) : 0;
    }

    /** Evidence files are judged differently, which only their first frame tells. */
    void replaceJudge(final Judge other) {
        this.judge = other;
    }

    /**
     * The time the sender of {@code flow} is given to act on a frame captured before: when the capture is the
     * device's own (mrct evidence), the absolute tolerance of its run as the live engine gives it (0 on virtual time),
     * else at least 2 µs and at least the shortest round trip measured on the connection (both directions), since a
     * capture taken away from the device sees a frame before the device does.
     */
    long reaction(final Flow flow) {
        if (judge.atDevice()) {
            return tolerance.absoluteNs();
        }
        long rtt = flow.requests.minRttNs;
        if (flow.peer != null) {
            rtt = Math.max(rtt == Long.MAX_VALUE ? 0 : rtt,
                flow.peer.requests.minRttNs == Long.MAX_VALUE ? 0 : flow.peer.requests.minRttNs);
        } else if (rtt == Long.MAX_VALUE) {
            rtt = 0;
        }
        return Math.max(MIN_REACTION_NS, rtt);
    }
}

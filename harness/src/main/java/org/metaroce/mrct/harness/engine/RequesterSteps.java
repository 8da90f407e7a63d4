package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.MessageOp;
import org.metaroce.mrct.harness.cases.Matcher;
import org.metaroce.mrct.harness.cases.RateExpectation;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.cases.TrafficExpectation;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.DcqcnConstants;
import org.metaroce.mrct.oracle.DcqcnStream;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.ReactionPoint;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;

/**
 * The steps of requester cases, for {@link CaseRun}: posting work requests on the device (and telling the connection's
 * {@link RequesterChecker} what the wire must show), and the expectations on what the device sent ({@code
 * expect_traffic}) and how fast ({@code expect_rate}, against the oracle's {@link DcqcnStream}). Also gathers the time series the
 * reports plot.
 */
final class RequesterSteps {
    private final ControlPlane control;
    private final Map<String, Long> values;
    private final Function<String, Long> names;
    private final long start;
    private final long toleranceNs;
    private final Map<String, Object> parameters;
    /** The connections whose device QP has a requester checker, in the order they got one. */
    private final List<Connection> checked = new ArrayList<>();

    /**
     * @param parameters the device's declared parameters over the specification's defaults (ratios included)
     */
    RequesterSteps(final ControlPlane control, final Map<String, Long> values, final Function<String, Long> names,
                   final long start, final long toleranceNs, final Map<String, Object> parameters) {
        this.parameters = parameters;
        this.control = control;
        this.values = values;
        this.names = names;
        this.start = start;
        this.toleranceNs = toleranceNs;
    }

    private long eval(final Expr expr) {
        return expr.eval(names);
    }

    private long parameter(final Connection c, final String name, final long fallback) {
        final Long attribute = c.created().asMap().entrySet().stream()
            .filter(e -> e.getKey().label().equals(name)).map(e -> e.getValue() instanceof Number n ? n.longValue()
                : null).filter(java.util.Objects::nonNull).findFirst().orElse(null);
        return attribute != null ? attribute : values.getOrDefault(name, fallback);
    }

    /** The connection's checker, created with the QP's requester parameters on first use. */
    RequesterChecker checker(final Connection c) {
        if (c.requester() == null) {
            final SendQueueModel queue = new SendQueueModel(c.pmtu, c.tver == 0);
            c.startRequester(queue, new RequesterChecker(c, queue, new RequesterChecker.Parameters(c.pmtu,
                (int) parameter(c, "send_window", 128), (int) parameter(c, "ack_req_interval", 64),
                (int) parameter(c, "reorder_threshold", 16), parameter(c, "reorder_time_ns", 25_000),
                parameter(c, "rto_low_ns", 100_000), parameter(c, "rto_high_ns", 320_000),
                (int) parameter(c, "n_low", 3), (int) parameter(c, "retry_cnt", 7),
                (int) parameter(c, "max_rd_atomic", 16), c.tver == 0,
                toleranceNs, parameter(c, "line_rate_mbps", 100_000), parameter(c, "dcqcn_min_rate_mbps", 10),
                (int) parameter(c, "rnr_retry", 7)), start));
            checked.add(c);
        }
        return c.requester();
    }

    /** A {@code post_send} step: {@code count} WQEs posted on the device's QP. */
    void postSend(final Step.PostSend p, final Connection c, final Map<String, Region> regions) {
        checker(c);
        final WorkOpcode op = opcode(p.op());
        final long count = p.count() == null ? 1 : eval(p.count());
        final long length = eval(p.length());
        final long stride = p.stride() == null ? length : eval(p.stride());
        final Region local = p.localRegion() == null ? null : regions.get(p.localRegion());
        final Region remote = p.remoteRegion() == null ? null : regions.get(p.remoteRegion());
        for (long k = 0; k < count; k++) {
            final long localOffset = (p.localOffset() == null ? 0 : eval(p.localOffset())) + k * stride;
            final long remoteOffset = (p.remoteOffset() == null ? 0 : eval(p.remoteOffset())) + k * stride;
            final long localVa = local == null ? 0 : local.mr.va() + localOffset;
            final long remoteVa = remote != null ? remote.mr.va() + remoteOffset
                : p.remoteVa() == null ? 0 : eval(p.remoteVa()) + k * stride;
            final int rkey = remote != null ? remote.mr.rkey() : p.rkey() == null ? 0 : (int) eval(p.rkey());
            final int immediate = p.invalidate() != null ? regions.get(p.invalidate()).mr.rkey()
                : p.immediate() == null ? 0 : (int) eval(p.immediate());
            final long swapAdd = p.swapAdd() == null ? 0 : eval(p.swapAdd());
            final long compare = p.compare() == null ? 0 : eval(p.compare());
            final long wrId = p.wrId() != null ? eval(p.wrId()) + k : c.takeSendWrId();
            byte[] payload = null;
            if (local != null && (op == WorkOpcode.SEND || op == WorkOpcode.SEND_WITH_IMM
                || op == WorkOpcode.SEND_WITH_INV || op == WorkOpcode.RDMA_WRITE
                || op == WorkOpcode.RDMA_WRITE_WITH_IMM)) {
                if (localOffset < 0 || localOffset + length > local.model.length) {
                    throw new IllegalArgumentException("post_send: bytes " + localOffset + ".." + (localOffset
                        + length - 1) + " are outside region " + local.name);
                }
                payload = Arrays.copyOfRange(local.model, (int) localOffset, (int) (localOffset + length));
            }
            // what a conforming device's memory and the peer's must then hold
            if (op == WorkOpcode.RDMA_WRITE || op == WorkOpcode.RDMA_WRITE_WITH_IMM) {
                if (remote != null && payload != null) {
                    remote.place(remoteVa, payload);
                }
            } else if (op == WorkOpcode.RDMA_READ && local != null && remote != null) {
                local.place(localVa, Arrays.copyOfRange(remote.model, (int) remoteOffset,
                    (int) Math.min(remote.model.length, remoteOffset + length)));
            }
            c.sendQueue().post(new SendQueueModel.Work(c.sendQueue().works().size(), op, length, payload, remoteVa, rkey,
                immediate, swapAdd, compare, p.fence() && k == 0, wrId, p.signaled()));
            control.postSend(c.deviceQpn, new SendWqe(wrId, op, localVa, length, local == null ? 0 : local.mr.lkey(),
                remoteVa, rkey, immediate, op == WorkOpcode.COMPARE_SWAP ? compare : swapAdd, swapAdd, p.signaled(),
                p.fence() && k == 0, p.solicited()));
        }
    }

    static WorkOpcode opcode(final MessageOp op) {
        return switch (op) {
            case SEND -> WorkOpcode.SEND;
            case SEND_IMM -> WorkOpcode.SEND_WITH_IMM;
            case SEND_INV -> WorkOpcode.SEND_WITH_INV;
            case WRITE -> WorkOpcode.RDMA_WRITE;
            case WRITE_IMM -> WorkOpcode.RDMA_WRITE_WITH_IMM;
            case READ -> WorkOpcode.RDMA_READ;
            case CMP_SWAP -> WorkOpcode.COMPARE_SWAP;
            case FETCH_ADD -> WorkOpcode.FETCH_ADD;
        };
    }

    // ------------------------------------------------------------------ expect_traffic

    void expectTraffic(final TrafficExpectation e, final Connection c, final Network network, final long now) {
        final RequesterChecker checker = checker(c);
        final StepFailure late = checker.timers(now, -1);
        if (late != null) {
            throw late;
        }
        final List<FieldDiff> diffs = new ArrayList<>();
        if (e.retransmitted() != null) {
            final Map<Integer, Long> expected = new LinkedHashMap<>();
            for (final Map.Entry<Expr, Expr> entry : e.retransmitted().entrySet()) {
                expected.put((int) eval(entry.getKey()), eval(entry.getValue()));
            }
            for (final Map.Entry<Integer, Long> entry : expected.entrySet()) {
                final int actual = Math.max(0, checker.transmissions(entry.getKey()) - 1);
                if (e.exactly() ? actual != entry.getValue() : actual < entry.getValue()) {
                    diffs.add(new FieldDiff("retransmissions of PSN " + entry.getKey(), (e.exactly() ? ""
                        : "at least ") + entry.getValue(), Integer.toString(actual)));
                }
            }
            if (e.exactly()) {
                final List<Integer> others = new ArrayList<>();
                for (int psn = 0; psn < checker.firstTransmissions(); psn++) {
                    if (!expected.containsKey(psn) && checker.transmissions(psn) > 1) {
                        others.add(psn);
                    }
                }
                if (!others.isEmpty()) {
                    diffs.add(new FieldDiff("retransmitted PSNs", expected.isEmpty() ? "none"
                        : "only " + expected.keySet(), "also " + others));
                }
            }
        }
        check(diffs, "first transmissions (distinct PSNs)", e.firstTransmissions(), checker.firstTransmissions());
        check(diffs, "PSNs in flight at most", e.maxInFlight(), checker.maxInFlight());
        final List<RequesterChecker.Sent> sent = checker.sent();
        if (e.minGap() != null) {
            long gap = Long.MAX_VALUE;
            for (int i = 1; i < sent.size(); i++) {
                gap = Math.min(gap, sent.get(i).time() - sent.get(i - 1).time());
            }
            check(diffs, "least gap between data packets (ns)", e.minGap(), gap == Long.MAX_VALUE ? 0 : gap);
        }
        if (e.sports() != null) {
            check(diffs, "distinct udp.sport values", e.sports(),
                sent.stream().mapToInt(RequesterChecker.Sent::sport).distinct().count());
        }
        if (e.sportsBalanced() != null && e.sportsBalanced()) {
            final String imbalance = imbalance(sent);
            if (imbalance != null) {
                diffs.add(new FieldDiff("udp.sport shares", "no value more than twice as often as another in any "
                    + "1024 consecutive data packets", imbalance));
            }
        }
        final SwitchPort port = network == null ? null : network.port();
        if ((e.maxQueue() != null || e.queueBelow() != null) && port == null) {
            throw new IllegalArgumentException("expect_traffic: max_queue and queue_below need a network switch");
        }
        if (e.maxQueue() != null) {
            check(diffs, "largest switch queue (bytes)", e.maxQueue(), (long) port.maxQueue());
        }
        if (e.queueBelow() != null) {
            final long since = start + eval(e.queueAfter());
            final long limit = eval(e.queueBelow());
            final double max = port.maxQueueSince(since);
            if (max >= limit) {
                diffs.add(new FieldDiff("switch queue after " + CaseRun.nanos(since - start), "below " + limit
                    + " bytes", (long) max + " bytes"));
            }
        }
        if (!diffs.isEmpty()) {
            final StepFailure failure = new StepFailure("the device's traffic on " + c.name + " differs: "
                + diffs.stream().map(FieldDiff::toString).reduce((a, b) -> a + "; " + b).orElse(""), -1, diffs,
                null, null);
            throw failure;
        }
    }

    private void check(final List<FieldDiff> diffs, final String what, final Matcher matcher, final long actual) {
        if (matcher != null && !matcher.matches(actual, names, -1L)) {
            diffs.add(new FieldDiff(what, matcher.describe(names, FrameCheck::number), FrameCheck.number(actual)));
        }
    }

    /**
     * Null when, in every window of 1024 consecutive data packets using N udp.sport values, no value occurs both more
     * than twice as often as another and more than 10 x sqrt(1024 / N) times more often (MR-MP-003, v1.1: a uniform
     * random choice passes); otherwise the first offending window. Fewer than 1024 packets make no window.
     */
    static String imbalance(final List<RequesterChecker.Sent> sent) {
        final Map<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < sent.size(); i++) {
            counts.merge(sent.get(i).sport(), 1, Integer::sum);
            if (i >= 1024) {
                counts.computeIfPresent(sent.get(i - 1024).sport(), (port, n) -> n == 1 ? null : n - 1);
            }
            if (i < 1023) {
                continue;
            }
            Map.Entry<Integer, Integer> most = null;
            Map.Entry<Integer, Integer> least = null;
            for (final Map.Entry<Integer, Integer> entry : counts.entrySet()) {
                if (most == null || entry.getValue() > most.getValue()) {
                    most = entry;
                }
                if (least == null || entry.getValue() < least.getValue()) {
                    least = entry;
                }
            }
            // v1.1: twice as often, or by more than ten standard deviations of a uniform random choice (sqrt(1024/N))
            if (most.getValue() > 2 * least.getValue()
                && most.getValue() - least.getValue() > 10 * Math.sqrt(1024.0 / counts.size())) {
                final int from = i - 1023;
                return String.format(Locale.ROOT, "in data packets %d..%d udp.sport 0x%04x occurs %d times and 0x%04x "
                    + "%d times", from, i, most.getKey(), most.getValue(), least.getKey(), least.getValue());
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ expect_rate

    /**
     * The connection's QP as the oracle's DCQCN reaction point sees it: the data packets the device sent (numbered by
     * their evidence frame) and the CNPs it received, from the case's start (the QP entered RTS in the setup).
     */
    DcqcnStream stream(final Connection c) {
        final RequesterChecker checker = checker(c);
        final DcqcnStream stream = new DcqcnStream(constants(c), start);
        for (final RequesterChecker.Sent s : checker.sent()) {
            stream.onDataSent(s.time(), s.wireBytes(), s.evidence());
        }
        checker.cnps().forEach(stream::onCnpReceived);
        // the CNPs that named the device's other QPs: a window they explain blames MR-CC-016
        final List<Long> others = new ArrayList<>();
        for (final Connection other : checked) {
            if (other != c && other.deviceQpn != c.deviceQpn) {
                others.addAll(other.requester().cnps());
            }
        }
        others.sort(null);
        others.forEach(stream::onOtherQpsCnp);
        return stream;
    }

    /** The DCQCN model of the connection's QP up to {@code until}. */
    ReactionPoint model(final Connection c, final long until) {
        return stream(c).model(until);
    }

    private DcqcnConstants constants(final Connection c) {
        return new DcqcnConstants(parameter(c, "line_rate_mbps", 100_000), ratio(c, "dcqcn_g", 1.0 / 256),
            ratio(c, "dcqcn_alpha_init", 1.0), parameter(c, "dcqcn_alpha_timer_ns", 55_000),
            parameter(c, "dcqcn_rate_timer_ns", 55_000), parameter(c, "dcqcn_byte_counter", 10_485_760),
            (int) parameter(c, "dcqcn_f", 5), parameter(c, "dcqcn_rai_mbps", 40),
            parameter(c, "dcqcn_rhai_mbps", 400), parameter(c, "dcqcn_min_rate_mbps", 10));
    }

    /** A ratio parameter (dcqcn_g, dcqcn_alpha_init): the QP's attribute when the case set one, else the profile's. */
    private double ratio(final Connection c, final String name, final double fallback) {
        final Object attribute = c.created().asMap().entrySet().stream().filter(e -> e.getKey().label().equals(name))
            .map(Map.Entry::getValue).findFirst().orElse(null);
        if (attribute instanceof Number n) {
            return n.doubleValue();
        }
        return parameters.get(name) instanceof Number n ? n.doubleValue() : fallback;
    }

    void expectRate(final RateExpectation e, final Connection c, final long now) {
        final RequesterChecker checker = checker(c);
        final long from = start + (e.from() == null ? 0 : eval(e.from()));
        final long to = e.to() == null ? now : start + eval(e.to());
        final List<RequesterChecker.Sent> sent = checker.sent();
        if (e.model()) {
            // the case keeps the QP backlogged; at the end of the interval it is when PSNs are still to be sent
            final DcqcnStream.Backlog backlog = new DcqcnStream.Backlog(true,
                checker.firstTransmissions() < c.sendQueue().nextPsn());
            final List<DcqcnStream.WindowFinding> found = stream(c).checkWindows(from, to, now,
                values.getOrDefault("rate_tolerance_pct", 5L), toleranceNs, backlog);
            if (!found.isEmpty()) {
                throw rateFailure(c, found.get(0), pacedAtTarget(found));
            }
        }
        if (e.mbps() != null) {
            long bits = 0;
            long first = -1;
            long last = -1;
            for (final RequesterChecker.Sent s : sent) {
                if (s.time() >= from && s.time() <= to) {
                    if (first < 0) {
                        first = s.time();
                    } else {
                        bits += s.wireBytes() * 8L;
                    }
                    last = s.time();
                }
            }
            final long mean = last > first && first >= 0 ? bits * 1000 / (last - first) : 0;
            if (!meanMatches(e, mean, bits, last - first)) {
                final String message = "the mean rate of " + c.name + " between " + CaseRun.nanos(from - start)
                    + " and " + CaseRun.nanos(to - start) + " is " + mean + " Mb/s, expected "
                    + e.mbps().describe(names, v -> v + " Mb/s");
                final List<FieldDiff> diffs = List.of(new FieldDiff("mean rate (Mb/s)",
                    e.mbps().describe(names, v -> Long.toString(v)), Long.toString(mean)));
                final ReactionPoint.Point below = belowModel(c, checker, from, to);
                throw below == null ? new StepFailure(message, -1, diffs, null, null)
                    : StepFailure.breaking(below.rule(), message + "; below the smallest Rc the DCQCN model allows "
                        + "there, which follows " + below.cause() + " at " + CaseRun.nanos(below.time() - start)
                        + " (" + below.rule() + "): " + below.state(), -1, diffs);
            }
        }
    }

    /**
     * The model's point whose Rc the QP's sending contradicts: with work still to send at {@code to}, a QP that sent
     * over [from, to] fewer bits than the smallest Rc a conforming QP can have there (both DCQCN models, less
     * rate_tolerance_pct) carries over that time, by more than two of its largest packets (the pacer's phase at either
     * end), holds a rate the event that set that Rc does not allow. Null otherwise: a rate above the expectation, one
     * the models explain, or an interval too short to tell at that rate.
     */
    private ReactionPoint.Point belowModel(final Connection c, final RequesterChecker checker, final long from,
                                           final long to) {
        return belowModel(checker.sent(), checker.firstTransmissions() < c.sendQueue().nextPsn(), c.pmtu, stream(c),
            from, to, toleranceNs, values.getOrDefault("rate_tolerance_pct", 5L) / 100.0);
    }

    /**
     * {@link #belowModel(Connection, RequesterChecker, long, long)} on what it reads: the data packets {@code sent},
     * whether work was left at {@code to}, the QP's PMTU, its reaction point, the observer's tolerance and
     * rate_tolerance_pct as a fraction.
     */
    static ReactionPoint.Point belowModel(final List<RequesterChecker.Sent> sent, final boolean workLeft,
                                          final int pmtu, final DcqcnStream stream, final long from, final long to,
                                          final long toleranceNs, final double tolerance) {
        if (!workLeft || to <= from) {
            return null;
        }
        long bits = 0;
        long largest = (pmtu + 78L) * 8;
        for (final RequesterChecker.Sent s : sent) {
            largest = Math.max(largest, s.wireBytes() * 8L);
            if (s.time() >= from && s.time() <= to) {
                bits += s.wireBytes() * 8L;
            }
        }
        final ReactionPoint.Point exact = stream.model(to).lowest(from, to);
        final ReactionPoint.Point late = stream.latestModel(to, toleranceNs).lowest(from, to);
        final ReactionPoint.Point lowest = late.rc() < exact.rc() ? late : exact;
        // Rc in Mb/s is bits per microsecond
        return bits + 2 * largest < lowest.rc() * (to - from) / 1000.0 * (1 - tolerance) ? lowest : null;
    }

    /**
     * Whether the mean rate matches: departures timed in whole ns leave the interval's length known to 1 ns either
     * way, so any whole Mb/s between the rates over 1 ns more and 1 ns less will do (a pacer exact to the ns passes a
     * range of one value, as rate_tolerance_pct 0 asks).
     */
    private boolean meanMatches(final RateExpectation e, final long mean, final long bits, final long elapsed) {
        if (e.mbps().matches(mean, names, -1L)) {
            return true;
        }
        if (elapsed < 2) {
            return false;
        }
        final long slowest = bits * 1000 / (elapsed + 1);
        final long fastest = Math.min(slowest + 1000, -Math.floorDiv(-bits * 1000, elapsed - 1));
        for (long v = slowest; v <= fastest; v++) {
            if (e.mbps().matches(v, names, -1L)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The window of {@code found} that shows the QP pacing at its target rate Rt instead of Rc, when the first finding
     * is a cut's (MR-CC-010) that cannot tell the two apart: a window that fits Rt clearly below the line rate while a
     * cut is in force (the oracle names it MR-CC-017). Right after a first cut Rt is the line rate, and a QP that did
     * not cut looks like one pacing at Rt; a later window where Rt is lower tells them apart. Null when none does.
     */
    static DcqcnStream.WindowFinding pacedAtTarget(final List<DcqcnStream.WindowFinding> found) {
        final DcqcnStream.WindowFinding first = found.get(0);
        if (!first.finding().rule().equals(ReactionPoint.CUT) || !first.point().rule().equals(ReactionPoint.CUT)) {
            return null;
        }
        for (final DcqcnStream.WindowFinding w : found.subList(1, found.size())) {
            if (w.finding().rule().equals("MR-CC-017") && w.point().rule().equals(ReactionPoint.CUT)) {
                return w;
            }
        }
        return null;
    }

    private StepFailure rateFailure(final Connection c, final DcqcnStream.WindowFinding w,
                                    final DcqcnStream.WindowFinding atTarget) {
        final Finding f = w.finding();
        final ReactionPoint.Point point = w.point();
        return StepFailure.breaking(atTarget == null ? f.rule() : atTarget.finding().rule(), "the window rate of "
            + c.name + " over the 16 data packets from " + CaseRun.nanos(w.t0() - start) + " to "
            + CaseRun.nanos(w.t16() - start) + " (frame #" + f.frame() + " on) is " + f.actual() + ", expected "
            + f.expected() + "; the model's Rc there follows " + point.cause() + " at "
            + CaseRun.nanos(point.time() - start) + " (" + point.rule() + "): " + point.state()
            + (atTarget == null ? "" : "; the window from " + CaseRun.nanos(atTarget.t0() - start) + " is at the "
                + "model's Rt, below the line rate (" + atTarget.finding().actual() + "): the QP paces at Rt, not Rc"),
            (int) f.frame(), List.of(new FieldDiff(f.field(), f.expected(), f.actual())));
    }

    // ------------------------------------------------------------------ series for the reports

    /**
     * Time series of every connection the device sent requests on: its window rate, the model's Rc, the CNPs it
     * received, and the switch queue. Times in microseconds since the case started.
     */
    Map<String, List<double[]>> series(final Map<String, Connection> connections, final Network network,
                                       final long now) {
        final Map<String, List<double[]>> out = new LinkedHashMap<>();
        for (final Connection c : connections.values()) {
            if (c.requester() == null || c.requester().sent().size() < 17) {
                continue;
            }
            final DcqcnStream stream = stream(c);
            final List<double[]> rates = new ArrayList<>();
            for (final double[] w : stream.windowRates()) {
                rates.add(new double[] {(w[0] - start) / 1000.0, w[1]});
            }
            out.put(c.name + ".rate_mbps", rates);
            if (!c.requester().cnps().isEmpty()) {
                final List<double[]> model = new ArrayList<>();
                for (final ReactionPoint.Point point : stream.model(now).points()) {
                    model.add(new double[] {(point.time() - start) / 1000.0, point.rc()});
                }
                out.put(c.name + ".model_rc_mbps", model);
                final List<double[]> cnps = new ArrayList<>();
                for (final long t : c.requester().cnps()) {
                    cnps.add(new double[] {(t - start) / 1000.0, 0});
                }
                out.put(c.name + ".cnp", cnps);
            }
        }
        if (network != null && network.port() != null) {
            final List<double[]> queue = new ArrayList<>();
            for (final double[] sample : network.port().samples()) {
                queue.add(new double[] {(sample[0] - start) / 1000.0, sample[1]});
            }
            out.put("switch.queue_bytes", queue);
        }
        return out;
    }
}

package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.CutWindow;
import org.metaroce.mrct.oracle.DcqcnConstants;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.NotificationPoint;

/**
 * The congestion checks of section 14 that span frames: a CNP answers every congestion indication of an idle scope
 * (MR-CC-003 for a CE-marked request, MR-CC-004 for a CE-marked read response); CNPs of one scope are spaced by
 * cnp_interval_ns (MR-CC-005); the reaction point's rate drops after a CNP (MR-CC-010). The rules are the oracle's,
 * the live engine's too: each CNP scope is a {@link NotificationPoint} (which indications owe a CNP, which CNP pays
 * one, when one is overdue), MR-CC-005 is {@link NotificationPoint#spacing}, MR-CC-010 a {@link CutWindow}. What is
 * left here is what only a capture needs: finding each frame's scope from its addresses and flows (the scope of a
 * CNP sent before the capture paired its QP with the data's is the one of the indication it may answer), the time a
 * device away from the capture point is given besides (its reaction time), and what a report of a missing CNP shows.
 * MR-CC-006 (a CNP no indication owed: the scope was idle without one, or holding) is judged through the same
 * {@link NotificationPoint#onCnpSent} only where the capture is the device's own (mrct evidence): away from the device
 * a network may set CE marks after the capture point, and no CNP can be proven unowed. Without a profile the longest
 * holding time and the widest scope make more CNPs look unowed, so a finding then only makes the check inconclusive.
 *
 * <p>Without a profile the checks use, for each parameter, the end of its range that excuses the device most (the
 * longest CNP deadline, the longest holding time, the widest scope), so that what they report holds for any profile;
 * the spacing check, which no range end can prove, reports with the defaults as inconclusive.
 */
final class Cnps {
    /** Indications owing a CNP kept at most; more at once would be a flood of CE marks far beyond any deadline. */
    private static final int PENDING = 65_536;

    /** One CNP scope of a notification point (Table 14-1): the oracle's model, and the indication it owes a CNP. */
    private static final class Scope {
        final NotificationPoint point;
        Owed owing;

        Scope(final NotificationPoint point) {
            this.point = point;
        }
    }

    /** A congestion indication that owes a CNP, with what a report of the CNP's absence shows. */
    private record Owed(Scope scope, Flow data, Flow notifier, long tsNs, long frame, Check check, long deadline,
                        FrameSnapshot snapshot) {
    }

    private final Context cx;
    /** The indications owing a CNP, in capture order. */
    private final ArrayDeque<Owed> pending = new ArrayDeque<>();
    /** The notification points' scopes, by {@link #scopeOf}'s key. */
    private final Map<Object, Scope> scopes = new HashMap<>();
    /** The last CNP per destination and per port, for MR-CC-005 in those scopes. */
    private final Map<String, Long> byDestination = new HashMap<>();
    private final Map<String, Long> byPort = new HashMap<>();
    /** The earliest time the QPs of the current mrct evidence case can have entered RTS, or MIN_VALUE. */
    long rtsLowerBound = Long.MIN_VALUE;

    Cnps(final Context cx) {
        this.cx = cx;
    }

    /**
     * Adds to {@code into} the connections an indication still owing a CNP belongs to: they are not released before
     * it is judged ({@link Releases}).
     */
    void owing(final java.util.Set<Connection> into) {
        for (final Owed o : pending) {
            into.add(o.data.connection);
            if (o.notifier != null) {
                into.add(o.notifier.connection);
            }
            if (o.data.peer != null) {
                into.add(o.data.peer.connection);
            }
        }
    }

    void clear() {
        pending.clear();
        scopes.clear();
        byDestination.clear();
        byPort.clear();
    }

    /** The scope indications hold and owe in: the declared cnp_scope, or without a profile the widest, per port. */
    private String scope() {
        return cx.parameters.declared() ? cx.parameters.word("cnp_scope") : "per-port";
    }

    private long lastInScope(final Flow notifier, final String scope) {
        switch (scope) {
            case "per-destination":
                return byDestination.getOrDefault(notifier.sourceText + ">" + notifier.destinationText,
                    Long.MIN_VALUE);
            case "per-port":
                return byPort.getOrDefault(notifier.sourceText, Long.MIN_VALUE);
            default:
                return notifier.congestion.lastCnpNs;
        }
    }

    /**
     * The key of the scope of the QP that receives {@code host}'s frames at {@code receiver}: its port, its pair of
     * hosts, or the QP itself ({@code qpn}, -1 when the capture does not tell it yet).
     */
    private Object key(final String receiver, final String sender, final int qpn) {
        switch (scope()) {
            case "per-port":
                return receiver;
            case "per-destination":
                return receiver + ">" + sender;
            default:
                return qpn < 0 ? null : receiver + ">" + sender + " qp " + qpn;
        }
    }

    private Scope scopeOf(final Object key) {
        final long delay = cx.parameters.lenientMax("cnp_delay_max_ns");
        return scopes.computeIfAbsent(key, k -> new Scope(new NotificationPoint(
            cx.parameters.lenientMax("cnp_interval_ns"), delay, cx.windowSlack(delay))));
    }

    /**
     * The scope of the QP that sends the CNPs of {@code notifier}. Its own QPN is known once the capture paired it
     * with its peer, or from the evidence's control records; before, the CNP is taken for the answer of the oldest
     * indication still owed by a QP of the same hosts whose peer is not known either.
     */
    private Scope scopeOfCnp(final Flow notifier) {
        int qpn = notifier.peer != null ? notifier.peer.dqpn : -1;
        if (qpn < 0 && cx.control != null) {
            final EvidenceControl.Qp qp = cx.control.byDestination(notifier.dqpn);
            qpn = qp != null ? qp.qpn : -1;
        }
        final Object key = key(notifier.sourceText, notifier.destinationText, qpn);
        if (key != null) {
            return scopeOf(key);
        }
        for (final Owed o : pending) {
            if (o.scope.owing == o && o.data.peer == null && o.data.destinationText.equals(notifier.sourceText)
                && o.data.sourceText.equals(notifier.destinationText)) {
                return o.scope;
            }
        }
        return null;
    }

    /**
     * A CE-marked data packet a receiver accepts: a congestion indication for its QP, which owes a CNP when its scope
     * is idle. The receiver's flow back may not be known yet (the first answer pairs the directions); it is looked up
     * again when the deadline passes.
     */
    void onCongestionIndication(final Frame fr) {
        final Flow data = fr.flow;
        final Flow notifier = data.peer;
        if (data.requests.answers.fatal || notifier != null && notifier.requests.answers.fatal) {
            return;
        }
        final Check check = fr.isRequest() ? Check.CNP_AFTER_CE_REQUEST : Check.CNP_AFTER_CE_RESPONSE;
        Judge.observe(data.connection, notifier != null ? notifier : data, check);
        final Scope scope = scopeOf(key(data.destinationText, data.sourceText, data.dqpn));
        // a capture away from the device sees the packet before the device does: it gets its reaction time besides
        final long slack = cx.judge.atDevice() ? 0 : notifier != null ? cx.reaction(notifier)
            : Math.max(Context.MIN_REACTION_NS, cx.reaction(data));
        final int before = scope.point.owed();
        scope.point.onCongestionIndication(fr.tsNs, fr.number, !fr.isRequest(), slack);
        if (scope.point.owed() == before) {
            return;
        }
        if (pending.size() >= PENDING) {
            final Owed dropped = pending.removeFirst();
            if (dropped.scope.owing == dropped) {
                dropped.scope.point.overdue(Long.MAX_VALUE);
                dropped.scope.owing = null;
            }
        }
        // in mrct evidence the scope's point already gives the run's tolerance (windowSlack): the same deadline here
        final long delay = cx.parameters.lenientMax("cnp_delay_max_ns");
        final Owed owed = new Owed(scope, data, notifier, fr.tsNs, fr.number, check,
            fr.tsNs + delay + cx.windowSlack(delay) + slack, FrameSnapshot.of(fr));
        scope.owing = owed;
        pending.addLast(owed);
    }

    /** A CNP, sent by {@code fr.flow}'s QP to its peer. */
    void onCnp(final Frame fr) {
        final Flow notifier = fr.flow;
        final Connection c = notifier.connection;
        final String scope = cx.parameters.declared() ? cx.parameters.word("cnp_scope") : "per-qp";
        final long interval = cx.parameters.value("cnp_interval_ns");
        final long last = lastInScope(notifier, scope);
        Judge.observe(c, notifier, Check.CNP_SPACING);
        final long tolerance = cx.judge.atDevice() ? cx.windowSlack(cx.parameters.lenientMax("cnp_delay_max_ns"))
            : 1_000;
        final Finding spacing = NotificationPoint.spacing(last, fr.tsNs, fr.number, interval, tolerance,
            org.metaroce.mrct.oracle.Basis.configured("cnp_interval_ns " + interval));
        if (spacing != null) {
            final long gap = fr.tsNs - last;
            final long lastFrame = notifier.congestion.lastCnpFrame;
            cx.judge.report(c, notifier, Check.CNP_SPACING, Basis.PARAMETER, fr,
                () -> "this CNP comes " + Text.ago(gap) + " after the previous one of its " + scope + " scope"
                    + (scope.equals("per-qp") ? " (frame " + lastFrame + ")" : "") + ", less than cnp_interval_ns "
                    + interval + " (" + cx.parameters.source() + ")",
                () -> "cnp_interval_ns may be declared as low as 0, and cnp_scope otherwise",
                new FieldDiff("time since the last CNP", "at least " + Text.ago(interval), Text.ago(gap)));
        }
        notifier.congestion.lastCnpNs = fr.tsNs;
        notifier.congestion.lastCnpFrame = fr.number;
        byDestination.put(notifier.sourceText + ">" + notifier.destinationText, fr.tsNs);
        byPort.put(notifier.sourceText, fr.tsNs);
        final Scope paid = scopeOfCnp(notifier);
        if (paid != null) {
            // the spacing is judged above (in the narrowest scope when none is declared), MR-CC-006 here
            final List<Finding> found = paid.point.onCnpSent(fr.tsNs, fr.number);
            if (cx.judge.atDevice() && !notifier.requests.answers.fatal) {
                unowed(fr, found);
            }
            if (paid.point.owed() == 0) {
                paid.owing = null;
            }
        }
        final Flow reactor = notifier.peer;
        if (reactor != null) {
            reactor.rate.cnpReceived(fr.tsNs);
            startMeasuring(reactor, fr.tsNs, fr.number);
        } else {
            notifier.congestion.unclaimedCnpNs = fr.tsNs;
            notifier.congestion.unclaimedCnpFrame = fr.number;
        }
    }

    /** MR-CC-006 (the oracle's) on a CNP of the device, captured at the device: {@code found} what the scope said. */
    private void unowed(final Frame fr, final List<Finding> found) {
        final Flow notifier = fr.flow;
        final Connection c = notifier.connection;
        Judge.observe(c, notifier, Check.CNP_UNOWED);
        for (final Finding f : found) {
            if (f.rule().equals(Check.CNP_UNOWED.rule())) {
                final boolean declared = cx.parameters.declared();
                cx.judge.report(c, notifier, Check.CNP_UNOWED, declared ? Basis.CAPTURE_GAP : Basis.PARAMETER, fr,
                    () -> "this CNP answers no congestion indication: no CE-marked packet its QP received came while "
                        + "its " + scope() + " scope was idle (a CNP sent less than cnp_interval_ns "
                        + cx.parameters.lenientMax("cnp_interval_ns") + " before, or one still owed, holds it)",
                    () -> declared ? "a CE-marked packet may be missing from the capture"
                        : "cnp_interval_ns may be declared shorter, and cnp_scope narrower",
                    new FieldDiff(f.field(), f.expected(), f.actual()));
                return;
            }
        }
    }

    /** Reports the indications whose CNP is overdue before {@code now} (MR-CC-003, MR-CC-004: the oracle's). */
    void advance(final long now) {
        while (!pending.isEmpty() && pending.peekFirst().deadline < now) {
            final Owed p = pending.removeFirst();
            if (p.scope.owing != p) {
                continue;
            }
            p.scope.owing = null;
            final List<Finding> overdue = p.scope.point.overdue(now - 1);
            final Flow notifier = p.notifier != null ? p.notifier : p.data.peer;
            if (overdue.isEmpty() || notifier == null || notifier.requests.answers.fatal
                || p.data.requests.answers.fatal || !notifier.judged) {
                continue;
            }
            final Connection c = notifier.connection;
            final long delay = p.deadline - p.tsNs;
            cx.judge.report(c, notifier, p.check, Basis.CAPTURE_GAP, null, List.of(p.snapshot),
                () -> "no CNP to QP " + Flow.qpn(p.data.peer != null ? p.data.peer.dqpn : 0) + " within "
                    + Text.ago(delay) + " of the CE-marked " + (p.check == Check.CNP_AFTER_CE_REQUEST ? "request"
                    : "read response") + " in frame " + p.frame + ", although no CNP of its scope came in the "
                    + "holding time before it",
                () -> "the CNP, or the CE-marked packet's arrival, may be missing from the capture",
                new FieldDiff("CNP", "within " + Text.ago(delay) + " (cnp_delay_max_ns and the capture's reaction "
                    + "time)", "none"));
        }
    }

    /** The capture ended: indications whose deadline is past the last frame cannot be judged. */
    void finish(final long lastNs) {
        advance(lastNs);
        pending.clear();
        scopes.clear();
    }

    // ---------------------------------------------------------------------------------------------- MR-CC-010

    private void startMeasuring(final Flow reactor, final long cnpNs, final long cnpFrame) {
        final Congestion g = reactor.congestion;
        final int before = g.cnpsReceived++;
        if (!reactor.judged || g.window != null && g.window.open()) {
            return;
        }
        final Parameters pa = cx.parameters;
        // the QP's own DCQCN constants when the evidence's control records give them, each at its lenient end
        // (F, R_AI, R_HAI and the minimum rate play no part in the cut; the oracle's defaults stand for them)
        final DcqcnConstants d = DcqcnConstants.DEFAULTS;
        final long alphaTimer = (long) cx.attribute(reactor, "dcqcn_alpha_timer_ns", false,
            pa.value("dcqcn_alpha_timer_ns"));
        final long rateTimer = (long) cx.attribute(reactor, "dcqcn_rate_timer_ns", false,
            pa.value("dcqcn_rate_timer_ns"));
        final long byteCounter = (long) cx.attribute(reactor, "dcqcn_byte_counter", false,
            pa.value("dcqcn_byte_counter"));
        final DcqcnConstants k = new DcqcnConstants(cx.attribute(reactor, "line_rate_mbps", true,
            pa.value("line_rate_mbps")), cx.attribute(reactor, "dcqcn_g", true, pa.ratio("dcqcn_g")),
            cx.attribute(reactor, "dcqcn_alpha_init", false, pa.ratio("dcqcn_alpha_init")), Math.max(1, alphaTimer),
            Math.max(1, rateTimer), Math.max(1, byteCounter), d.f(), d.raiMbps(), d.rhaiMbps(), d.minRateMbps());
        long decays = 0;
        final Basis basis;
        if (cx.judge.atDevice() && rtsLowerBound != Long.MIN_VALUE) {
            decays = (long) Math.ceil((double) Math.max(0, cnpNs - rtsLowerBound) / k.alphaTimerNs());
            basis = pa.declared() ? Basis.DEFINITE : Basis.PARAMETER;
        } else {
            basis = Basis.UNKNOWN_STATE;
        }
        final double alpha = k.alphaAtLeast(before, decays);
        g.window = new CutWindow(cnpNs, cx.reaction(reactor), k, alpha);
        g.cnpFrame = cnpFrame;
        g.basis = basis;
        g.boundLineRateMbps = k.lineRateMbps();
        g.boundAlpha = alpha;
    }

    /** A data packet of a flow: feeds a rate measurement after a CNP. */
    void onData(final Frame fr) {
        final Flow flow = fr.flow;
        final Congestion g = flow.congestion;
        if (flow.peer != null && flow.peer.congestion.unclaimedCnpNs != Long.MIN_VALUE) {
            final Congestion from = flow.peer.congestion;
            flow.rate.cnpReceived(from.unclaimedCnpNs);
            startMeasuring(flow, from.unclaimedCnpNs, from.unclaimedCnpFrame);
            from.unclaimedCnpNs = Long.MIN_VALUE;
        }
        final CutWindow w = g.window;
        if (w == null || !w.open()) {
            return;
        }
        final Finding found = w.onData(fr.tsNs, fr.wireLength + 4L, fr.number,
            cx.parameters.value("rate_tolerance_pct"), org.metaroce.mrct.oracle.Basis.FRAME);
        if (w.open()) {
            return;
        }
        g.window = null;
        if (!w.measured()) {
            return;
        }
        final Connection c = flow.connection;
        Judge.observe(c, flow, Check.RATE_CUT);
        if (found != null) {
            final long cnpFrame = g.cnpFrame;
            final long first = w.firstFrame();
            final String bound = g.boundText();
            final Basis basis = g.basis;
            final double rate = w.rate();
            cx.judge.report(c, flow, Check.RATE_CUT, basis, fr,
                () -> "after the CNP in frame " + cnpFrame + ", the 16 data packets from frame " + first + " went at "
                    + Text.rate(rate) + ", above the cut rate " + Text.rate(w.boundMbps()) + " (" + bound
                    + ") and its tolerance", () -> basis == Basis.UNKNOWN_STATE ? "alpha and the rate before the "
                    + "CNP depend on when the QP entered RTS and on CNPs the capture does not hold" : null,
                new FieldDiff("window rate", "at most " + Text.rate(w.boundMbps()
                    * (1 + cx.parameters.value("rate_tolerance_pct") / 100.0)), Text.rate(rate)));
        }
    }
}

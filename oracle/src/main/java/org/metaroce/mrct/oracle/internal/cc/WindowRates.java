package org.metaroce.mrct.oracle.internal.cc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.DcqcnConstants;
import org.metaroce.mrct.oracle.DcqcnStream;
import org.metaroce.mrct.oracle.DcqcnStream.DataPacket;
import org.metaroce.mrct.oracle.DcqcnStream.WindowFinding;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.ReactionPoint;

/**
 * Window rates (section 14.4) and their judgement against the DCQCN model: the sum of (frame length + 4) x 8 bits of
 * 16 consecutive data packets over the time from the first to the 17th.
 */
public final class WindowRates {
    /** Packets a window's bits are counted over. */
    public static final int PACKETS = 16;
    /** The field a window finding names. */
    public static final String FIELD = "window rate (Mb/s)";

    private WindowRates() {
    }

    /** Every closed window: (time of the 17th packet, Mb/s, index of the first packet), in order. */
    public static List<double[]> closed(final List<DataPacket> sent) {
        final List<double[]> out = new ArrayList<>();
        long bits = 0;
        for (int i = 0; i < sent.size(); i++) {
            if (i >= PACKETS) {
                final long elapsed = sent.get(i).time() - sent.get(i - PACKETS).time();
                if (elapsed > 0) {
                    out.add(new double[] {sent.get(i).time(), bits * 1000.0 / elapsed, i - PACKETS});
                }
                bits -= sent.get(i - PACKETS).wireBytes() * 8L;
            }
            bits += sent.get(i).wireBytes() * 8L;
        }
        return out;
    }

    /**
     * The last 16 packets sent by {@code to} as a window closed at {@code to}: (to, the most its rate can still be,
     * index of its first packet), or null with fewer than 16 packets or when {@code to} is not after the first. A
     * window rate below a bound by then stays below it.
     */
    public static double[] open(final List<DataPacket> sent, final long to) {
        int end = sent.size();
        while (end > 0 && sent.get(end - 1).time() > to) {
            end--;
        }
        if (end < PACKETS || to <= sent.get(end - PACKETS).time()) {
            return null;
        }
        long bits = 0;
        for (int i = end - PACKETS; i < end; i++) {
            bits += sent.get(i).wireBytes() * 8L;
        }
        return new double[] {to, bits * 1000.0 / (to - sent.get(end - PACKETS).time()), end - PACKETS};
    }

    /** See {@link DcqcnStream#checkWindows}; {@code tolerance} as a fraction. */
    public static List<WindowFinding> judge(final DcqcnStream stream, final long from, final long to, final long now,
                                            final double tolerance, final long toleranceNs,
                                            final DcqcnStream.Backlog backlog) {
        final List<WindowFinding> out = new ArrayList<>();
        final List<DataPacket> sent = stream.sent();
        final DcqcnConstants k = stream.constants();
        final ReactionPoint exact = stream.model(now);
        final ReactionPoint late = backlog == null ? null : stream.latestModel(now, toleranceNs);
        final Alternatives alternatives = backlog == null ? null : new Alternatives(
            stream.withoutAlphaDecay(now, toleranceNs), Arrays.stream(DcqcnStream.MissingSteps.values())
                .flatMap(m -> Stream.of(stream.missingSteps(m, now, -1), stream.missingSteps(m, now, toleranceNs)))
                .toList(),
            stream.withOtherQpsCnps(now, toleranceNs));
        // a window may have to keep up with an Rc set up to one timer window before its first packet
        final long slack = DcqcnConstants.timerWindow(k.rateTimerNs()) + toleranceNs;
        final long origin = stream.rts();
        final String pct = Math.round(tolerance * 100) + "%";
        for (final double[] window : closed(sent)) {
            final int first = (int) window[2];
            final long t0 = sent.get(first).time();
            final long t16 = (long) window[0];
            if (t0 < from || t16 > to) {
                continue;
            }
            final double rate = window[1];
            final double max = exact.max(t0, t16);
            final ReactionPoint.Point point = exact.at(t16);
            // departures are timed in whole ns: the upper bound takes the window 1 ns longer, the lower 1 ns shorter
            if (rate * (t16 - t0) / (t16 - t0 + 1) > max * (1 + tolerance)) {
                final String rule = fastRule(k, exact, point, t0, t16, rate, tolerance);
                out.add(finding(rule, "at most " + mbps(max * (1 + tolerance)) + " (largest model Rc " + mbps(max)
                    + " + " + pct + ")", rate, sent.get(first).frame(), t0, t16, first, point, origin));
                continue;
            }
            if (backlog == null || !backlog.throughout()) {
                continue;
            }
            final ReactionPoint.Point lowest = lowest(exact, late, Math.max(origin, t0 - slack), t16);
            final double min = lowest.rc();
            if (upTo1NsShorter(rate, t16 - t0) < min * (1 - tolerance)) {
                final String rule = slowRule(lowest, alternatives, Math.max(origin, t0 - slack), t0, t16, rate,
                    tolerance);
                out.add(finding(rule, "at least " + mbps(min * (1 - tolerance)) + " (smallest model Rc "
                    + mbps(min) + " - " + pct + "; the QP is kept backlogged" + explained(rule, lowest) + ")", rate,
                    sent.get(first).frame(), t0, t16, first, lowest, origin));
            }
        }
        // the window still open at the end of the interval: a QP with work not yet sent whose 17th packet has not
        // come by then has a window rate of at most its last 16 packets' bits over the time since the first
        if (backlog != null && backlog.throughout() && backlog.atEnd()) {
            final double[] open = open(sent, to);
            if (open != null && sent.get((int) open[2]).time() >= from) {
                final int first = (int) open[2];
                final long t0 = sent.get(first).time();
                final ReactionPoint.Point lowest = lowest(exact, late, Math.max(origin, t0 - slack), to);
                final double min = lowest.rc();
                if (upTo1NsShorter(open[1], to - t0) < min * (1 - tolerance)) {
                    final String rule = slowRule(lowest, alternatives, Math.max(origin, t0 - slack), t0, to,
                        open[1], tolerance);
                    out.add(finding(rule, "at least " + mbps(min * (1 - tolerance)) + " (smallest model Rc "
                        + mbps(min) + " - " + pct + "; the QP is kept backlogged, and no 17th packet came by "
                        + Durations.of(to - origin) + explained(rule, lowest) + ")", open[1],
                        sent.get(first).frame(), t0, to, first, lowest, origin));
                }
            }
        }
        return out;
    }

    /**
     * The rate of a window measured at {@code rate} over {@code elapsed} ns had it lasted 1 ns less. Departures are
     * timed in whole ns, so the window of a pacer exact to the ns may last up to 1 ns more or less than its exact
     * schedule: the bounds take the window 1 ns shorter (lower bound) or longer (upper bound), so that a pacer exact
     * to the ns passes under a rate_tolerance_pct of 0.
     */
    static double upTo1NsShorter(final double rate, final long elapsed) {
        return elapsed > 1 ? rate * elapsed / (elapsed - 1) : rate;
    }

    /**
     * The rule a window too fast for the largest Rc blames: MR-CC-015 above the line rate; while a CNP's cut is in
     * force MR-CC-010 (the QP did not cut), unless the window fits the target rate Rt where Rt is clearly below the line
     * rate, which shows a QP that cut Rt but paces at it instead of Rc (MR-CC-017, as after an increase step). Right after
     * a QP's first CNP Rt is the line rate, and an uncut QP and one pacing at Rt look alike: MR-CC-010 then.
     */
    private static String fastRule(final DcqcnConstants k, final ReactionPoint exact, final ReactionPoint.Point point,
                                   final long t0, final long t16, final double rate, final double tolerance) {
        if (rate > k.lineRateMbps() * (1 + tolerance)) {
            return "MR-CC-015";
        }
        if (!point.rule().equals(ReactionPoint.CUT)) {
            return "MR-CC-017";
        }
        final double rt = exact.maxRt(t0, t16);
        return rt < k.lineRateMbps() * (1 - tolerance) && rate <= rt * (1 + tolerance) ? "MR-CC-017" : "MR-CC-010";
    }

    /**
     * The models of a QP breaking one rule of section 14 that a window too slow for the conforming models is compared
     * with: alpha never decayed (MR-CC-012), increase steps missing (MR-CC-013, {@link DcqcnStream.MissingSteps}),
     * the CNPs that named the device's other QPs taken too (MR-CC-016; null when there were none).
     */
    private record Alternatives(ReactionPoint noDecay, List<ReactionPoint> missingSteps, ReactionPoint othersCnps) {
    }

    /**
     * The rule a window too slow for the Rc of {@code lowest} blames: the rule of the event that set that Rc, unless the
     * model of a QP breaking one rule explains it (the window fits that model within the tolerance either way, and the
     * model is clearly slower than the conforming one there):
     * <ul>
     *   <li>the model that also took the CNPs naming the device's other QPs: MR-CC-016 (a CNP changed a QP it did not
     *   name);</li>
     *   <li>below a CNP's cut, the model that never decays alpha: MR-CC-012 (the QP cut by an alpha it should have
     *   decayed; a window not below that model's smallest Rc is enough);</li>
     *   <li>below an increase step's Rc, a model making fewer steps (the rate timer's or the byte counter's missing,
     *   or the timer counted from the last packet sent): MR-CC-013 (a step missing, not a step of the wrong kind,
     *   which MR-CC-014 governs).</li>
     * </ul>
     * {@code slackFrom} is where the Rc the window must keep up with may have been set, [t0, t16] the window.
     */
    private static String slowRule(final ReactionPoint.Point lowest, final Alternatives alternatives,
                                   final long slackFrom, final long t0, final long t16, final double rate,
                                   final double tolerance) {
        if (explains(alternatives.othersCnps(), lowest, slackFrom, t0, t16, rate, tolerance)) {
            return "MR-CC-016";
        }
        final double noDecay = alternatives.noDecay().lowest(slackFrom, t16).rc();
        if (lowest.rule().equals(ReactionPoint.CUT) && noDecay < lowest.rc() * (1 - tolerance)
            && rate >= noDecay * (1 - tolerance)) {
            return "MR-CC-012";
        }
        if (lowest.rule().equals(ReactionPoint.INCREASE) && alternatives.missingSteps().stream()
            .anyMatch(m -> explains(m, lowest, slackFrom, t0, t16, rate, tolerance))) {
            return "MR-CC-013";
        }
        return lowest.rule();
    }

    /** Why a slow window blames {@code rule} rather than the rule of its model point: the model that explains it. */
    private static String explained(final String rule, final ReactionPoint.Point lowest) {
        if (rule.equals(lowest.rule())) {
            return "";
        }
        return switch (rule) {
            case "MR-CC-016" -> "; it fits the model that also took the CNPs naming the device's other QPs";
            case "MR-CC-013" -> "; it fits a model making fewer increase steps than the rate timer and byte counter "
                + "require";
            case "MR-CC-012" -> "; it is not below the model that never decays alpha";
            default -> "";
        };
    }

    /**
     * Whether {@code model} explains a window too slow for the conforming Rc of {@code lowest}: its smallest Rc over
     * [slackFrom, t16] is clearly below that Rc (by more than the tolerance), the window is not below it, and not above
     * the largest Rc it has over [t0, t16], each within the tolerance.
     */
    private static boolean explains(final ReactionPoint model, final ReactionPoint.Point lowest, final long slackFrom,
                                    final long t0, final long t16, final double rate, final double tolerance) {
        if (model == null) {
            return false;
        }
        final double min = model.lowest(slackFrom, t16).rc();
        return min < lowest.rc() * (1 - tolerance) && rate >= min * (1 - tolerance)
            && rate <= model.max(t0, t16) * (1 + tolerance);
    }

    /** The point of the smaller Rc of the two models' smallest in [from, to]. */
    private static ReactionPoint.Point lowest(final ReactionPoint exact, final ReactionPoint late, final long from,
                                              final long to) {
        final ReactionPoint.Point a = exact.lowest(from, to);
        final ReactionPoint.Point b = late.lowest(from, to);
        return b.rc() < a.rc() ? b : a;
    }

    private static WindowFinding finding(final String rule, final String expected, final double rate,
                                         final long frame, final long t0, final long t16, final int first,
                                         final ReactionPoint.Point point, final long origin) {
        final Basis basis = Basis.configured("the DCQCN model of section 14.3: Rc there follows " + point.cause()
            + " at " + Durations.of(point.time() - origin) + " (" + point.rule() + "): " + point.state());
        return new WindowFinding(new Finding(rule, FIELD, expected, mbps(rate), frame, basis), t0, t16, first, point);
    }

    /** "1234.5 Mb/s". */
    public static String mbps(final double rate) {
        return String.format(Locale.ROOT, "%.1f Mb/s", rate);
    }
}

package org.metaroce.mrct.analyzer.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * Turns the connections of an analysis into report cases: one per (connection, check) that saw something to judge,
 * verdict FAIL when it found a violation, INCONCLUSIVE when it found only what the capture cannot prove, PASS
 * otherwise; and one summary case per connection with its table (frames, bytes, retransmissions, CNPs, rate) in the
 * notes and its rates as series. A failing case's evidence holds the offending frames with their capture timestamps.
 */
final class Results {
    private final Specification spec;
    private final Parameters parameters;
    private final long origin;

    Results(final Specification spec, final Parameters parameters, final long origin) {
        this.spec = spec;
        this.parameters = parameters;
        this.origin = origin;
    }

    /** The number of cases {@link #of} gives for the connection. */
    int count(final Connection c) {
        int n = 1;
        for (final Check check : Check.values()) {
            final Tally tally = c.tallyOf(check);
            if (tally == null && c.observed(check) == 0) {
                continue;
            }
            if (c.tver >= 0 && !check.versions().includes(c.tver) && tally == null) {
                continue;
            }
            n++;
        }
        return n;
    }

    /** The cases of one connection: its checks in catalogue order, then its summary. */
    List<CaseResult> of(final Connection c, final String prefix, final List<String> violations) {
        final List<CaseResult> cases = new ArrayList<>();
        final String label = label(c);
        int pass = 0;
        int fail = 0;
        int doubt = 0;
        Verdict worst = Verdict.PASS;
        for (final Check check : Check.values()) {
            final Tally tally = c.tallyOf(check);
            final long observed = c.observed(check);
            if (tally == null && observed == 0) {
                continue;
            }
            if (c.tver >= 0 && !check.versions().includes(c.tver) && tally == null) {
                continue;
            }
            final CaseResult result = check(c, check, tally, observed, prefix, label);
            cases.add(result);
            worst = worst.worst(result.verdict());
            if (result.verdict() == Verdict.FAIL) {
                fail++;
                violations.add(result.id() + ": " + result.reason());
            } else if (result.verdict() == Verdict.INCONCLUSIVE) {
                doubt++;
            } else {
                pass++;
            }
        }
        cases.add(summary(c, prefix, label, worst, pass, fail, doubt));
        return cases;
    }

    /** {@code 10.0.0.1 qp 0x00001d <-> 10.0.0.2 qp 0x00001b}, or one direction with its destination QP. */
    static String label(final Connection c) {
        final Flow a = c.side(0);
        final Flow b = c.side(1);
        if (b == null) {
            return a.label() + " (one direction)";
        }
        return a.sourceText + " qp " + Flow.qpn(b.dqpn) + " <-> " + b.sourceText + " qp " + Flow.qpn(a.dqpn);
    }

    private CaseResult check(final Connection c, final Check check, final Tally tally, final long observed,
                             final String prefix, final String label) {
        final Rule rule = spec.rule(check.rule());
        final Verdict found = tally == null ? Verdict.PASS : tally.violations > 0 ? Verdict.FAIL
            : tally.doubts > 0 ? Verdict.INCONCLUSIVE : Verdict.PASS;
        // a violation in a case its own run could not judge (harness or device late, evidence incomplete) is not
        // certain either, as the live engine ruled on the same frames
        final boolean unfit = found == Verdict.FAIL && c.recordedInconclusive;
        final Verdict verdict = unfit ? Verdict.INCONCLUSIVE : found;
        final List<FrameRecord> evidence = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        Failure failure = null;
        String reason;
        if (tally == null) {
            reason = observed + " " + check.unit() + " checked, no violation";
        } else {
            Finding first = null;
            for (final Finding finding : tally.kept) {
                if (finding.violation() == (found == Verdict.FAIL) && first == null) {
                    first = finding;
                }
            }
            int firstIndex = -1;
            for (final Finding finding : ordered(tally.kept)) {
                final int at = evidence.size();
                int index = 0;
                for (final FrameSnapshot snapshot : finding.frames()) {
                    evidence.add(record(c, snapshot, evidence.size(), (index++ == 0 ? (finding.violation()
                        ? "offending frame: " : "frame in question: ") : "related frame: ") + shorten(
                        finding.message())));
                }
                if (finding == first && finding.frames().size() > 0) {
                    firstIndex = at;
                }
                if (finding != first) {
                    notes.add((finding.violation() ? "violation" : "inconclusive") + (finding.frame() > 0
                        ? " at frame " + finding.frame() : "") + ": " + finding.message());
                }
            }
            notes.addAll(tally.mentioned);
            final long shown = tally.kept.size() + tally.mentioned.size();
            if (tally.violations + tally.doubts > shown) {
                notes.add("and " + (tally.violations + tally.doubts - shown) + " more findings of this check");
            }
            if (verdict == Verdict.FAIL) {
                reason = count(tally.violations, "violation") + (first.frame() > 0 ? ", first at frame "
                    + first.frame() : "") + ": " + first.message();
                failure = new Failure(check.rule(), -1, check.title(), 0, firstIndex, first.diffs(), null,
                    firstIndex >= 0 ? describe(evidence.get(firstIndex)) : null, first.message());
            } else if (unfit) {
                reason = count(tally.violations, "violation") + " in a case its run recorded INCONCLUSIVE (the "
                    + "harness or the device late beyond the run's tolerance, or its evidence incomplete), so not "
                    + "certain here either" + (first.frame() > 0 ? ", first at frame " + first.frame() : "") + ": "
                    + first.message();
            } else if (verdict == Verdict.INCONCLUSIVE) {
                reason = count(tally.doubts, "finding") + " the capture cannot prove"
                    + (first != null && first.frame() > 0 ? ", first at frame " + first.frame() : "") + ": "
                    + (first != null ? first.message() : "");
            } else {
                reason = observed + " " + check.unit() + " checked, no violation";
            }
            if (verdict != Verdict.FAIL && tally.violations == 0 && observed > 0) {
                notes.add(0, observed + " " + check.unit() + " checked");
            }
        }
        notes.add("parameters: " + parameters.source());
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("connection", label);
        params.put("tver", c.tver);
        return new CaseResult(prefix + c.id + "/" + check.rule(), check.rule(), label + ": " + check.title(),
            rule != null ? rule.area().toLowerCase(Locale.ROOT) : "capture", List.of(check.rule()),
            rule != null ? rule.level() : null, rule != null ? rule.role() : null, c.capture, params,
            verdict, reason, failure, 0, duration(c), 1, evidence, notes, Map.of());
    }

    /** Violations first, then doubts, each in the order found. */
    private static List<Finding> ordered(final List<Finding> kept) {
        final List<Finding> out = new ArrayList<>(kept.size());
        for (final Finding finding : kept) {
            if (finding.violation()) {
                out.add(finding);
            }
        }
        for (final Finding finding : kept) {
            if (!finding.violation()) {
                out.add(finding);
            }
        }
        return out;
    }

    private FrameRecord record(final Connection c, final FrameSnapshot snapshot, final int index, final String note) {
        final boolean sideA = snapshot.flow() == c.side(0);
        final Direction direction = c.evidenceCase != null ? (snapshot.flow().judged ? Direction.FROM_DUT
            : Direction.TO_DUT) : sideA ? Direction.TO_DUT : Direction.FROM_DUT;
        return new FrameRecord(index, direction, Math.max(0, snapshot.tsNs() - origin), snapshot.bytes(), -1,
            "frame " + snapshot.number() + " of " + c.capture + " (" + snapshot.flow().label() + ", captured "
                + Instant.ofEpochSecond(0, snapshot.tsNs()) + (snapshot.cut() ? ", cut short by the capture" : "")
                + "): " + note, snapshot.decoded());
    }

    private static String describe(final FrameRecord record) {
        final StringBuilder text = new StringBuilder();
        describe(record.decoded(), "", text);
        return text.toString().trim();
    }

    @SuppressWarnings("unchecked")
    private static void describe(final Map<String, Object> map, final String prefix, final StringBuilder text) {
        for (final Map.Entry<String, Object> entry : map.entrySet()) {
            if (entry.getValue() instanceof Map) {
                describe((Map<String, Object>) entry.getValue(), prefix + entry.getKey() + ".", text);
            } else {
                text.append(prefix).append(entry.getKey()).append('=').append(entry.getValue()).append(' ');
            }
        }
    }

    private static String shorten(final String text) {
        return text.length() <= 160 ? text : text.substring(0, 157) + "...";
    }

    private static String count(final long n, final String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static long duration(final Connection c) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (final Flow flow : c.flows) {
            first = Math.min(first, flow.firstNs);
            last = Math.max(last, flow.lastNs);
        }
        return last > first ? last - first : 0;
    }

    private CaseResult summary(final Connection c, final String prefix, final String label, final Verdict worst,
                               final int pass, final int fail, final int doubt) {
        final List<String> notes = new ArrayList<>();
        final String tver = c.tver == 1 ? "MetaRoCE v1 (TVer 1)" : c.tver == 0 ? "RoCEv2 (TVer 0), legacy rules"
            : "transport version unknown";
        final StringBuilder pmtu = new StringBuilder();
        for (final Flow flow : c.flows) {
            pmtu.append(pmtu.length() == 0 ? "" : "; ").append(flow.sourceText).append(": ")
                .append(flow.pmtu.value() > 0 ? Integer.toString(flow.pmtu.value()) : flow.pmtu.describe()
                    + " (not known from its packets)");
        }
        notes.add("connection " + c.id + ": " + label + ", " + tver + "; PMTU " + pmtu);
        notes.add(String.format(Locale.ROOT, "%-48s %9s %12s %9s %7s %7s %6s %6s %7s %12s", "direction", "frames",
            "bytes", "data", "retx", "copies", "CNPs", "CE", "badICRC", "mean rate"));
        final Map<String, List<double[]>> series = new LinkedHashMap<>();
        for (final Flow flow : c.flows) {
            notes.add(String.format(Locale.ROOT, "%-48s %9d %12d %9d %7d %7d %6d %6d %7d %12s", flow.label(),
                flow.frames, flow.bytes, flow.dataFrames, flow.retransmissions, flow.copies, flow.cnps,
                flow.ceMarked, flow.badIcrc, Text.rate(flow.rate.meanMbps())));
            if (flow.rate.hasData()) {
                series.put(flow.sourceText + " -> " + flow.destinationText + " data Mb/s", flow.rate.rate());
            }
            if (flow.rate.hasCnps()) {
                series.put(flow.sourceText + " CNPs received", flow.rate.cnps());
            }
        }
        if (c.ambiguous) {
            notes.add("the pairing of this connection's two directions was ambiguous (see the notes below)");
        }
        notes.addAll(c.notes);
        if (c.droppedNotes() > 0) {
            notes.add("and " + c.droppedNotes() + " more notes");
        }
        notes.add("parameters: " + parameters.source());
        final String reason = String.format(Locale.ROOT, "%d frames in %d direction%s; %d check%s: %d PASS, %d FAIL, "
                + "%d INCONCLUSIVE", c.flows.stream().mapToLong(f -> f.frames).sum(), c.flows.size(),
            c.flows.size() == 1 ? "" : "s", pass + fail + doubt, pass + fail + doubt == 1 ? "" : "s", pass, fail,
            doubt);
        final Map<String, Object> params = new LinkedHashMap<>();
        params.put("connection", label);
        params.put("tver", c.tver);
        return new CaseResult(prefix + c.id + "/summary", "connection", label, "connection", List.of(), null, null,
            c.capture, params, worst, reason, null, 0, duration(c), 1, List.of(), notes, series);
    }
}

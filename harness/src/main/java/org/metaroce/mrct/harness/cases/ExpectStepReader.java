package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.WorkOpcode;

/**
 * Reads the expectations on the device's frames ({@code expect}, {@code expect_unordered}, {@code expect_none}) and on
 * its state ({@code expect_memory}, {@code expect_completions}, {@code expect_counters}, {@code expect_qp}).
 */
final class ExpectStepReader {
    private final ReadScope s;
    private final TemplateReader templates;

    ExpectStepReader(final ReadScope scope, final TemplateReader templates) {
        this.s = scope;
        this.templates = templates;
    }

    Step step(final String kind, final YNode body) {
        if (kind.equals("expect_none") && body instanceof YScalar) {
            final Expr duration = s.expr(body, "expect_none", Domain.DURATION);
            return duration == null ? null : new Step.ExpectNone(duration, null, null, body.line());
        }
        final YMap map = s.b.map(body, kind);
        if (map == null) {
            return null;
        }
        switch (kind) {
            case "expect":
                return expect(map);
            case "expect_unordered":
                return expectUnordered(map);
            case "expect_none":
                return expectNone(map);
            case "expect_memory":
                return expectMemory(map);
            case "expect_completions":
                return expectCompletions(map);
            case "expect_counters":
                return expectCounters(map);
            default:
                return expectQp(map);
        }
    }

    /** The step's own {@code rule:} (blame prefers it), which must be one the case cites; null when absent. */
    private String stepRule(final YMap map, final String what) {
        final String rule = s.b.optionalString(map, "rule", what);
        if (rule != null && !s.caseRules.contains(rule)) {
            s.problemAt(map, "rule", "the step's rule " + rule + " is not among the rules the case cites");
        }
        return rule;
    }

    private Step expect(final YMap map) {
        final FrameTemplate template = templates.template(map, "expect", "within", "after", "skip_others", "label",
            "rule");
        final String rule = stepRule(map, "expect");
        return new Step.Expect(template, s.optionalExpr(map, "within", Domain.DURATION),
            s.optionalExpr(map, "after", Domain.DURATION), s.flag(map, "skip_others", "expect", false),
            s.b.optionalString(map, "label", "expect"), rule, map.line());
    }

    private Step expectUnordered(final YMap map) {
        s.b.onlyKeys(map, "expect_unordered", "frames", "within");
        final List<FrameTemplate> frames = new ArrayList<>();
        for (final YNode frame : s.b.list(s.b.required(map, "frames", "expect_unordered"))) {
            final YMap frameMap = s.b.map(frame, "a frame");
            if (frameMap != null) {
                frames.add(templates.template(frameMap, "a frame"));
            }
        }
        return new Step.ExpectUnordered(frames, s.optionalExpr(map, "within", Domain.DURATION), map.line());
    }

    private Step expectNone(final YMap map) {
        final Expr duration = s.requiredExpr(map, "for", "expect_none", Domain.DURATION);
        final FrameTemplate filter = map.keys().size() > (map.has("rule") ? 2 : 1)
            ? templates.template(map, "expect_none", "for", "rule") : null;
        final String rule = stepRule(map, "expect_none");
        return duration == null ? null : new Step.ExpectNone(duration, filter, rule, map.line());
    }

    private Step expectMemory(final YMap map) {
        s.b.onlyKeys(map, "expect_memory", "mr", "offset", "length", "equals", "model", "untouched", "rule");
        final String region = s.requiredRegion(map, "mr", "expect_memory");
        final boolean model = s.flag(map, "model", "expect_memory", false);
        final boolean untouched = s.flag(map, "untouched", "expect_memory", false);
        final PayloadSpec equals = map.has("equals") ? templates.payload(map.get("equals"), "equals") : null;
        final int ways = (map.has("equals") ? 1 : 0) + (model ? 1 : 0) + (untouched ? 1 : 0);
        if (ways != 1) {
            s.b.problem(map, "expect_memory needs exactly one of equals, model: true, untouched: true");
        }
        return new Step.ExpectMemory(region, s.optionalExpr(map, "offset", Domain.OFFSET),
            s.optionalExpr(map, "length", Domain.BYTES), equals, model, untouched, stepRule(map, "expect_memory"),
            map.line());
    }

    private Step expectCompletions(final YMap map) {
        s.b.onlyKeys(map, "expect_completions", "qp", "entries", "model", "exact");
        final String connection = s.connectionRef(map, "qp");
        final List<CompletionTemplate> entries = new ArrayList<>();
        for (final YNode node : s.b.list(map.get("entries"))) {
            final YMap entry = s.b.map(node, "a completion");
            if (entry == null) {
                continue;
            }
            s.b.onlyKeys(entry, "a completion", "opcode", "status", "length", "imm", "invalidated", "wr_id",
                "solicited");
            final WorkOpcode opcode = s.enumValue(entry, "opcode", s.b.optionalString(entry, "opcode", "completion"),
                WorkOpcode.class);
            final CompletionStatus status = s.enumValue(entry, "status",
                s.b.optionalString(entry, "status", "completion"), CompletionStatus.class);
            entries.add(new CompletionTemplate(opcode, status, s.optionalExpr(entry, "length", Domain.U32),
                s.optionalExpr(entry, "imm", Domain.U32), s.optionalExpr(entry, "invalidated", Domain.U32),
                s.optionalExpr(entry, "wr_id"), s.b.optionalBool(entry, "solicited", "completion"), entry.line()));
        }
        final boolean model = s.flag(map, "model", "expect_completions", false);
        if (model == map.has("entries")) {
            s.b.problem(map, "expect_completions needs either entries or model: true");
        }
        return new Step.ExpectCompletions(connection, entries, model, s.flag(map, "exact", "expect_completions", true),
            map.line());
    }

    private Step expectCounters(final YMap map) {
        final Map<String, Expr> values = new LinkedHashMap<>();
        boolean exact = false;
        String connection = null;
        final Set<String> known = new LinkedHashSet<>();
        s.context.spec().counters().forEach(c -> known.add(c.name()));
        for (final Map.Entry<String, YNode> entry : map.entries().entrySet()) {
            if (entry.getKey().equals("exact")) {
                exact = s.b.bool(entry.getValue(), "exact", false);
                continue;
            }
            if (entry.getKey().equals("qp")) {
                connection = s.connectionRef(map, "qp");
                continue;
            }
            if (!known.isEmpty() && !known.contains(entry.getKey())) {
                s.problemAt(map, entry.getKey(), "unknown counter '" + entry.getKey() + "'; Appendix C lists "
                    + known);
            }
            final Expr value = s.expr(entry.getValue(), entry.getKey());
            if (value != null) {
                values.put(entry.getKey(), value);
            }
        }
        return new Step.ExpectCounters(connection, values, exact, map.line());
    }

    private Step expectQp(final YMap map) {
        s.b.onlyKeys(map, "expect_qp", "qp", "state");
        final String connection = s.connectionRef(map, "qp");
        final QpState state = s.enumValue(map, "state", s.b.string(s.b.required(map, "state", "expect_qp"), "state"),
            QpState.class);
        return state == null ? null : new Step.ExpectQp(connection, state, map.line());
    }
}

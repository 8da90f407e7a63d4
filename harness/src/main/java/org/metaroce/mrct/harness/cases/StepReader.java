package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpState;

/**
 * Reads a list of steps: each a map with one key, the step's kind, dispatched to the reader of its family (frames the
 * harness sends, expectations, requester steps); the control steps (receives, invalidation, QP moves, memory writes)
 * and the control flow ({@code repeat}, {@code when}) are read here.
 */
final class StepReader {
    static final List<String> KINDS = List.of("send", "message", "flow", "expect", "expect_unordered", "expect_none",
        "advance", "expect_memory", "expect_completions", "expect_counters", "expect_qp", "post_recv", "post_send",
        "invalidate", "modify_qp", "write_memory", "repeat", "when", "network", "expect_traffic", "expect_rate");

    private final ReadScope s;
    private final SetupReader setup;
    private final FrameStepReader frames;
    private final ExpectStepReader expectations;
    private final RequesterStepReader requester;

    StepReader(final ReadScope scope, final SetupReader setup, final TemplateReader templates) {
        this.s = scope;
        this.setup = setup;
        this.frames = new FrameStepReader(scope, templates);
        this.expectations = new ExpectStepReader(scope, templates);
        this.requester = new RequesterStepReader(scope, templates);
    }

    /**
     * The steps of {@code node}, read with {@code loopVars} in scope; {@code what} names the list in the problem
     * given when it is empty.
     */
    List<Step> steps(final YNode node, final Set<String> loopVars, final String what) {
        final List<Step> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        final Set<String> outer = s.loopScope;
        s.loopScope = loopVars;
        try {
            for (final YNode item : s.b.list(node)) {
                final YMap map = s.b.map(item, "a step");
                if (map == null) {
                    continue;
                }
                if (map.keys().size() != 1) {
                    s.b.problem(map, "a step is a map with exactly one key (the step's kind), not " + map.keys());
                    continue;
                }
                final String kind = map.keys().iterator().next();
                final Step step = step(kind, map.get(kind), map);
                if (step != null) {
                    out.add(step);
                }
            }
        } finally {
            s.loopScope = outer;
        }
        if (s.b.list(node).isEmpty()) {
            s.b.problem(node, what + " needs at least one step");
        }
        return out;
    }

    private Step step(final String kind, final YNode body, final YMap holder) {
        switch (kind) {
            case "send":
            case "message":
            case "flow":
                return frames.step(kind, body);
            case "expect":
            case "expect_unordered":
            case "expect_none":
            case "expect_memory":
            case "expect_completions":
            case "expect_counters":
            case "expect_qp":
                return expectations.step(kind, body);
            case "post_send":
            case "network":
            case "expect_traffic":
            case "expect_rate":
                return requester.step(kind, body);
            case "advance":
                return new Step.Advance(s.expr(body, "advance", Domain.DURATION), body.line());
            case "post_recv": {
                final YMap map = s.b.map(body, "post_recv");
                return map == null ? null : postReceive(map);
            }
            case "invalidate": {
                final String region = body instanceof YMap map ? s.requiredRegion(map, "mr", "invalidate")
                    : s.b.string(body, "invalidate");
                if (!(body instanceof YMap)) {
                    s.checkRegion(body, region);
                }
                return new Step.Invalidate(region, body.line());
            }
            case "modify_qp":
                return modifyQp(s.b.map(body, "modify_qp"));
            case "write_memory":
                return writeMemory(s.b.map(body, "write_memory"));
            case "repeat":
                return repeat(s.b.map(body, "repeat"));
            case "when":
                return when(s.b.map(body, "when"));
            default:
                s.problemAt(holder, kind, "unknown step '" + kind + "'; steps are " + String.join(", ", KINDS));
                return null;
        }
    }

    /** A {@code post_recv} step, or a receive of {@code setup.receives}. */
    Step.PostReceive postReceive(final YMap map) {
        s.b.onlyKeys(map, "post_recv", "qp", "mr", "offset", "length", "count");
        final String connection = s.connectionRef(map, "qp");
        final String region = s.requiredRegion(map, "mr", "post_recv");
        return new Step.PostReceive(connection, region, s.optionalExpr(map, "offset", Domain.OFFSET),
            s.requiredExpr(map, "length", "post_recv", Domain.BYTES),
            map.has("count") ? s.expr(map.get("count"), "count", Domain.COUNT) : Expr.of(1), map.line());
    }

    private Step modifyQp(final YMap map) {
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, "modify_qp", "qp", "state", "attrs", "rejected");
        final String connection = s.connectionRef(map, "qp");
        final QpState state = s.enumValue(map, "state", s.b.string(s.b.required(map, "state", "modify_qp"), "state"),
            QpState.class);
        final Map<QpAttribute, AttributeValue> attributes = setup.qpAttributes(map, "attrs");
        return state == null ? null : new Step.ModifyQp(connection, state, attributes,
            s.flag(map, "rejected", "modify_qp", false), map.line());
    }

    private Step writeMemory(final YMap map) {
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, "write_memory", "mr", "offset", "data");
        final String region = s.requiredRegion(map, "mr", "write_memory");
        final PayloadSpec data = frames.templates().payload(s.b.required(map, "data", "write_memory"), "data");
        return data == null ? null : new Step.WriteMemory(region, s.optionalExpr(map, "offset", Domain.OFFSET), data,
            map.line());
    }

    private Step repeat(final YMap map) {
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, "repeat", "var", "from", "to", "by", "steps");
        final String variable = s.b.string(s.b.required(map, "var", "repeat"), "var");
        final Set<String> inner = new LinkedHashSet<>(s.loopScope);
        if (variable != null) {
            inner.add(variable);
        }
        final Expr from = s.requiredExpr(map, "from", "repeat", Domain.LOOP_BOUND);
        final Expr to = s.requiredExpr(map, "to", "repeat", Domain.LOOP_BOUND);
        final Expr by = s.optionalExpr(map, "by", Domain.LOOP_BOUND);
        if (by != null && Long.valueOf(0).equals(constant(by))) {
            s.problemAt(map, "by", "by: a loop step of 0 never ends");
        }
        final Long low = constant(from);
        final Long high = constant(to);
        final Long step = by == null ? Long.valueOf(1) : constant(by);
        if (low != null && high != null && step != null && step != 0
            && (high - low) / step > Domain.MAX_REPEAT) {
            s.b.problem(map, "repeat runs " + ((high - low) / step + 1) + " times; the harness's limit is "
                + Domain.MAX_REPEAT);
        }
        final List<Step> steps = s.b.required(map, "steps", "repeat") == null ? List.of()
            : steps(map.get("steps"), inner, "repeat");
        if (variable == null || from == null || to == null) {
            return null;
        }
        return new Step.Repeat(variable, from, to, by, steps, map.line());
    }

    /** {@code when: {pics: [items], if: expr, steps: [...], else: [...]}}: at least one of pics and if. */
    private Step when(final YMap map) {
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, "when", "pics", "if", "steps", "else");
        final List<String> pics = s.b.strings(map.get("pics"), "pics");
        for (final String item : pics) {
            if (!s.context.spec().picsNames().isEmpty() && !s.context.spec().picsNames().contains(item)) {
                s.problemAt(map, "pics", "unknown PICS item '" + item + "'; Appendix A lists "
                    + s.context.spec().picsNames());
            }
        }
        final Expr condition = s.optionalExpr(map, "if", Domain.ANY);
        if (pics.isEmpty() && !map.has("if")) {
            s.b.problem(map, "when needs pics, if or both (the condition under which its steps run)");
        }
        final List<Step> steps = s.b.required(map, "steps", "when") == null ? List.of()
            : steps(map.get("steps"), s.loopScope, "when");
        final List<Step> otherwise = map.has("else") ? steps(map.get("else"), s.loopScope, "when's else")
            : List.of();
        return new Step.When(pics, condition, steps, otherwise, map.line());
    }

    private static Long constant(final Expr expr) {
        try {
            return expr == null ? null : expr.constantValue();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

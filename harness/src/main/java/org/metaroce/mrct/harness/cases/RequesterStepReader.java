package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;
import org.metaroce.mrct.wire.Opcode;

/**
 * Reads the steps of requester cases: {@code post_send} (work requests on the device), {@code network} (what the
 * harness's network does to frames), {@code expect_traffic} and {@code expect_rate}.
 */
final class RequesterStepReader {
    private static final Domain QUEUE_BYTES = new Domain("a queue length in bytes", 0, 1L << 40, true);

    private final ReadScope s;
    private final TemplateReader templates;

    RequesterStepReader(final ReadScope scope, final TemplateReader templates) {
        this.s = scope;
        this.templates = templates;
    }

    Step step(final String kind, final YNode body) {
        final YMap map = s.b.map(body, kind);
        if (map == null) {
            return null;
        }
        switch (kind) {
            case "post_send":
                return postSend(map);
            case "network":
                return new Step.Network(network(map));
            case "expect_traffic":
                return new Step.ExpectTraffic(traffic(map));
            default:
                return rate(map);
        }
    }

    private Step postSend(final YMap map) {
        s.b.onlyKeys(map, "post_send", "qp", "op", "mr", "offset", "length", "remote_mr", "remote_offset",
            "remote_va", "rkey", "imm", "invalidate", "swap", "add", "compare", "wr_id", "signaled", "fence",
            "solicited", "count", "stride");
        final String connection = s.connectionRef(map, "qp");
        final String opText = s.b.string(s.b.required(map, "op", "post_send"), "op");
        final MessageOp op = s.word(map, "op", opText, MessageOp::byLabel, "op",
            java.util.Arrays.stream(MessageOp.values()).map(MessageOp::label).toList());
        final String local = s.regionRef(map, "mr", "post_send");
        final String remote = s.regionRef(map, "remote_mr", "post_send");
        final String invalidate = s.regionRef(map, "invalidate", "post_send");
        if (op != null && op.needsRemote() && remote == null && !(map.has("remote_va") && map.has("rkey"))) {
            s.b.problem(map, op.label() + " needs a remote buffer: remote_mr, or remote_va and rkey");
        }
        if (op == MessageOp.SEND_INV && invalidate == null) {
            s.b.problem(map, "send_inv needs invalidate: the region whose R_Key it invalidates");
        }
        if (!map.has("length") && !(op != null && op.isAtomic())) {
            s.b.problem(map, "post_send needs a length");
        }
        if (op == null) {
            return null;
        }
        return new Step.PostSend(connection, op, local, s.optionalExpr(map, "offset"),
            map.has("length") ? s.expr(map.get("length"), "length", Domain.BYTES) : Expr.of(8), remote,
            s.optionalExpr(map, "remote_offset"), s.optionalExpr(map, "remote_va"),
            s.optionalExpr(map, "rkey", Domain.U32), s.optionalExpr(map, "imm", Domain.U32), invalidate,
            map.has("swap") ? s.optionalExpr(map, "swap") : s.optionalExpr(map, "add"),
            s.optionalExpr(map, "compare"), s.optionalExpr(map, "wr_id"),
            s.flag(map, "signaled", "post_send", true), s.flag(map, "fence", "post_send", false),
            s.flag(map, "solicited", "post_send", false), s.optionalExpr(map, "count", Domain.COUNT),
            s.optionalExpr(map, "stride", Domain.BYTES), map.line());
    }

    private NetworkSpec network(final YMap map) {
        s.b.onlyKeys(map, "network", "latency", "jitter", "drop", "duplicate", "delay", "ce", "drop_to_device",
            "switch");
        NetworkSpec.SwitchSpec port = null;
        final YMap sw = map.has("switch") ? s.b.map(map.get("switch"), "switch") : null;
        if (sw != null) {
            s.b.onlyKeys(sw, "switch", "rate_mbps", "kmin", "kmax", "pmax_pct", "buffer", "background");
            final List<NetworkSpec.Background> background = new ArrayList<>();
            for (final YNode item : s.b.list(sw.get("background"))) {
                final YMap load = s.b.map(item, "a background load");
                if (load != null) {
                    s.b.onlyKeys(load, "a background load", "mbps", "from", "to");
                    background.add(new NetworkSpec.Background(s.requiredExpr(load, "mbps", "background",
                        Domain.MBPS), s.optionalExpr(load, "from", Domain.TIME), s.optionalExpr(load, "to",
                        Domain.TIME)));
                }
            }
            port = new NetworkSpec.SwitchSpec(s.requiredExpr(sw, "rate_mbps", "switch", Domain.MBPS),
                s.requiredExpr(sw, "kmin", "switch", QUEUE_BYTES), s.requiredExpr(sw, "kmax", "switch", QUEUE_BYTES),
                s.requiredExpr(sw, "pmax_pct", "switch", Domain.PERCENT), s.optionalExpr(sw, "buffer", QUEUE_BYTES),
                background);
        }
        return new NetworkSpec(s.optionalExpr(map, "latency", Domain.DURATION),
            s.optionalExpr(map, "jitter", Domain.DURATION), networkRules(map, "drop"),
            networkRules(map, "duplicate"), networkRules(map, "delay"), networkRules(map, "ce"),
            networkRules(map, "drop_to_device"), port, map.line());
    }

    private List<NetworkSpec.Rule> networkRules(final YMap map, final String key) {
        final List<NetworkSpec.Rule> rules = new ArrayList<>();
        for (final YNode item : s.b.list(map.get(key))) {
            if (item instanceof YScalar) {
                // a bare PSN: its first transmission
                final Expr psn = s.expr(item, key, Domain.RELATIVE_PSN);
                if (psn != null) {
                    rules.add(new NetworkSpec.Rule(null, List.of(psn), 1, List.of(), null, null, null, null, null,
                        item.line()));
                }
                continue;
            }
            final YMap rule = s.b.map(item, "a " + key + " rule");
            if (rule != null) {
                rules.add(rule(rule, key));
            }
        }
        return rules;
    }

    private NetworkSpec.Rule rule(final YMap rule, final String key) {
        s.b.onlyKeys(rule, "a " + key + " rule", "qp", "psn", "copy", "opcode", "every", "first", "by", "from", "to",
            "all");
        final String connection = rule.has("qp") ? s.connectionRef(rule, "qp") : null;
        final List<Expr> psns = rule.has("psn") ? s.exprs(rule.get("psn"), "psn", Domain.RELATIVE_PSN) : List.of();
        int copy = psns.isEmpty() ? 0 : 1;
        if (rule.has("copy")) {
            final YNode node = rule.get("copy");
            if (node instanceof YScalar scalar && ("any".equals(scalar.value()) || "all".equals(scalar.value()))) {
                copy = 0;
            } else {
                final Integer n = s.b.parse(node, "copy", Integer::parseInt);
                if (n == null || n < 1) {
                    s.b.problem(node, "copy is 1 (the first transmission), 2, ... or any");
                } else {
                    copy = n;
                }
            }
        }
        final List<Opcode> opcodes = new ArrayList<>();
        for (final String name : rule.has("opcode") ? s.b.strings(rule.get("opcode"), "opcode") : List.<String>of()) {
            final Opcode opcode = Opcode.byName(name);
            if (opcode == null) {
                s.problemAt(rule, "opcode", "unknown opcode '" + name + "'");
            } else {
                opcodes.add(opcode);
            }
        }
        if (key.equals("delay") && !rule.has("by")) {
            s.b.problem(rule, "a delay rule needs by: the added delay");
        }
        if (psns.isEmpty() && opcodes.isEmpty() && !rule.has("every") && !rule.has("first") && !rule.has("from")
            && !rule.has("to") && !rule.has("all")) {
            s.b.problem(rule, "a " + key + " rule selects frames by psn, opcode, every, first, from/to, or all: "
                + "true for every frame");
        }
        return new NetworkSpec.Rule(connection, psns, copy, opcodes, s.optionalExpr(rule, "every",
            Domain.POSITIVE_COUNT), s.optionalExpr(rule, "first", Domain.COUNT), s.optionalExpr(rule, "by",
            Domain.DURATION), s.optionalExpr(rule, "from", Domain.TIME), s.optionalExpr(rule, "to", Domain.TIME),
            rule.line());
    }

    private TrafficExpectation traffic(final YMap map) {
        s.b.onlyKeys(map, "expect_traffic", "qp", "retransmitted", "retransmitted_at_least", "first_transmissions",
            "max_in_flight", "min_gap", "sports", "sports_balanced", "max_queue", "queue_after", "queue_below");
        final String connection = s.connectionRef(map, "qp");
        Map<Expr, Expr> retransmitted = null;
        boolean exactly = false;
        for (final String key : List.of("retransmitted", "retransmitted_at_least")) {
            if (!map.has(key)) {
                continue;
            }
            if (retransmitted != null) {
                s.b.problem(map, "give retransmitted or retransmitted_at_least, not both");
            }
            exactly = key.equals("retransmitted");
            retransmitted = new LinkedHashMap<>();
            final YNode node = map.get(key);
            if (node instanceof YScalar scalar && "none".equals(scalar.value())) {
                exactly = true;
                continue;
            }
            for (final YNode item : s.b.list(node)) {
                final YMap times = item instanceof YMap m ? m : null;
                if (times != null) {
                    s.b.onlyKeys(times, "a retransmitted PSN", "psn", "times");
                }
                final Expr psn = times != null ? s.requiredExpr(times, "psn", key, Domain.RELATIVE_PSN)
                    : s.expr(item, key, Domain.RELATIVE_PSN);
                final Expr count = times != null && times.has("times")
                    ? s.expr(times.get("times"), "times", Domain.COUNT) : Expr.of(1);
                if (psn != null && count != null) {
                    retransmitted.put(psn, count);
                }
            }
        }
        if (map.has("queue_below") != map.has("queue_after")) {
            s.b.problem(map, "queue_below and queue_after go together");
        }
        return new TrafficExpectation(connection, retransmitted, exactly, optionalMatcher(map, "first_transmissions"),
            optionalMatcher(map, "max_in_flight"), optionalMatcher(map, "min_gap"), optionalMatcher(map, "sports"),
            s.b.optionalBool(map, "sports_balanced", "expect_traffic"), optionalMatcher(map, "max_queue"),
            s.optionalExpr(map, "queue_after", Domain.TIME), s.optionalExpr(map, "queue_below", QUEUE_BYTES),
            map.line());
    }

    private Matcher optionalMatcher(final YMap map, final String key) {
        return map.has(key) ? templates.matcher(map.get(key), key) : null;
    }

    private Step rate(final YMap map) {
        s.b.onlyKeys(map, "expect_rate", "qp", "from", "to", "model", "mbps");
        final boolean model = s.flag(map, "model", "expect_rate", false);
        if (!model && !map.has("mbps")) {
            s.b.problem(map, "expect_rate needs model: true or an mbps matcher");
        }
        return new Step.ExpectRate(new RateExpectation(s.connectionRef(map, "qp"),
            s.optionalExpr(map, "from", Domain.TIME), s.optionalExpr(map, "to", Domain.TIME), model,
            optionalMatcher(map, "mbps"), map.line()));
    }
}

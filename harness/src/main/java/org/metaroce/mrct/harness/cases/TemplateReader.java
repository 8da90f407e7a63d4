package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.yaml.YList;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;
import org.metaroce.mrct.wire.FrameFields;
import org.metaroce.mrct.wire.Opcode;

/**
 * Reads what frames and memory are compared with: frame templates (with the acknowledgement shorthands expanded into
 * opcodes and field matchers), field matchers, and byte patterns and payload windows.
 */
final class TemplateReader {
    private static final List<String> TEMPLATE_KEYS = List.of("qp", "opcode", "fields", "icrc_valid", "payload",
        "payload_len", "ack", "nak", "rnr_nak", "cnp");
    private static final List<String> PATTERN_KINDS = List.of("seq", "constant", "random", "hex");
    private static final Domain RNR_TIMER = Domain.bits("an RNR timer code", 5);

    private final ReadScope s;

    TemplateReader(final ReadScope scope) {
        this.s = scope;
    }

    /** A 64-bit SACK bitmap expression with the bits of {@code psns} relative to {@code base}. */
    static Expr bits(final List<Expr> psns, final Expr base) {
        final StringBuilder bits = new StringBuilder("bits(");
        for (int i = 0; i < psns.size(); i++) {
            bits.append(i == 0 ? "" : ", ").append('(').append(psns.get(i)).append(") - (").append(base).append(')');
        }
        return Expr.parse(bits.append(')').toString());
    }

    /** A frame template; {@code extraKeys} are the keys of the step that holds it. */
    FrameTemplate template(final YMap map, final String what, final String... extraKeys) {
        final List<String> allowed = new ArrayList<>(TEMPLATE_KEYS);
        allowed.addAll(List.of(extraKeys));
        s.b.onlyKeys(map, what, allowed.toArray(new String[0]));
        final String connection = map.has("qp") || s.connections.size() == 1 ? s.connectionRef(map, "qp") : null;
        final List<Opcode> opcodes = new ArrayList<>();
        final Map<String, Matcher> fields = new LinkedHashMap<>();
        if (map.has("opcode")) {
            for (final String name : s.b.strings(map.get("opcode"), "opcode")) {
                final Opcode opcode = Opcode.byName(name);
                if (opcode == null) {
                    s.problemAt(map, "opcode", "unknown opcode '" + name + "'");
                } else {
                    opcodes.add(opcode);
                }
            }
        }
        int sugar = 0;
        if (map.has("ack")) {
            sugar++;
            ack(s.b.map(map.get("ack"), "ack"), opcodes, fields);
        }
        if (map.has("nak")) {
            sugar++;
            nak(s.b.map(map.get("nak"), "nak"), opcodes, fields);
        }
        if (map.has("rnr_nak")) {
            sugar++;
            rnrNak(s.b.map(map.get("rnr_nak"), "rnr_nak"), opcodes, fields);
        }
        if (map.has("cnp")) {
            sugar++;
            opcodes.add(Opcode.CNP);
            fields.put("bth.becn", Matcher.exact(Expr.of(1)));
            fields.put("bth.tver", Matcher.exact(Expr.of(0)));
        }
        if (sugar > 1) {
            s.b.problem(map, "use at most one of ack, nak, rnr_nak, cnp in one expectation");
        }
        final YMap fieldMap = map.has("fields") ? s.b.map(map.get("fields"), "fields") : null;
        if (fieldMap != null) {
            for (final Map.Entry<String, YNode> entry : fieldMap.entries().entrySet()) {
                if (!FrameFields.exists(entry.getKey())) {
                    s.problemAt(fieldMap, entry.getKey(), "unknown field '" + entry.getKey() + "'");
                    continue;
                }
                final Matcher matcher = matcher(entry.getValue(), entry.getKey());
                if (matcher != null) {
                    fields.put(entry.getKey(), matcher);
                }
            }
        }
        final Boolean icrcValid = map.has("icrc_valid") ? s.b.bool(map.get("icrc_valid"), "icrc_valid", true) : true;
        final PayloadSpec payload = map.has("payload") ? payload(map.get("payload"), "payload") : null;
        final Matcher payloadLength = map.has("payload_len") ? matcher(map.get("payload_len"), "payload_len") : null;
        fields.values().removeIf(java.util.Objects::isNull);
        return new FrameTemplate(connection, opcodes, fields, icrcValid, payload, payloadLength, map.line());
    }

    private void ack(final YMap map, final List<Opcode> opcodes, final Map<String, Matcher> fields) {
        if (map == null) {
            return;
        }
        s.b.onlyKeys(map, "ack", "psn", "msn", "sack", "bitmap");
        opcodes.add(Opcode.ACKNOWLEDGE);
        final Expr psn = s.requiredExpr(map, "psn", "ack", Domain.RELATIVE_PSN);
        if (psn == null) {
            return;
        }
        fields.put("bth.psn", Matcher.exact(Expr.parse("(" + psn + ") - 1")));
        fields.put("aeth.syndrome", Matcher.exact(Expr.of(0x1F)));
        fields.put("sacketh.base", Matcher.exact(psn));
        if (map.has("msn")) {
            fields.put("aeth.msn", matcher(map.get("msn"), "msn"));
        }
        if (map.has("bitmap")) {
            fields.put("sacketh.bitmap", matcher(map.get("bitmap"), "bitmap"));
        } else if (map.has("sack")) {
            final YNode sack = map.get("sack");
            if (sack instanceof YScalar scalar && "any".equals(scalar.value())) {
                fields.put("sacketh.bitmap", Matcher.any());
            } else {
                final List<Expr> psns = s.exprs(sack, "sack", Domain.RELATIVE_PSN);
                fields.put("sacketh.bitmap", Matcher.exact(psns.isEmpty() ? Expr.of(0) : bits(psns, psn)));
            }
        } else {
            fields.put("sacketh.bitmap", Matcher.exact(Expr.of(0)));
        }
    }

    private void nak(final YMap map, final List<Opcode> opcodes, final Map<String, Matcher> fields) {
        if (map == null) {
            return;
        }
        s.b.onlyKeys(map, "nak", "code", "psn", "epsn", "msn");
        opcodes.add(Opcode.ACKNOWLEDGE);
        fields.put("aeth.syndrome", matcher(s.b.required(map, "code", "nak"), "code"));
        if (map.has("psn")) {
            fields.put("bth.psn", matcher(map.get("psn"), "psn"));
        }
        if (map.has("epsn")) {
            fields.put("sacketh.base", matcher(map.get("epsn"), "epsn"));
        }
        if (map.has("msn")) {
            fields.put("aeth.msn", matcher(map.get("msn"), "msn"));
        }
    }

    private void rnrNak(final YMap map, final List<Opcode> opcodes, final Map<String, Matcher> fields) {
        if (map == null) {
            return;
        }
        s.b.onlyKeys(map, "rnr_nak", "psn", "timer", "epsn");
        opcodes.add(Opcode.ACKNOWLEDGE);
        if (map.has("timer")) {
            final Expr timer = s.expr(map.get("timer"), "timer", RNR_TIMER);
            fields.put("aeth.syndrome", timer == null ? null : Matcher.exact(Expr.parse("0x20 | (" + timer + ")")));
        } else {
            fields.put("aeth.syndrome", new Matcher(Matcher.Kind.MASKED, List.of(Expr.of(0xE0), Expr.of(0x20))));
        }
        if (map.has("psn")) {
            fields.put("bth.psn", matcher(map.get("psn"), "psn"));
        }
        if (map.has("epsn")) {
            fields.put("sacketh.base", matcher(map.get("epsn"), "epsn"));
        }
    }

    /**
     * A field matcher: a value, {@code *}, a list of alternatives, {@code {range: [lo, hi]}}, {@code {mask: m, value:
     * v}} or {@code {not: v}}. Null after a problem (or for a missing node).
     */
    Matcher matcher(final YNode node, final String what) {
        if (node == null) {
            return null;
        }
        if (node instanceof YScalar scalar) {
            if ("*".equals(scalar.value()) || "any".equals(scalar.value())) {
                return Matcher.any();
            }
            final Expr value = s.expr(node, what);
            return value == null ? null : Matcher.exact(value);
        }
        if (node instanceof YList) {
            return new Matcher(Matcher.Kind.ONE_OF, s.exprs(node, what, Domain.ANY));
        }
        final YMap map = s.b.map(node, what);
        if (map == null) {
            return null;
        }
        if (map.keys().equals(Set.of("any")) || map.keys().equals(Set.of("one_of"))) {
            return new Matcher(Matcher.Kind.ONE_OF, s.exprs(map.entries().values().iterator().next(), what,
                Domain.ANY));
        }
        if (map.keys().equals(Set.of("range"))) {
            final List<Expr> bounds = s.exprs(map.get("range"), what, Domain.ANY);
            if (bounds.size() != 2) {
                s.b.problem(map, what + ": range takes [low, high]");
                return null;
            }
            return new Matcher(Matcher.Kind.RANGE, bounds);
        }
        if (map.keys().equals(Set.of("mask", "value"))) {
            final Expr mask = s.expr(map.get("mask"), what);
            final Expr value = s.expr(map.get("value"), what);
            return mask == null || value == null ? null : new Matcher(Matcher.Kind.MASKED, List.of(mask, value));
        }
        if (map.keys().equals(Set.of("not"))) {
            final Expr value = s.expr(map.get("not"), what);
            return value == null ? null : new Matcher(Matcher.Kind.NOT, List.of(value));
        }
        s.b.problem(map, what + ": a matcher is a value, '*', a list of alternatives, {range: [lo, hi]}, "
            + "{mask: m, value: v} or {not: v}");
        return null;
    }

    /** A payload window: a pattern map, or a scalar (its length, for the context's default pattern). */
    PayloadSpec payload(final YNode node, final String what) {
        if (node == null) {
            return null;
        }
        if (node instanceof YScalar) {
            return new PayloadSpec(null, null, s.expr(node, what, Domain.BYTES));
        }
        final YMap map = s.b.map(node, what);
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, what, "seq", "constant", "random", "hex", "offset", "length");
        Pattern pattern = null;
        int kinds = 0;
        for (final String kind : PATTERN_KINDS) {
            if (map.has(kind)) {
                kinds++;
                pattern = patternOf(kind, map.get(kind), what);
            }
        }
        if (kinds > 1) {
            s.b.problem(map, what + " takes one of seq, constant, random, hex");
        }
        return new PayloadSpec(pattern, s.optionalExpr(map, "offset"), s.optionalExpr(map, "length", Domain.BYTES));
    }

    /** A byte pattern: a map with exactly one of seq, constant, random, hex. */
    Pattern pattern(final YNode node, final String what) {
        final YMap map = s.b.map(node, what);
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, what, PATTERN_KINDS.toArray(new String[0]));
        if (map.keys().size() != 1) {
            s.b.problem(map, what + " takes exactly one of seq, constant, random, hex");
            return null;
        }
        final String kind = map.keys().iterator().next();
        return PATTERN_KINDS.contains(kind) ? patternOf(kind, map.get(kind), what) : null;
    }

    private Pattern patternOf(final String kind, final YNode node, final String what) {
        switch (kind) {
            case "hex": {
                final byte[] bytes = s.b.parse(node, what + ".hex", Pattern::parseHex);
                return bytes == null ? null : new Pattern(Pattern.Kind.HEX, null, bytes);
            }
            case "seq":
                return withValue(Pattern.Kind.SEQ, s.expr(node, what + ".seq"));
            case "constant":
                return withValue(Pattern.Kind.CONSTANT, s.expr(node, what + ".constant"));
            default:
                return withValue(Pattern.Kind.RANDOM, s.expr(node, what + ".random"));
        }
    }

    private static Pattern withValue(final Pattern.Kind kind, final Expr value) {
        return value == null ? null : new Pattern(kind, value, null);
    }
}

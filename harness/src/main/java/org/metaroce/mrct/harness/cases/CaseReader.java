package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.yaml.Binder;
import org.metaroce.mrct.harness.yaml.YList;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.FrameFields;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * Binds one case file's YAML tree to a {@link CaseDef}, recording every problem with its line. The case format is
 * documented in {@code spec-cases/README.md}.
 */
final class CaseReader {
    static final Set<String> MESSAGE_OPS = Set.of("send", "send_imm", "send_inv", "write", "write_imm", "read",
        "cmp_swap", "fetch_add");

    private final Binder b;
    private final LoadContext context;
    private final String area;
    private final String file;
    private final Set<String> connections = new LinkedHashSet<>();
    private final Set<String> regions = new LinkedHashSet<>();
    private final Set<String> names = new LinkedHashSet<>();
    /** Every name an expression of the case uses, to find matrix variables nothing uses (misspelt parameters). */
    private final Set<String> used = new LinkedHashSet<>();
    /** Loop variables in scope while steps are read (for indexed connection names, {@code q[i]}). */
    private Set<String> loopScope = Set.of();

    CaseReader(final Binder binder, final LoadContext context, final String area, final String file) {
        this.b = binder;
        this.context = context;
        this.area = area;
        this.file = file;
    }

    CaseDef read(final YNode root) {
        final YMap map = b.map(root, "a case");
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, "a case", "id", "title", "description", "rules", "role", "pics", "capabilities", "params",
            "matrix", "setup", "steps", "ignore", "exhaustive");
        final String id = text(map, "id", true);
        final String title = text(map, "title", true);
        final String description = text(map, "description", false);
        final List<String> rules = b.strings(b.required(map, "rules", "a case"), "rules");
        checkRules(map, rules);
        String role = text(map, "role", false);
        if (role == null) {
            role = "responder";
        } else if (!role.equals("responder") && !role.equals("requester")) {
            b.problem(file, map.keyLine("role"), "role must be responder or requester, not '" + role + "'");
        }
        final List<String> pics = b.strings(map.get("pics"), "pics");
        for (final String item : pics) {
            if (!context.spec().picsNames().isEmpty() && !context.spec().picsNames().contains(item)) {
                b.problem(file, map.keyLine("pics"), "unknown PICS item '" + item + "'; Appendix A lists "
                    + context.spec().picsNames());
            }
        }
        final List<String> capabilities = b.strings(map.get("capabilities"), "capabilities");
        for (final String capability : capabilities) {
            if (Capability.byLabel(capability) == null) {
                b.problem(file, map.keyLine("capabilities"), "unknown capability '" + capability + "'; known: "
                    + java.util.Arrays.stream(Capability.values()).map(Capability::label).toList());
            }
        }
        names.addAll(context.parameterNames());
        names.add("seed");
        final Map<String, Expr> params = params(map.get("params"), "params", false);
        final List<Map<String, Expr>> matrix = new ArrayList<>();
        final Map<String, Integer> variables = new LinkedHashMap<>();
        if (map.has("matrix")) {
            for (final YNode row : b.list(map.get("matrix"))) {
                matrix.add(params(row, "a matrix row", true));
                if (row instanceof YMap rowMap) {
                    for (final String key : rowMap.keys()) {
                        if (!context.parameterNames().contains(key)) {
                            variables.putIfAbsent(key, rowMap.keyLine(key));
                        }
                    }
                }
            }
        }
        names.addAll(params.keySet());
        for (final Map<String, Expr> row : matrix) {
            names.addAll(row.keySet());
        }
        final List<ConnectionDef> connectionDefs = new ArrayList<>();
        final List<RegionDef> regionDefs = new ArrayList<>();
        final List<Step> setupSteps = new ArrayList<>();
        if (map.has("setup")) {
            setup(map.get("setup"), connectionDefs, regionDefs, setupSteps);
        }
        if (connectionDefs.isEmpty()) {
            b.problem(file, map.line(), "a case needs at least one connection in setup.connections");
        }
        final List<Step> steps = steps(b.required(map, "steps", "a case"), Set.of());
        final List<FrameTemplate> ignore = new ArrayList<>();
        if (map.has("ignore")) {
            for (final YNode node : b.list(map.get("ignore"))) {
                final YMap template = b.map(node, "an ignore entry");
                if (template != null) {
                    ignore.add(template(template, "an ignore entry", Set.of()));
                }
            }
        }
        final Boolean exhaustive = b.optionalBool(map, "exhaustive", "case");
        for (final Map.Entry<String, Integer> variable : variables.entrySet()) {
            if (!used.contains(variable.getKey())) {
                b.problem(file, variable.getValue(), "matrix variable '" + variable.getKey() + "' is neither a "
                    + "parameter (Appendix B or a QP attribute) nor used by any expression of the case");
            }
        }
        if (id == null || title == null) {
            return null;
        }
        return new CaseDef(id, title, description == null ? "" : description, area, file, rules, role, pics,
            capabilities, params, matrix, connectionDefs, regionDefs, setupSteps, steps, ignore,
            exhaustive == null || exhaustive);
    }

    private String text(final YMap map, final String key, final boolean required) {
        final YNode node = required ? b.required(map, key, "a case") : map.get(key);
        return node == null ? null : b.string(node, key);
    }

    private void checkRules(final YMap map, final List<String> rules) {
        if (rules.isEmpty()) {
            b.problem(file, map.keyLine("rules"), "a case must cite at least one rule");
        }
        for (final String ruleId : rules) {
            final Rule rule = context.spec().rule(ruleId);
            if (rule == null) {
                b.problem(file, map.keyLine("rules"), "cites unknown rule " + ruleId);
            }
        }
    }

    /**
     * Parameter values by name. With {@code variables}, names that are not parameters are accepted too: they are
     * case variables of a matrix row, which expressions use (checked once the whole case is read).
     */
    private Map<String, Expr> params(final YNode node, final String what, final boolean variables) {
        final Map<String, Expr> out = new LinkedHashMap<>();
        if (node == null) {
            return out;
        }
        final YMap map = b.map(node, what);
        if (map == null) {
            return out;
        }
        for (final Map.Entry<String, YNode> entry : map.entries().entrySet()) {
            if (!context.parameterNames().contains(entry.getKey())
                && !(variables && entry.getKey().matches("[a-z][a-z0-9_]*"))) {
                b.problem(file, map.keyLine(entry.getKey()), "unknown parameter '" + entry.getKey()
                    + "' (parameters are those of Appendix B and the QP attributes"
                    + (variables ? "; a matrix variable is a lower-case name of letters, digits and _" : "") + ")");
            }
            final Expr expr = expr(entry.getValue(), what + "." + entry.getKey(), Set.of());
            if (expr != null) {
                out.put(entry.getKey(), expr);
            }
        }
        return out;
    }

    private void setup(final YNode node, final List<ConnectionDef> connectionDefs, final List<RegionDef> regionDefs,
                       final List<Step> setupSteps) {
        final YMap setup = b.map(node, "setup");
        if (setup == null) {
            return;
        }
        b.onlyKeys(setup, "setup", "connections", "regions", "receives");
        if (setup.has("connections")) {
            for (final YNode item : b.list(setup.get("connections"))) {
                final ConnectionDef connection = connection(item);
                if (connection != null) {
                    connectionDefs.add(connection);
                }
            }
        }
        if (setup.has("regions")) {
            for (final YNode item : b.list(setup.get("regions"))) {
                final RegionDef region = region(item);
                if (region != null) {
                    regionDefs.add(region);
                }
            }
        }
        if (setup.has("receives")) {
            for (final YNode item : b.list(setup.get("receives"))) {
                final YMap map = b.map(item, "a receive");
                if (map != null) {
                    setupSteps.add(postReceive(map, Set.of()));
                }
            }
        }
    }

    private ConnectionDef connection(final YNode node) {
        final YMap map = b.map(node, "a connection");
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, "a connection", "name", "network", "vlan", "attrs", "psn", "device_psn", "count", "pd", "peer",
            "peer_attrs");
        final String name = b.string(b.required(map, "name", "a connection"), "name");
        if (name == null) {
            return null;
        }
        final String pd = b.optionalString(map, "pd", "connection");
        if (pd != null && !connections.contains(pd)) {
            b.problem(file, map.keyLine("pd"), "pd names the connection whose protection domain this one shares, "
                + "which must be declared before it; the case has " + connections);
        }
        if (!connections.add(name)) {
            b.problem(map, "duplicate connection name '" + name + "'");
        }
        for (final String suffix : List.of("qpn", "peer_qpn", "psn", "device_psn", "pmtu")) {
            names.add(name + "." + suffix);
        }
        String network = b.optionalString(map, "network", "connection");
        if (network == null) {
            network = "ipv4";
        } else if (!network.equals("ipv4") && !network.equals("ipv6")) {
            b.problem(file, map.keyLine("network"), "network must be ipv4 or ipv6, not '" + network + "'");
        }
        final Boolean peer = b.optionalBool(map, "peer", "connection");
        if (map.has("peer_attrs") && (peer == null || !peer)) {
            b.problem(file, map.keyLine("peer_attrs"), "peer_attrs needs peer: true");
        }
        return new ConnectionDef(name, network, optionalExpr(map, "vlan"), qpAttributes(map, "attrs"),
            optionalExpr(map, "psn"), optionalExpr(map, "device_psn"), optionalExpr(map, "count"), pd,
            peer != null && peer, qpAttributes(map, "peer_attrs"), map.line());
    }

    private Map<String, Object> qpAttributes(final YMap map, final String key) {
        final Map<String, Object> attributes = new LinkedHashMap<>();
        if (map.has(key)) {
            final YMap attrs = b.map(map.get(key), key);
            if (attrs != null) {
                for (final Map.Entry<String, YNode> entry : attrs.entries().entrySet()) {
                    final QpAttribute attribute = QpAttribute.byLabel(entry.getKey());
                    if (attribute == null) {
                        b.problem(file, attrs.keyLine(entry.getKey()), "unknown QP attribute '" + entry.getKey()
                            + "'");
                        continue;
                    }
                    final Object value = attributeValue(attribute, entry.getValue());
                    if (value != null) {
                        attributes.put(entry.getKey(), value);
                    }
                }
            }
        }
        return attributes;
    }

    private Object attributeValue(final QpAttribute attribute, final YNode node) {
        switch (attribute.type()) {
            case ACCESS_SET: {
                final List<String> access = b.strings(node, attribute.label());
                for (final String right : access) {
                    if (Access.byLabel(right) == null) {
                        b.problem(node, "unknown access right '" + right + "'");
                    }
                }
                return access;
            }
            case BOOL:
                return b.bool(node, attribute.label(), false);
            case STRING:
                return b.string(node, attribute.label());
            default:
                return expr(node, attribute.label(), Set.of());
        }
    }

    private RegionDef region(final YNode node) {
        final YMap map = b.map(node, "a region");
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, "a region", "name", "connection", "pd", "length", "access", "fill", "on");
        final String name = b.string(b.required(map, "name", "a region"), "name");
        if (name == null) {
            return null;
        }
        if (!regions.add(name)) {
            b.problem(map, "duplicate region name '" + name + "'");
        }
        for (final String suffix : List.of("va", "rkey", "lkey", "length")) {
            names.add(name + "." + suffix);
        }
        final String connection = b.optionalString(map, "connection", "region");
        // one QP of a connection with a count: q[2] (a literal index)
        final java.util.regex.Matcher indexed = connection == null ? null
            : java.util.regex.Pattern.compile("(.+)\\[(\\d+)]").matcher(connection);
        if (connection != null && !connections.contains(connection)
            && !(indexed.matches() && connections.contains(indexed.group(1)))) {
            b.problem(file, map.keyLine("connection"), "unknown connection '" + connection + "'");
        }
        final String pd = b.optionalString(map, "pd", "region");
        if (pd != null && !pd.equals("own")) {
            b.problem(file, map.keyLine("pd"), "pd must be 'own' (a protection domain of the region's own)");
        }
        final List<String> access = b.strings(map.get("access"), "access");
        for (final String right : access) {
            if (Access.byLabel(right) == null) {
                b.problem(file, map.keyLine("access"), "unknown access right '" + right + "'; known: "
                    + java.util.Arrays.stream(Access.values()).map(Access::label).toList());
            }
        }
        final Pattern fill = map.has("fill") ? pattern(map.get("fill"), "fill") : null;
        final Expr length = expr(b.required(map, "length", "a region"), "length", Set.of());
        final String on = b.optionalString(map, "on", "region");
        if (on != null && !on.equals("peer") && !on.equals("device")) {
            b.problem(file, map.keyLine("on"), "on must be device or peer, not '" + on + "'");
        }
        return new RegionDef(name, connection, pd, length, access, fill, "peer".equals(on), map.line());
    }

    private List<Step> steps(final YNode node, final Set<String> loopVars) {
        final List<Step> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        final Set<String> outer = loopScope;
        loopScope = loopVars;
        try {
            readSteps(node, loopVars, out);
        } finally {
            loopScope = outer;
        }
        return out;
    }

    private void readSteps(final YNode node, final Set<String> loopVars, final List<Step> out) {
        for (final YNode item : b.list(node)) {
            final YMap map = b.map(item, "a step");
            if (map == null) {
                continue;
            }
            if (map.keys().size() != 1) {
                b.problem(map, "a step is a map with exactly one key (the step's kind), not " + map.keys());
                continue;
            }
            final String kind = map.keys().iterator().next();
            final Step step = step(kind, map.get(kind), map, loopVars);
            if (step != null) {
                out.add(step);
            }
        }
    }

    private Step step(final String kind, final YNode body, final YMap holder, final Set<String> loopVars) {
        switch (kind) {
            case "send": {
                final YMap map = b.map(body, "send");
                return map == null ? null : new Step.Send(packet(map, loopVars));
            }
            case "message": {
                final YMap map = b.map(body, "message");
                return map == null ? null : new Step.Message(message(map, loopVars));
            }
            case "flow": {
                final YMap map = b.map(body, "flow");
                return map == null ? null : flow(map, loopVars);
            }
            case "expect": {
                final YMap map = b.map(body, "expect");
                return map == null ? null : expect(map, loopVars);
            }
            case "expect_unordered": {
                final YMap map = b.map(body, "expect_unordered");
                if (map == null) {
                    return null;
                }
                b.onlyKeys(map, "expect_unordered", "frames", "within");
                final List<FrameTemplate> templates = new ArrayList<>();
                for (final YNode frame : b.list(b.required(map, "frames", "expect_unordered"))) {
                    final YMap frameMap = b.map(frame, "a frame");
                    if (frameMap != null) {
                        templates.add(template(frameMap, "a frame", loopVars));
                    }
                }
                return new Step.ExpectUnordered(templates, optionalExpr(map, "within", loopVars), map.line());
            }
            case "expect_none": {
                if (body instanceof YScalar) {
                    return new Step.ExpectNone(expr(body, "expect_none", loopVars), null, body.line());
                }
                final YMap map = b.map(body, "expect_none");
                if (map == null) {
                    return null;
                }
                final Expr duration = expr(b.required(map, "for", "expect_none"), "for", loopVars);
                final FrameTemplate filter = map.keys().size() > 1 ? template(map, "expect_none", loopVars, "for")
                    : null;
                return new Step.ExpectNone(duration, filter, map.line());
            }
            case "advance":
                return new Step.Advance(expr(body, "advance", loopVars), body.line());
            case "expect_memory":
                return expectMemory(b.map(body, "expect_memory"), loopVars);
            case "expect_completions":
                return expectCompletions(b.map(body, "expect_completions"), loopVars);
            case "expect_counters":
                return expectCounters(b.map(body, "expect_counters"), loopVars);
            case "expect_qp": {
                final YMap map = b.map(body, "expect_qp");
                if (map == null) {
                    return null;
                }
                b.onlyKeys(map, "expect_qp", "qp", "state");
                final String connection = connectionRef(map, "qp");
                final String state = b.string(b.required(map, "state", "expect_qp"), "state");
                checkEnum(map, "state", state, QpState.class);
                return new Step.ExpectQp(connection, state, map.line());
            }
            case "post_recv": {
                final YMap map = b.map(body, "post_recv");
                return map == null ? null : postReceive(map, loopVars);
            }
            case "invalidate": {
                final String region = body instanceof YMap map ? b.string(b.required(map, "mr", "invalidate"), "mr")
                    : b.string(body, "invalidate");
                checkRegion(body, region);
                return new Step.Invalidate(region, body.line());
            }
            case "modify_qp": {
                final YMap map = b.map(body, "modify_qp");
                if (map == null) {
                    return null;
                }
                b.onlyKeys(map, "modify_qp", "qp", "state", "attrs", "rejected");
                final String connection = connectionRef(map, "qp");
                final String state = b.string(b.required(map, "state", "modify_qp"), "state");
                checkEnum(map, "state", state, QpState.class);
                final Map<String, Object> attributes = new LinkedHashMap<>();
                if (map.has("attrs")) {
                    final YMap attrs = b.map(map.get("attrs"), "attrs");
                    if (attrs != null) {
                        for (final Map.Entry<String, YNode> entry : attrs.entries().entrySet()) {
                            final QpAttribute attribute = QpAttribute.byLabel(entry.getKey());
                            if (attribute == null) {
                                b.problem(file, attrs.keyLine(entry.getKey()), "unknown QP attribute '"
                                    + entry.getKey() + "'");
                            } else {
                                attributes.put(entry.getKey(), attributeValue(attribute, entry.getValue()));
                            }
                        }
                    }
                }
                final Boolean rejected = b.optionalBool(map, "rejected", "modify_qp");
                return new Step.ModifyQp(connection, state, attributes, rejected != null && rejected, map.line());
            }
            case "write_memory": {
                final YMap map = b.map(body, "write_memory");
                if (map == null) {
                    return null;
                }
                b.onlyKeys(map, "write_memory", "mr", "offset", "data");
                final String region = b.string(b.required(map, "mr", "write_memory"), "mr");
                checkRegion(map, region);
                return new Step.WriteMemory(region, optionalExpr(map, "offset", loopVars),
                    payload(b.required(map, "data", "write_memory"), "data", loopVars), map.line());
            }
            case "repeat": {
                final YMap map = b.map(body, "repeat");
                if (map == null) {
                    return null;
                }
                b.onlyKeys(map, "repeat", "var", "from", "to", "by", "steps");
                final String variable = b.string(b.required(map, "var", "repeat"), "var");
                final Set<String> inner = new LinkedHashSet<>(loopVars);
                if (variable != null) {
                    inner.add(variable);
                }
                return new Step.Repeat(variable, expr(b.required(map, "from", "repeat"), "from", loopVars),
                    expr(b.required(map, "to", "repeat"), "to", loopVars), optionalExpr(map, "by", loopVars),
                    steps(b.required(map, "steps", "repeat"), inner), map.line());
            }
            case "post_send": {
                final YMap map = b.map(body, "post_send");
                return map == null ? null : postSend(map, loopVars);
            }
            case "network": {
                final YMap map = b.map(body, "network");
                return map == null ? null : new Step.Network(network(map, loopVars));
            }
            case "expect_traffic": {
                final YMap map = b.map(body, "expect_traffic");
                return map == null ? null : new Step.ExpectTraffic(traffic(map, loopVars));
            }
            case "expect_rate": {
                final YMap map = b.map(body, "expect_rate");
                if (map == null) {
                    return null;
                }
                b.onlyKeys(map, "expect_rate", "qp", "from", "to", "model", "mbps");
                final Boolean model = b.optionalBool(map, "model", "expect_rate");
                if ((model == null || !model) && !map.has("mbps")) {
                    b.problem(map, "expect_rate needs model: true or an mbps matcher");
                }
                return new Step.ExpectRate(new RateExpectation(connectionRef(map, "qp"),
                    optionalExpr(map, "from", loopVars), optionalExpr(map, "to", loopVars), model != null && model,
                    map.has("mbps") ? matcher(map.get("mbps"), "mbps", loopVars) : null, map.line()));
            }
            default:
                b.problem(file, holder.keyLine(kind), "unknown step '" + kind + "'; steps are send, message, flow, expect, "
                    + "expect_unordered, expect_none, advance, expect_memory, expect_completions, expect_counters, "
                    + "expect_qp, post_recv, post_send, invalidate, modify_qp, write_memory, repeat, network, expect_traffic, "
                    + "expect_rate");
                return null;
        }
    }

    private <E extends Enum<E>> void checkEnum(final YMap map, final String key, final String value,
                                               final Class<E> type) {
        if (value == null) {
            return;
        }
        try {
            Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            b.problem(file, map.keyLine(key), "unknown " + key + " '" + value + "'; known: "
                + java.util.Arrays.toString(type.getEnumConstants()));
        }
    }

    private String connectionRef(final YMap map, final String key) {
        final String name = map.has(key) ? b.string(map.get(key), key) : null;
        final int open = name == null ? -1 : name.indexOf('[');
        if (open > 0 && name.endsWith("]") && connections.contains(name.substring(0, open))) {
            // name[i]: one of the QPs of a connection with a count; i is an expression
            final String index = name.substring(open + 1, name.length() - 1);
            try {
                for (final String used : Expr.parse(index).names()) {
                    if (!names.contains(used) && !loopScope.contains(used) && !isLateName(used)) {
                        b.problem(file, map.keyLine(key), key + ": unknown name '" + used + "' in '" + name + "'");
                    }
                }
            } catch (IllegalArgumentException e) {
                b.problem(file, map.keyLine(key), key + ": " + e.getMessage());
            }
            return name;
        }
        if (name == null) {
            if (connections.size() == 1) {
                return connections.iterator().next();
            }
            if (!connections.isEmpty()) {
                b.problem(map, "name the connection with '" + key + "': the case has " + connections);
            }
            return null;
        }
        if (!connections.contains(name)) {
            b.problem(file, map.keyLine(key), "unknown connection '" + name + "'; the case has " + connections);
        }
        return name;
    }

    private void checkRegion(final YNode at, final String region) {
        if (region != null && !regions.contains(region)) {
            b.problem(at, "unknown region '" + region + "'; the case has " + regions);
        }
    }

    private Step.PostReceive postReceive(final YMap map, final Set<String> loopVars) {
        b.onlyKeys(map, "post_recv", "qp", "mr", "offset", "length", "count");
        final String connection = connectionRef(map, "qp");
        final String region = b.string(b.required(map, "mr", "post_recv"), "mr");
        checkRegion(map, region);
        return new Step.PostReceive(connection, region, optionalExpr(map, "offset", loopVars),
            expr(b.required(map, "length", "post_recv"), "length", loopVars),
            map.has("count") ? expr(map.get("count"), "count", loopVars) : Expr.of(1), map.line());
    }

    private Step postSend(final YMap map, final Set<String> loopVars) {
        b.onlyKeys(map, "post_send", "qp", "op", "mr", "offset", "length", "remote_mr", "remote_offset", "remote_va",
            "rkey", "imm", "invalidate", "swap", "add", "compare", "wr_id", "signaled", "fence", "solicited", "count",
            "stride");
        final String connection = connectionRef(map, "qp");
        final String op = b.string(b.required(map, "op", "post_send"), "op");
        if (op != null && !MESSAGE_OPS.contains(op)) {
            b.problem(file, map.keyLine("op"), "unknown op '" + op + "'; known: " + MESSAGE_OPS);
        }
        final String local = b.optionalString(map, "mr", "post_send");
        checkRegion(map, local);
        final String remote = b.optionalString(map, "remote_mr", "post_send");
        checkRegion(map, remote);
        final String invalidate = b.optionalString(map, "invalidate", "post_send");
        checkRegion(map, invalidate);
        if (op != null && (op.equals("write") || op.equals("write_imm") || op.equals("read") || op.equals("cmp_swap")
            || op.equals("fetch_add")) && remote == null && !(map.has("remote_va") && map.has("rkey"))) {
            b.problem(map, op + " needs a remote buffer: remote_mr, or remote_va and rkey");
        }
        if ("send_inv".equals(op) && invalidate == null) {
            b.problem(map, "send_inv needs invalidate: the region whose R_Key it invalidates");
        }
        if (!map.has("length") && !(op != null && (op.equals("cmp_swap") || op.equals("fetch_add")))) {
            b.problem(map, "post_send needs a length");
        }
        final Boolean signaled = b.optionalBool(map, "signaled", "post_send");
        final Boolean fence = b.optionalBool(map, "fence", "post_send");
        final Boolean solicited = b.optionalBool(map, "solicited", "post_send");
        return new Step.PostSend(connection, op, local, optionalExpr(map, "offset", loopVars),
            map.has("length") ? expr(map.get("length"), "length", loopVars) : Expr.of(8), remote,
            optionalExpr(map, "remote_offset", loopVars), optionalExpr(map, "remote_va", loopVars),
            optionalExpr(map, "rkey", loopVars), optionalExpr(map, "imm", loopVars), invalidate,
            map.has("swap") ? optionalExpr(map, "swap", loopVars) : optionalExpr(map, "add", loopVars),
            optionalExpr(map, "compare", loopVars), optionalExpr(map, "wr_id", loopVars),
            signaled == null || signaled, fence != null && fence, solicited != null && solicited,
            optionalExpr(map, "count", loopVars), optionalExpr(map, "stride", loopVars), map.line());
    }

    private NetworkSpec network(final YMap map, final Set<String> loopVars) {
        b.onlyKeys(map, "network", "latency", "jitter", "drop", "duplicate", "delay", "ce", "drop_to_device",
            "switch");
        NetworkSpec.SwitchSpec port = null;
        if (map.has("switch")) {
            final YMap sw = b.map(map.get("switch"), "switch");
            if (sw != null) {
                b.onlyKeys(sw, "switch", "rate_mbps", "kmin", "kmax", "pmax_pct", "buffer", "background");
                final List<NetworkSpec.Background> background = new ArrayList<>();
                if (sw.has("background")) {
                    for (final YNode item : b.list(sw.get("background"))) {
                        final YMap load = b.map(item, "a background load");
                        if (load != null) {
                            b.onlyKeys(load, "a background load", "mbps", "from", "to");
                            background.add(new NetworkSpec.Background(expr(b.required(load, "mbps", "background"),
                                "mbps", loopVars), optionalExpr(load, "from", loopVars),
                                optionalExpr(load, "to", loopVars)));
                        }
                    }
                }
                port = new NetworkSpec.SwitchSpec(expr(b.required(sw, "rate_mbps", "switch"), "rate_mbps", loopVars),
                    expr(b.required(sw, "kmin", "switch"), "kmin", loopVars),
                    expr(b.required(sw, "kmax", "switch"), "kmax", loopVars),
                    expr(b.required(sw, "pmax_pct", "switch"), "pmax_pct", loopVars),
                    optionalExpr(sw, "buffer", loopVars), background);
            }
        }
        return new NetworkSpec(optionalExpr(map, "latency", loopVars), optionalExpr(map, "jitter", loopVars),
            networkRules(map, "drop", loopVars), networkRules(map, "duplicate", loopVars),
            networkRules(map, "delay", loopVars), networkRules(map, "ce", loopVars),
            networkRules(map, "drop_to_device", loopVars), port, map.line());
    }

    private List<NetworkSpec.Rule> networkRules(final YMap map, final String key, final Set<String> loopVars) {
        final List<NetworkSpec.Rule> rules = new ArrayList<>();
        if (!map.has(key)) {
            return rules;
        }
        for (final YNode item : b.list(map.get(key))) {
            if (item instanceof YScalar) {
                // a bare PSN: its first transmission
                final Expr psn = expr(item, key, loopVars);
                if (psn != null) {
                    rules.add(new NetworkSpec.Rule(null, List.of(psn), 1, List.of(), null, null, null, null, null,
                        item.line()));
                }
                continue;
            }
            final YMap rule = b.map(item, "a " + key + " rule");
            if (rule == null) {
                continue;
            }
            b.onlyKeys(rule, "a " + key + " rule", "qp", "psn", "copy", "opcode", "every", "first", "by", "from",
                "to", "all");
            final String connection = rule.has("qp") ? connectionRef(rule, "qp") : null;
            final List<Expr> psns = rule.has("psn") ? exprs(rule.get("psn"), "psn", loopVars) : List.of();
            int copy = psns.isEmpty() ? 0 : 1;
            if (rule.has("copy")) {
                final YNode node = rule.get("copy");
                if (node instanceof YScalar scalar && ("any".equals(scalar.value()) || "all".equals(scalar.value()))) {
                    copy = 0;
                } else {
                    final Integer n = b.parse(node, "copy", Integer::parseInt);
                    if (n == null || n < 1) {
                        b.problem(node, "copy is 1 (the first transmission), 2, ... or any");
                    } else {
                        copy = n;
                    }
                }
            }
            final List<String> opcodes = rule.has("opcode") ? b.strings(rule.get("opcode"), "opcode") : List.of();
            for (final String opcode : opcodes) {
                if (Opcode.byName(opcode) == null) {
                    b.problem(file, rule.keyLine("opcode"), "unknown opcode '" + opcode + "'");
                }
            }
            if (key.equals("delay") && !rule.has("by")) {
                b.problem(rule, "a delay rule needs by: the added delay");
            }
            if (psns.isEmpty() && opcodes.isEmpty() && !rule.has("every") && !rule.has("first")
                && !rule.has("from") && !rule.has("to") && !rule.has("all")) {
                b.problem(rule, "a " + key + " rule selects frames by psn, opcode, every, first, from/to, or all: "
                    + "true for every frame");
            }
            rules.add(new NetworkSpec.Rule(connection, psns, copy, opcodes, optionalExpr(rule, "every", loopVars),
                optionalExpr(rule, "first", loopVars), optionalExpr(rule, "by", loopVars),
                optionalExpr(rule, "from", loopVars), optionalExpr(rule, "to", loopVars), rule.line()));
        }
        return rules;
    }

    private TrafficExpectation traffic(final YMap map, final Set<String> loopVars) {
        b.onlyKeys(map, "expect_traffic", "qp", "retransmitted", "retransmitted_at_least", "first_transmissions",
            "max_in_flight", "min_gap", "sports", "sports_balanced", "max_queue", "queue_after", "queue_below");
        final String connection = connectionRef(map, "qp");
        Map<Expr, Expr> retransmitted = null;
        boolean exactly = false;
        for (final String key : List.of("retransmitted", "retransmitted_at_least")) {
            if (!map.has(key)) {
                continue;
            }
            if (retransmitted != null) {
                b.problem(map, "give retransmitted or retransmitted_at_least, not both");
            }
            exactly = key.equals("retransmitted");
            retransmitted = new LinkedHashMap<>();
            final YNode node = map.get(key);
            if (node instanceof YScalar scalar && "none".equals(scalar.value())) {
                exactly = true;
                continue;
            }
            for (final YNode item : b.list(node)) {
                if (item instanceof YMap times) {
                    b.onlyKeys(times, "a retransmitted PSN", "psn", "times");
                    retransmitted.put(expr(b.required(times, "psn", key), "psn", loopVars),
                        times.has("times") ? expr(times.get("times"), "times", loopVars) : Expr.of(1));
                } else {
                    final Expr psn = expr(item, key, loopVars);
                    if (psn != null) {
                        retransmitted.put(psn, Expr.of(1));
                    }
                }
            }
        }
        if (map.has("queue_below") != map.has("queue_after")) {
            b.problem(map, "queue_below and queue_after go together");
        }
        return new TrafficExpectation(connection, retransmitted, exactly,
            map.has("first_transmissions") ? matcher(map.get("first_transmissions"), "first_transmissions", loopVars)
                : null,
            map.has("max_in_flight") ? matcher(map.get("max_in_flight"), "max_in_flight", loopVars) : null,
            map.has("min_gap") ? matcher(map.get("min_gap"), "min_gap", loopVars) : null,
            map.has("sports") ? matcher(map.get("sports"), "sports", loopVars) : null,
            b.optionalBool(map, "sports_balanced", "expect_traffic"),
            map.has("max_queue") ? matcher(map.get("max_queue"), "max_queue", loopVars) : null,
            optionalExpr(map, "queue_after", loopVars), optionalExpr(map, "queue_below", loopVars), map.line());
    }

    private PacketSpec packet(final YMap map, final Set<String> loopVars) {
        b.onlyKeys(map, "send", "qp", "opcode", "psn", "ackreq", "msn", "first", "last", "offset", "rsn", "mr",
            "mr_offset", "dmalen", "imm", "invalidate", "swap", "add", "compare", "payload", "ecn", "network", "vlan",
            "fields", "headers", "pad", "truncate", "trailer", "bad_icrc", "udp_checksum", "tver", "ip_options", "ack",
            "nak", "rnr_nak", "cnp");
        final String connection = connectionRef(map, "qp");
        final Map<String, Expr> sugarFields = new LinkedHashMap<>();
        final String sugarOpcode = responseSugar(map, sugarFields, loopVars);
        final String opcode = sugarOpcode != null ? sugarOpcode
            : b.string(b.required(map, "opcode", "send"), "opcode");
        if (sugarOpcode != null && map.has("opcode")) {
            b.problem(file, map.keyLine("opcode"), "give either opcode or one of ack, nak, rnr_nak, cnp");
        }
        if (opcode != null && Opcode.byName(opcode) == null) {
            b.problem(file, map.keyLine("opcode"), "unknown opcode '" + opcode + "'");
        }
        final String region = b.optionalString(map, "mr", "send");
        checkRegion(map, region);
        final String invalidate = b.optionalString(map, "invalidate", "send");
        checkRegion(map, invalidate);
        final String network = b.optionalString(map, "network", "send");
        if (network != null && !network.equals("ipv4") && !network.equals("ipv6")) {
            b.problem(file, map.keyLine("network"), "network must be ipv4 or ipv6");
        }
        final List<String> headers = map.has("headers") ? b.strings(map.get("headers"), "headers") : null;
        if (headers != null) {
            for (final String header : headers) {
                try {
                    HeaderKind.valueOf(header.toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    b.problem(file, map.keyLine("headers"), "unknown header '" + header + "'");
                }
            }
        }
        Expr padLength = null;
        Expr padFill = null;
        if (map.has("pad")) {
            final YMap pad = b.map(map.get("pad"), "pad");
            if (pad != null) {
                b.onlyKeys(pad, "pad", "length", "fill");
                padLength = optionalExpr(pad, "length", loopVars);
                padFill = optionalExpr(pad, "fill", loopVars);
            }
        }
        final String udpChecksum = b.optionalString(map, "udp_checksum", "send");
        if (udpChecksum != null && !udpChecksum.equals("valid") && !udpChecksum.equals("zero")
            && !udpChecksum.equals("bad")) {
            b.problem(file, map.keyLine("udp_checksum"), "udp_checksum must be valid, zero or bad");
        }
        final byte[] ipOptions = map.has("ip_options") ? b.parse(map.get("ip_options"), "ip_options",
            Pattern::parseHex) : null;
        if (ipOptions != null && (ipOptions.length % 4 != 0 || ipOptions.length > 40)) {
            b.problem(file, map.keyLine("ip_options"), "ip_options must be a multiple of 4 bytes, at most 40, not "
                + ipOptions.length);
        }
        final Boolean badIcrc = b.optionalBool(map, "bad_icrc", "send");
        return new PacketSpec(connection, opcode, optionalExpr(map, "psn", loopVars),
            b.optionalBool(map, "ackreq", "send"), optionalExpr(map, "msn", loopVars),
            b.optionalBool(map, "first", "send"), b.optionalBool(map, "last", "send"),
            optionalExpr(map, "offset", loopVars), optionalExpr(map, "rsn", loopVars), region,
            optionalExpr(map, "mr_offset", loopVars), optionalExpr(map, "dmalen", loopVars),
            optionalExpr(map, "imm", loopVars), invalidate,
            map.has("swap") ? optionalExpr(map, "swap", loopVars) : optionalExpr(map, "add", loopVars),
            optionalExpr(map, "compare", loopVars),
            map.has("payload") ? payload(map.get("payload"), "payload", loopVars) : null, ecn(map, loopVars),
            network, optionalExpr(map, "vlan", loopVars), merged(sugarFields, fieldValues(map.get("fields"), loopVars)),
            headers,
            padLength, padFill, optionalExpr(map, "truncate", loopVars), optionalExpr(map, "trailer", loopVars),
            badIcrc != null && badIcrc, "valid".equals(udpChecksum), optionalExpr(map, "tver", loopVars),
            "bad".equals(udpChecksum), ipOptions, map.line());
    }

    private static Map<String, Expr> merged(final Map<String, Expr> first, final Map<String, Expr> second) {
        final Map<String, Expr> out = new LinkedHashMap<>(first);
        out.putAll(second);
        return out;
    }

    /**
     * The acknowledgement shorthands of a {@code send} step (the harness as responder of a requester case): {@code ack:
     * {psn, msn, sack}} is an ACK whose cumulative point is psn (bth.psn psn - 1, sacketh.base psn), {@code nak: {code,
     * psn, epsn, msn}} and {@code rnr_nak: {psn, timer, epsn, msn}} name the rejected PSN, {@code cnp: true} a CNP.
     * PSNs count in the device's request space. Returns the opcode, or null when the step uses none.
     */
    private String responseSugar(final YMap map, final Map<String, Expr> fields, final Set<String> loopVars) {
        int used = 0;
        String opcode = null;
        if (map.has("ack")) {
            used++;
            final YMap ack = b.map(map.get("ack"), "ack");
            if (ack != null) {
                b.onlyKeys(ack, "ack", "psn", "msn", "sack", "bitmap");
                final Expr psn = expr(b.required(ack, "psn", "ack"), "psn", loopVars);
                if (psn != null) {
                    fields.put("bth.psn", Expr.parse("(" + psn + ") - 1"));
                    fields.put("aeth.syndrome", Expr.of(0x1F));
                    fields.put("sacketh.base", psn);
                    fields.put("aeth.msn", ack.has("msn") ? expr(ack.get("msn"), "msn", loopVars) : Expr.of(0));
                    fields.put("sacketh.bitmap", sackBitmap(ack, psn, loopVars));
                }
            }
            opcode = "ACKNOWLEDGE";
        }
        if (map.has("nak") || map.has("rnr_nak")) {
            used += (map.has("nak") ? 1 : 0) + (map.has("rnr_nak") ? 1 : 0);
            final boolean rnr = map.has("rnr_nak");
            final String what = rnr ? "rnr_nak" : "nak";
            final YMap nak = b.map(map.get(what), what);
            if (nak != null) {
                b.onlyKeys(nak, what, rnr ? "timer" : "code", "psn", "epsn", "msn", "sack", "bitmap");
                final Expr psn = expr(b.required(nak, "psn", what), "psn", loopVars);
                final Expr code = rnr ? Expr.parse("0x20 | (" + (nak.has("timer")
                    ? expr(nak.get("timer"), "timer", loopVars) : Expr.of(1)) + ")")
                    : expr(b.required(nak, "code", what), "code", loopVars);
                if (psn != null && code != null) {
                    final Expr epsn = nak.has("epsn") ? expr(nak.get("epsn"), "epsn", loopVars) : psn;
                    fields.put("bth.psn", psn);
                    fields.put("aeth.syndrome", code);
                    fields.put("sacketh.base", epsn);
                    fields.put("aeth.msn", nak.has("msn") ? expr(nak.get("msn"), "msn", loopVars) : Expr.of(0));
                    fields.put("sacketh.bitmap", sackBitmap(nak, epsn, loopVars));
                }
            }
            opcode = "ACKNOWLEDGE";
        }
        if (map.has("cnp")) {
            used++;
            if (!b.bool(map.get("cnp"), "cnp", true)) {
                b.problem(file, map.keyLine("cnp"), "cnp takes true");
            }
            opcode = "CNP";
        }
        if (used > 1) {
            b.problem(map, "use at most one of ack, nak, rnr_nak, cnp in one send step");
        }
        return opcode;
    }

    private Expr sackBitmap(final YMap map, final Expr base, final Set<String> loopVars) {
        if (map.has("bitmap")) {
            return expr(map.get("bitmap"), "bitmap", loopVars);
        }
        if (!map.has("sack")) {
            return Expr.of(0);
        }
        final List<Expr> psns = exprs(map.get("sack"), "sack", loopVars);
        if (psns.isEmpty()) {
            return Expr.of(0);
        }
        final StringBuilder bits = new StringBuilder("bits(");
        for (int i = 0; i < psns.size(); i++) {
            bits.append(i == 0 ? "" : ", ").append('(').append(psns.get(i)).append(") - (").append(base).append(')');
        }
        return Expr.parse(bits.append(')').toString());
    }

    private Expr ecn(final YMap map, final Set<String> loopVars) {
        if (!map.has("ecn")) {
            return null;
        }
        final YNode node = map.get("ecn");
        if (node instanceof YScalar scalar && scalar.value() instanceof String text) {
            switch (text.toLowerCase(Locale.ROOT)) {
                case "ce":
                    return Expr.of(3);
                case "ect0":
                    return Expr.of(2);
                case "ect1":
                    return Expr.of(1);
                case "not-ect":
                    return Expr.of(0);
                default:
                    break;
            }
        }
        return expr(node, "ecn", loopVars);
    }

    private Map<String, Expr> fieldValues(final YNode node, final Set<String> loopVars) {
        final Map<String, Expr> out = new LinkedHashMap<>();
        if (node == null) {
            return out;
        }
        final YMap map = b.map(node, "fields");
        if (map == null) {
            return out;
        }
        for (final Map.Entry<String, YNode> entry : map.entries().entrySet()) {
            if (!FrameFields.exists(entry.getKey())) {
                b.problem(file, map.keyLine(entry.getKey()), "unknown field '" + entry.getKey() + "'");
                continue;
            }
            final Expr expr = expr(entry.getValue(), entry.getKey(), loopVars);
            if (expr != null) {
                out.put(entry.getKey(), expr);
            }
        }
        return out;
    }

    private MessageSpec message(final YMap map, final Set<String> loopVars) {
        b.onlyKeys(map, "message", "qp", "op", "mr", "offset", "length", "payload", "imm", "invalidate", "swap", "add",
            "compare", "rkey", "pmtu", "order", "drop", "duplicate", "ce", "ackreq", "fields", "gap");
        final String connection = connectionRef(map, "qp");
        final String op = b.string(b.required(map, "op", "message"), "op");
        if (op != null && !MESSAGE_OPS.contains(op)) {
            b.problem(file, map.keyLine("op"), "unknown op '" + op + "'; known: " + MESSAGE_OPS);
        }
        final String region = b.optionalString(map, "mr", "message");
        checkRegion(map, region);
        if (op != null && !op.startsWith("send") && region == null) {
            b.problem(map, "a " + op + " message needs 'mr' (the remote region)");
        }
        final String invalidate = b.optionalString(map, "invalidate", "message");
        checkRegion(map, invalidate);
        String ackReq = "last";
        List<Expr> ackReqIndices = List.of();
        if (map.has("ackreq")) {
            final YNode node = map.get("ackreq");
            if (node instanceof YList) {
                ackReq = "indices";
                ackReqIndices = exprs(node, "ackreq", loopVars);
            } else {
                ackReq = b.string(node, "ackreq");
                if (ackReq != null && !Set.of("last", "all", "none").contains(ackReq)) {
                    b.problem(node, "ackreq must be last, all, none or a list of packet indices");
                }
            }
        }
        final Expr length = op != null && (op.equals("cmp_swap") || op.equals("fetch_add")) && !map.has("length")
            ? Expr.of(8) : expr(b.required(map, "length", "message"), "length", loopVars);
        return new MessageSpec(connection, op, region, optionalExpr(map, "offset", loopVars), length,
            map.has("payload") ? payload(map.get("payload"), "payload", loopVars) : null,
            optionalExpr(map, "imm", loopVars), invalidate,
            map.has("swap") ? optionalExpr(map, "swap", loopVars) : optionalExpr(map, "add", loopVars),
            optionalExpr(map, "compare", loopVars), optionalExpr(map, "rkey", loopVars),
            optionalExpr(map, "pmtu", loopVars), exprs(map.get("order"), "order", loopVars),
            exprs(map.get("drop"), "drop", loopVars), exprs(map.get("duplicate"), "duplicate", loopVars),
            exprs(map.get("ce"), "ce", loopVars), ackReq, ackReqIndices, fieldValues(map.get("fields"), loopVars),
            optionalExpr(map, "gap", loopVars), map.line());
    }

    private Step flow(final YMap map, final Set<String> loopVars) {
        b.onlyKeys(map, "flow", "qp", "messages", "packets", "settle");
        final String connection = connectionRef(map, "qp");
        final List<MessageSpec> messages = new ArrayList<>();
        for (final YNode node : b.list(b.required(map, "messages", "flow"))) {
            final YMap message = b.map(node, "a flow message");
            if (message != null) {
                if (message.has("order") || message.has("drop") || message.has("duplicate") || message.has("ce")) {
                    b.problem(message, "a flow message takes no order, drop, duplicate or ce: the flow's packets "
                        + "list says how its packets are sent");
                }
                messages.add(message(message, loopVars));
            }
        }
        final List<FlowSpec.Packet> packets = new ArrayList<>();
        for (final YNode node : b.list(b.required(map, "packets", "flow"))) {
            final FlowSpec.Packet packet = b.parse(node, "packets", FlowSpec.Packet::parse);
            if (packet != null) {
                if (packet.message() < 0 || packet.message() >= messages.size()) {
                    b.problem(node, "packet " + packet.text() + " names message " + packet.message() + " of "
                        + messages.size());
                }
                packets.add(packet);
            }
        }
        return new Step.Flow(new FlowSpec(connection, messages, packets, optionalExpr(map, "settle", loopVars),
            map.line()));
    }

    private Step expect(final YMap map, final Set<String> loopVars) {
        final FrameTemplate template = template(map, "expect", loopVars, "within", "after", "skip_others", "label");
        final Boolean skip = b.optionalBool(map, "skip_others", "expect");
        return new Step.Expect(template, optionalExpr(map, "within", loopVars), optionalExpr(map, "after", loopVars),
            skip != null && skip, b.optionalString(map, "label", "expect"), map.line());
    }

    private FrameTemplate template(final YMap map, final String what, final Set<String> loopVars,
                                   final String... extraKeys) {
        final List<String> allowed = new ArrayList<>(List.of("qp", "opcode", "fields", "icrc_valid", "payload",
            "payload_len", "ack", "nak", "rnr_nak", "cnp"));
        allowed.addAll(List.of(extraKeys));
        b.onlyKeys(map, what, allowed.toArray(new String[0]));
        final String connection = map.has("qp") || connections.size() == 1 ? connectionRef(map, "qp") : null;
        final List<String> opcodes = new ArrayList<>();
        final Map<String, Matcher> fields = new LinkedHashMap<>();
        if (map.has("opcode")) {
            for (final String opcode : b.strings(map.get("opcode"), "opcode")) {
                if (Opcode.byName(opcode) == null) {
                    b.problem(file, map.keyLine("opcode"), "unknown opcode '" + opcode + "'");
                }
                opcodes.add(opcode);
            }
        }
        int sugar = 0;
        if (map.has("ack")) {
            sugar++;
            ack(b.map(map.get("ack"), "ack"), opcodes, fields, loopVars);
        }
        if (map.has("nak")) {
            sugar++;
            nak(b.map(map.get("nak"), "nak"), opcodes, fields, loopVars);
        }
        if (map.has("rnr_nak")) {
            sugar++;
            rnrNak(b.map(map.get("rnr_nak"), "rnr_nak"), opcodes, fields, loopVars);
        }
        if (map.has("cnp")) {
            sugar++;
            opcodes.add("CNP");
            fields.put("bth.becn", Matcher.exact(Expr.of(1)));
            fields.put("bth.tver", Matcher.exact(Expr.of(0)));
        }
        if (sugar > 1) {
            b.problem(map, "use at most one of ack, nak, rnr_nak, cnp in one expectation");
        }
        if (map.has("fields")) {
            final YMap fieldMap = b.map(map.get("fields"), "fields");
            if (fieldMap != null) {
                for (final Map.Entry<String, YNode> entry : fieldMap.entries().entrySet()) {
                    if (!FrameFields.exists(entry.getKey())) {
                        b.problem(file, fieldMap.keyLine(entry.getKey()), "unknown field '" + entry.getKey() + "'");
                        continue;
                    }
                    final Matcher matcher = matcher(entry.getValue(), entry.getKey(), loopVars);
                    if (matcher != null) {
                        fields.put(entry.getKey(), matcher);
                    }
                }
            }
        }
        final Boolean icrcValid = map.has("icrc_valid") ? b.bool(map.get("icrc_valid"), "icrc_valid", true) : true;
        final PayloadSpec payload = map.has("payload") ? payload(map.get("payload"), "payload", loopVars) : null;
        final Matcher payloadLength = map.has("payload_len") ? matcher(map.get("payload_len"), "payload_len",
            loopVars) : null;
        return new FrameTemplate(connection, opcodes, fields, icrcValid, payload, payloadLength, map.line());
    }

    private void ack(final YMap map, final List<String> opcodes, final Map<String, Matcher> fields,
                     final Set<String> loopVars) {
        if (map == null) {
            return;
        }
        b.onlyKeys(map, "ack", "psn", "msn", "sack", "bitmap");
        opcodes.add("ACKNOWLEDGE");
        final Expr psn = expr(b.required(map, "psn", "ack"), "psn", loopVars);
        if (psn == null) {
            return;
        }
        fields.put("bth.psn", Matcher.exact(Expr.parse("(" + psn + ") - 1")));
        fields.put("aeth.syndrome", Matcher.exact(Expr.of(0x1F)));
        fields.put("sacketh.base", Matcher.exact(psn));
        if (map.has("msn")) {
            fields.put("aeth.msn", matcher(map.get("msn"), "msn", loopVars));
        }
        if (map.has("bitmap")) {
            fields.put("sacketh.bitmap", matcher(map.get("bitmap"), "bitmap", loopVars));
        } else if (map.has("sack")) {
            final YNode sack = map.get("sack");
            if (sack instanceof YScalar scalar && "any".equals(scalar.value())) {
                fields.put("sacketh.bitmap", Matcher.any());
            } else {
                final List<Expr> psns = exprs(sack, "sack", loopVars);
                final StringBuilder bits = new StringBuilder("bits(");
                for (int i = 0; i < psns.size(); i++) {
                    bits.append(i == 0 ? "" : ", ").append('(').append(psns.get(i)).append(") - (").append(psn)
                        .append(')');
                }
                fields.put("sacketh.bitmap", Matcher.exact(psns.isEmpty() ? Expr.of(0)
                    : Expr.parse(bits.append(')').toString())));
            }
        } else {
            fields.put("sacketh.bitmap", Matcher.exact(Expr.of(0)));
        }
    }

    private void nak(final YMap map, final List<String> opcodes, final Map<String, Matcher> fields,
                     final Set<String> loopVars) {
        if (map == null) {
            return;
        }
        b.onlyKeys(map, "nak", "code", "psn", "epsn", "msn");
        opcodes.add("ACKNOWLEDGE");
        fields.put("aeth.syndrome", matcher(b.required(map, "code", "nak"), "code", loopVars));
        if (map.has("psn")) {
            fields.put("bth.psn", matcher(map.get("psn"), "psn", loopVars));
        }
        if (map.has("epsn")) {
            fields.put("sacketh.base", matcher(map.get("epsn"), "epsn", loopVars));
        }
        if (map.has("msn")) {
            fields.put("aeth.msn", matcher(map.get("msn"), "msn", loopVars));
        }
    }

    private void rnrNak(final YMap map, final List<String> opcodes, final Map<String, Matcher> fields,
                        final Set<String> loopVars) {
        if (map == null) {
            return;
        }
        b.onlyKeys(map, "rnr_nak", "psn", "timer", "epsn");
        opcodes.add("ACKNOWLEDGE");
        if (map.has("timer")) {
            final Expr timer = expr(map.get("timer"), "timer", loopVars);
            fields.put("aeth.syndrome", Matcher.exact(Expr.parse("0x20 | (" + timer + ")")));
        } else {
            fields.put("aeth.syndrome", new Matcher(Matcher.Kind.MASKED, List.of(Expr.of(0xE0), Expr.of(0x20))));
        }
        if (map.has("psn")) {
            fields.put("bth.psn", matcher(map.get("psn"), "psn", loopVars));
        }
        if (map.has("epsn")) {
            fields.put("sacketh.base", matcher(map.get("epsn"), "epsn", loopVars));
        }
    }

    private Matcher matcher(final YNode node, final String what, final Set<String> loopVars) {
        if (node instanceof YScalar scalar) {
            if ("*".equals(scalar.value()) || "any".equals(scalar.value())) {
                return Matcher.any();
            }
            final Expr value = expr(node, what, loopVars);
            return value == null ? null : Matcher.exact(value);
        }
        if (node instanceof YList) {
            return new Matcher(Matcher.Kind.ONE_OF, exprs(node, what, loopVars));
        }
        final YMap map = b.map(node, what);
        if (map == null) {
            return null;
        }
        if (map.keys().equals(Set.of("any")) || map.keys().equals(Set.of("one_of"))) {
            return new Matcher(Matcher.Kind.ONE_OF, exprs(map.entries().values().iterator().next(), what, loopVars));
        }
        if (map.keys().equals(Set.of("range"))) {
            final List<Expr> bounds = exprs(map.get("range"), what, loopVars);
            if (bounds.size() != 2) {
                b.problem(map, what + ": range takes [low, high]");
                return null;
            }
            return new Matcher(Matcher.Kind.RANGE, bounds);
        }
        if (map.keys().equals(Set.of("mask", "value"))) {
            return new Matcher(Matcher.Kind.MASKED, List.of(expr(map.get("mask"), what, loopVars),
                expr(map.get("value"), what, loopVars)));
        }
        if (map.keys().equals(Set.of("not"))) {
            return new Matcher(Matcher.Kind.NOT, List.of(expr(map.get("not"), what, loopVars)));
        }
        b.problem(map, what + ": a matcher is a value, '*', a list of alternatives, {range: [lo, hi]}, "
            + "{mask: m, value: v} or {not: v}");
        return null;
    }

    private Step expectMemory(final YMap map, final Set<String> loopVars) {
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, "expect_memory", "mr", "offset", "length", "equals", "model", "untouched");
        final String region = b.string(b.required(map, "mr", "expect_memory"), "mr");
        checkRegion(map, region);
        final Boolean model = b.optionalBool(map, "model", "expect_memory");
        final Boolean untouched = b.optionalBool(map, "untouched", "expect_memory");
        final PayloadSpec equals = map.has("equals") ? payload(map.get("equals"), "equals", loopVars) : null;
        final int ways = (equals != null ? 1 : 0) + (model != null && model ? 1 : 0)
            + (untouched != null && untouched ? 1 : 0);
        if (ways != 1) {
            b.problem(map, "expect_memory needs exactly one of equals, model: true, untouched: true");
        }
        return new Step.ExpectMemory(region, optionalExpr(map, "offset", loopVars),
            optionalExpr(map, "length", loopVars), equals, model != null && model, untouched != null && untouched,
            map.line());
    }

    private Step expectCompletions(final YMap map, final Set<String> loopVars) {
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, "expect_completions", "qp", "entries", "model", "exact");
        final String connection = connectionRef(map, "qp");
        final List<CompletionTemplate> entries = new ArrayList<>();
        if (map.has("entries")) {
            for (final YNode node : b.list(map.get("entries"))) {
                final YMap entry = b.map(node, "a completion");
                if (entry == null) {
                    continue;
                }
                b.onlyKeys(entry, "a completion", "opcode", "status", "length", "imm", "invalidated", "wr_id",
                    "solicited");
                final String opcode = b.optionalString(entry, "opcode", "completion");
                checkEnum(entry, "opcode", opcode, WorkOpcode.class);
                final String status = b.optionalString(entry, "status", "completion");
                checkEnum(entry, "status", status, CompletionStatus.class);
                entries.add(new CompletionTemplate(opcode, status, optionalExpr(entry, "length", loopVars),
                    optionalExpr(entry, "imm", loopVars), optionalExpr(entry, "invalidated", loopVars),
                    optionalExpr(entry, "wr_id", loopVars), b.optionalBool(entry, "solicited", "completion"),
                    entry.line()));
            }
        }
        final Boolean model = b.optionalBool(map, "model", "expect_completions");
        if ((model != null && model) == map.has("entries")) {
            b.problem(map, "expect_completions needs either entries or model: true");
        }
        final Boolean exact = b.optionalBool(map, "exact", "expect_completions");
        return new Step.ExpectCompletions(connection, entries, model != null && model, exact == null || exact,
            map.line());
    }

    private Step expectCounters(final YMap map, final Set<String> loopVars) {
        if (map == null) {
            return null;
        }
        final Map<String, Expr> values = new LinkedHashMap<>();
        boolean exact = false;
        String connection = null;
        final Set<String> known = new LinkedHashSet<>();
        context.spec().counters().forEach(c -> known.add(c.name()));
        for (final Map.Entry<String, YNode> entry : map.entries().entrySet()) {
            if (entry.getKey().equals("exact")) {
                exact = b.bool(entry.getValue(), "exact", false);
                continue;
            }
            if (entry.getKey().equals("qp")) {
                connection = connectionRef(map, "qp");
                continue;
            }
            if (!known.isEmpty() && !known.contains(entry.getKey())) {
                b.problem(file, map.keyLine(entry.getKey()), "unknown counter '" + entry.getKey()
                    + "'; Appendix C lists " + known);
            }
            final Expr value = expr(entry.getValue(), entry.getKey(), loopVars);
            if (value != null) {
                values.put(entry.getKey(), value);
            }
        }
        return new Step.ExpectCounters(connection, values, exact, map.line());
    }

    private PayloadSpec payload(final YNode node, final String what, final Set<String> loopVars) {
        if (node instanceof YScalar) {
            return new PayloadSpec(null, null, expr(node, what, loopVars));
        }
        final YMap map = b.map(node, what);
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, what, "seq", "constant", "random", "hex", "offset", "length");
        Pattern pattern = null;
        int kinds = 0;
        for (final String kind : List.of("seq", "constant", "random", "hex")) {
            if (map.has(kind)) {
                kinds++;
                pattern = patternOf(kind, map.get(kind), what, loopVars);
            }
        }
        if (kinds > 1) {
            b.problem(map, what + " takes one of seq, constant, random, hex");
        }
        return new PayloadSpec(pattern, optionalExpr(map, "offset", loopVars), optionalExpr(map, "length", loopVars));
    }

    private Pattern pattern(final YNode node, final String what) {
        final YMap map = b.map(node, what);
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, what, "seq", "constant", "random", "hex");
        if (map.keys().size() != 1) {
            b.problem(map, what + " takes exactly one of seq, constant, random, hex");
            return null;
        }
        final String kind = map.keys().iterator().next();
        return patternOf(kind, map.get(kind), what, Set.of());
    }

    private Pattern patternOf(final String kind, final YNode node, final String what, final Set<String> loopVars) {
        if (kind.equals("hex")) {
            final byte[] bytes = b.parse(node, what + ".hex", Pattern::parseHex);
            return bytes == null ? null : new Pattern(Pattern.Kind.HEX, null, bytes);
        }
        final Expr value = expr(node, what + "." + kind, loopVars);
        return new Pattern(Pattern.Kind.valueOf(kind.toUpperCase(Locale.ROOT)), value, null);
    }

    private List<Expr> exprs(final YNode node, final String what, final Set<String> loopVars) {
        final List<Expr> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        for (final YNode item : b.list(node)) {
            final Expr expr = expr(item, what, loopVars);
            if (expr != null) {
                out.add(expr);
            }
        }
        return out;
    }

    private Expr optionalExpr(final YMap map, final String key) {
        return optionalExpr(map, key, Set.of());
    }

    private Expr optionalExpr(final YMap map, final String key, final Set<String> loopVars) {
        return map.has(key) ? expr(map.get(key), key, loopVars) : null;
    }

    private Expr expr(final YNode node, final String what, final Set<String> loopVars) {
        if (node == null) {
            return null;
        }
        if (node instanceof YScalar scalar && scalar.value() instanceof Number number) {
            if (number instanceof Double d) {
                b.problem(node, what + ": " + d + " is not an integer (write durations as 1500ns or 1.5us)");
                return null;
            }
            if (number instanceof java.math.BigInteger big) {
                return Expr.of(big.longValue());
            }
            return Expr.of(number.longValue());
        }
        if (node instanceof YScalar scalar && scalar.value() instanceof Boolean bool) {
            return Expr.of(bool ? 1 : 0);
        }
        final String text = b.string(node, what);
        if (text == null) {
            return null;
        }
        try {
            final Expr expr = Expr.parse(text);
            used.addAll(expr.names());
            for (final String name : expr.names()) {
                if (!names.contains(name) && !loopVars.contains(name) && !isLateName(name)) {
                    b.problem(node, what + ": unknown name '" + name + "' in '" + text + "'");
                }
            }
            return expr;
        } catch (IllegalArgumentException e) {
            b.problem(node, what + ": " + e.getMessage());
            return null;
        }
    }

    /** Names of connections and regions declared later in the file are accepted; steps come after setup anyway. */
    private boolean isLateName(final String name) {
        return name.contains(".");
    }
}

package org.metaroce.mrct.harness.cases;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.QpAttribute;

/**
 * Reads what a case sets up before its steps: connections (QPs and their attributes) and memory regions, declaring
 * their names for the expressions and references that follow.
 */
final class SetupReader {
    private static final java.util.regex.Pattern INDEXED = java.util.regex.Pattern.compile("(.+)\\[(\\d+)]");

    private final ReadScope s;
    private final TemplateReader templates;

    SetupReader(final ReadScope scope, final TemplateReader templates) {
        this.s = scope;
        this.templates = templates;
    }

    ConnectionDef connection(final YNode node) {
        final YMap map = s.b.map(node, "a connection");
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, "a connection", "name", "network", "vlan", "attrs", "psn", "device_psn", "count", "pd",
            "peer", "peer_attrs");
        final String name = s.b.string(s.b.required(map, "name", "a connection"), "name");
        if (name == null) {
            return null;
        }
        final String pd = s.b.optionalString(map, "pd", "connection");
        if (pd != null && !s.connections.contains(pd)) {
            s.problemAt(map, "pd", "pd names the connection whose protection domain this one shares, which must be "
                + "declared before it; the case has " + s.connections);
        }
        if (!s.connections.add(name)) {
            s.b.problem(map, "duplicate connection name '" + name + "'");
        }
        for (final String suffix : List.of("qpn", "peer_qpn", "psn", "device_psn", "pmtu")) {
            s.names.add(name + "." + suffix);
        }
        final String networkText = s.b.optionalString(map, "network", "connection");
        final IpVersion network = networkText == null ? IpVersion.IPV4 : IpVersion.byLabel(networkText);
        if (network == null) {
            s.problemAt(map, "network", "network must be ipv4 or ipv6, not '" + networkText + "'");
        }
        final boolean peer = s.flag(map, "peer", "connection", false);
        if (map.has("peer_attrs") && !peer) {
            s.problemAt(map, "peer_attrs", "peer_attrs needs peer: true");
        }
        return new ConnectionDef(name, network, s.optionalExpr(map, "vlan", Domain.VLAN), qpAttributes(map, "attrs"),
            s.optionalExpr(map, "psn", Domain.PSN), s.optionalExpr(map, "device_psn", Domain.PSN),
            s.optionalExpr(map, "count", Domain.QPS), pd, peer, qpAttributes(map, "peer_attrs"), map.line());
    }

    /**
     * The QP attributes under {@code key}, each typed by its attribute: numbers are expressions whose constants must
     * fit the attribute's width (a {@code modify_qp} may set values outside an attribute's range on purpose, so the
     * range itself is the device's to check), a ratio (dcqcn_g, dcqcn_alpha_init) may be a decimal from 0 to 1, access
     * sets name known rights.
     */
    Map<QpAttribute, AttributeValue> qpAttributes(final YMap map, final String key) {
        final Map<QpAttribute, AttributeValue> attributes = new LinkedHashMap<>();
        final YMap attrs = map.has(key) ? s.b.map(map.get(key), key) : null;
        if (attrs == null) {
            return attributes;
        }
        for (final Map.Entry<String, YNode> entry : attrs.entries().entrySet()) {
            final QpAttribute attribute = QpAttribute.byLabel(entry.getKey());
            if (attribute == null) {
                s.problemAt(attrs, entry.getKey(), "unknown QP attribute '" + entry.getKey() + "'");
                continue;
            }
            final AttributeValue value = attributeValue(attribute, entry.getValue());
            if (value != null) {
                attributes.put(attribute, value);
            }
        }
        return attributes;
    }

    private AttributeValue attributeValue(final QpAttribute attribute, final YNode node) {
        switch (attribute.type()) {
            case ACCESS_SET:
                return new AttributeValue.Rights(rights(node, attribute.label(), null, null));
            case BOOL:
                return new AttributeValue.Flag(s.b.bool(node, attribute.label(), false));
            case STRING: {
                final String text = s.b.string(node, attribute.label());
                return text == null ? null : new AttributeValue.Text(text);
            }
            case INT: {
                final Expr value = s.expr(node, attribute.label(), Domain.INT32);
                return value == null ? null : new AttributeValue.Numeric(value);
            }
            case DOUBLE: {
                if (node instanceof YScalar scalar && scalar.value() instanceof Double ratio) {
                    if (!(ratio >= 0 && ratio <= 1)) {
                        s.b.problem(node, attribute.label() + ": " + scalar.text() + " is not a ratio from 0 to 1");
                        return null;
                    }
                    return new AttributeValue.Ratio(ratio);
                }
                final Expr value = s.expr(node, attribute.label());
                return value == null ? null : new AttributeValue.Numeric(value);
            }
            default: {
                final Expr value = s.expr(node, attribute.label());
                return value == null ? null : new AttributeValue.Numeric(value);
            }
        }
    }

    /** Access rights; problems at the line of {@code key} in {@code map} when given, else at the node. */
    private Set<Access> rights(final YNode node, final String what, final YMap map, final String key) {
        final Set<Access> rights = EnumSet.noneOf(Access.class);
        for (final String right : s.b.strings(node, what)) {
            final Access access = Access.byLabel(right);
            if (access != null) {
                rights.add(access);
            } else if (map != null) {
                s.problemAt(map, key, "unknown access right '" + right + "'; known: "
                    + Arrays.stream(Access.values()).map(Access::label).toList());
            } else {
                s.b.problem(node, "unknown access right '" + right + "'");
            }
        }
        return rights;
    }

    RegionDef region(final YNode node) {
        final YMap map = s.b.map(node, "a region");
        if (map == null) {
            return null;
        }
        s.b.onlyKeys(map, "a region", "name", "connection", "pd", "length", "access", "fill", "on");
        final String name = s.b.string(s.b.required(map, "name", "a region"), "name");
        if (name == null) {
            return null;
        }
        if (!s.regions.add(name)) {
            s.b.problem(map, "duplicate region name '" + name + "'");
        }
        for (final String suffix : List.of("va", "rkey", "lkey", "length")) {
            s.names.add(name + "." + suffix);
        }
        final String connection = s.b.optionalString(map, "connection", "region");
        // one QP of a connection with a count: q[2] (a literal index)
        if (connection != null && !s.connections.contains(connection)) {
            final java.util.regex.Matcher indexed = INDEXED.matcher(connection);
            if (!(indexed.matches() && s.connections.contains(indexed.group(1)))) {
                s.problemAt(map, "connection", "unknown connection '" + connection + "'");
            }
        }
        final String pd = s.b.optionalString(map, "pd", "region");
        if (pd != null && !pd.equals("own")) {
            s.problemAt(map, "pd", "pd must be 'own' (a protection domain of the region's own)");
        }
        final Set<Access> access = map.has("access") ? rights(map.get("access"), "access", map, "access")
            : EnumSet.noneOf(Access.class);
        final Pattern fill = map.has("fill") ? templates.pattern(map.get("fill"), "fill") : null;
        final Expr length = s.requiredExpr(map, "length", "a region", Domain.BYTES);
        final String on = s.b.optionalString(map, "on", "region");
        if (on != null && !on.equals("peer") && !on.equals("device")) {
            s.problemAt(map, "on", "on must be device or peer, not '" + on + "'");
        }
        return new RegionDef(name, connection, "own".equals(pd), length, access, fill, "peer".equals(on),
            map.line());
    }
}

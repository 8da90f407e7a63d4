package org.metaroce.mrct.harness.cases;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import org.metaroce.mrct.harness.yaml.Binder;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;

/**
 * What the readers of one case file share: the problem collector ({@link Binder}), the file, the names declared so far
 * (connections, regions, parameters, matrix variables, loop variables in scope) and the reading of values every step
 * uses: expressions (range-checked when constant), connection and region references, enumerated words.
 */
final class ReadScope {
    final Binder b;
    final LoadContext context;
    final String file;
    final Set<String> connections = new LinkedHashSet<>();
    final Set<String> regions = new LinkedHashSet<>();
    /** Names expressions may use. */
    final Set<String> names = new LinkedHashSet<>();
    /** Every name an expression of the case uses, to find matrix variables nothing uses (misspelt parameters). */
    final Set<String> used = new LinkedHashSet<>();
    /** The rules the case cites (read before its steps; a step's own {@code rule} must be one of them). */
    java.util.List<String> caseRules = java.util.List.of();
    /** Loop variables in scope while steps are read (for indexed connection names, {@code q[i]}). */
    Set<String> loopScope = Set.of();

    ReadScope(final Binder binder, final LoadContext context, final String file) {
        this.b = binder;
        this.context = context;
        this.file = file;
    }

    /** Records a problem at the line of {@code key} in {@code map}. */
    void problemAt(final YMap map, final String key, final String message) {
        b.problem(file, map.keyLine(key), message);
    }

    // ---------------------------------------------------------------- expressions

    Expr expr(final YNode node, final String what) {
        return expr(node, what, loopScope, Domain.ANY);
    }

    Expr expr(final YNode node, final String what, final Domain domain) {
        return expr(node, what, loopScope, domain);
    }

    /**
     * An expression: a YAML number or boolean, or text parsed as an {@link Expr} whose names must be declared. Numbers
     * beyond 64 bits, fractions and, for a constant, values outside {@code domain} are problems.
     */
    Expr expr(final YNode node, final String what, final Set<String> loopVars, final Domain domain) {
        if (node == null) {
            return null;
        }
        final Expr expr = parse(node, what, loopVars);
        if (expr == null) {
            return null;
        }
        final Long constant;
        try {
            constant = expr.constantValue();
        } catch (IllegalArgumentException | ArithmeticException e) {
            b.problem(node, what + ": " + e.getMessage());
            return null;
        }
        if (constant != null) {
            final String problem = domain.check(constant);
            if (problem != null) {
                b.problem(node, what + ": " + problem);
                return null;
            }
        }
        return expr;
    }

    private Expr parse(final YNode node, final String what, final Set<String> loopVars) {
        if (node instanceof YScalar scalar && scalar.value() instanceof Number number) {
            if (number instanceof Double d) {
                b.problem(node, what + ": " + scalar.text() + " is not an integer (write durations as 1500ns or "
                    + "1.5us)");
                return null;
            }
            if (number instanceof BigInteger big) {
                // a 64-bit value: signed, or unsigned up to 2^64 - 1 (addresses, atomic operands), as hex literals
                if (big.signum() < 0 ? big.bitLength() > 63 : big.bitLength() > 64) {
                    b.problem(node, what + ": " + big + " does not fit in 64 bits");
                    return null;
                }
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
    private static boolean isLateName(final String name) {
        return name.contains(".");
    }

    List<Expr> exprs(final YNode node, final String what, final Domain domain) {
        final List<Expr> out = new ArrayList<>();
        for (final YNode item : b.list(node)) {
            final Expr expr = expr(item, what, loopScope, domain);
            if (expr != null) {
                out.add(expr);
            }
        }
        return out;
    }

    Expr optionalExpr(final YMap map, final String key, final Domain domain) {
        return map.has(key) ? expr(map.get(key), key, loopScope, domain) : null;
    }

    Expr optionalExpr(final YMap map, final String key) {
        return optionalExpr(map, key, Domain.ANY);
    }

    /** A required expression: a problem naming {@code what} when the key is missing. */
    Expr requiredExpr(final YMap map, final String key, final String what, final Domain domain) {
        return expr(b.required(map, key, what), key, loopScope, domain);
    }

    Boolean optionalBool(final YMap map, final String key, final String what) {
        return b.optionalBool(map, key, what);
    }

    boolean flag(final YMap map, final String key, final String what, final boolean fallback) {
        final Boolean value = b.optionalBool(map, key, what);
        return value == null ? fallback : value;
    }

    // ---------------------------------------------------------------- words

    /**
     * The constant of {@code type} a word names (case-insensitive, as the enum's name), or null after a problem
     * listing the known words.
     */
    <E extends Enum<E>> E enumValue(final YMap map, final String key, final String value, final Class<E> type) {
        if (value == null) {
            return null;
        }
        for (final E constant : type.getEnumConstants()) {
            if (constant.name().equals(value.toUpperCase(Locale.ROOT))) {
                return constant;
            }
        }
        problemAt(map, key, "unknown " + key + " '" + value + "'; known: " + Arrays.toString(type.getEnumConstants()));
        return null;
    }

    /** A word looked up by {@code byLabel}, or null after a problem listing {@code known}. */
    <T> T word(final YMap map, final String key, final String value, final Function<String, T> byLabel,
               final String what, final List<String> known) {
        if (value == null) {
            return null;
        }
        final T found = byLabel.apply(value);
        if (found == null) {
            problemAt(map, key, "unknown " + what + " '" + value + "'; known: " + known);
        }
        return found;
    }

    // ---------------------------------------------------------------- references

    /**
     * The connection a step names with {@code key}: a declared name, {@code name[i]} for one QP of a connection with a
     * count (i an expression), or, when the key is absent, the case's only connection.
     */
    String connectionRef(final YMap map, final String key) {
        final String name = map.has(key) ? b.string(map.get(key), key) : null;
        final int open = name == null ? -1 : name.indexOf('[');
        if (open > 0 && name.endsWith("]") && connections.contains(name.substring(0, open))) {
            final String index = name.substring(open + 1, name.length() - 1);
            try {
                for (final String usedName : Expr.parse(index).names()) {
                    if (!names.contains(usedName) && !loopScope.contains(usedName) && !isLateName(usedName)) {
                        problemAt(map, key, key + ": unknown name '" + usedName + "' in '" + name + "'");
                    }
                }
            } catch (IllegalArgumentException e) {
                problemAt(map, key, key + ": " + e.getMessage());
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
            problemAt(map, key, "unknown connection '" + name + "'; the case has " + connections);
        }
        return name;
    }

    void checkRegion(final YNode at, final String region) {
        if (region != null && !regions.contains(region)) {
            b.problem(at, "unknown region '" + region + "'; the case has " + regions);
        }
    }

    /** An optional region reference. */
    String regionRef(final YMap map, final String key, final String what) {
        final String region = b.optionalString(map, key, what);
        checkRegion(map, region);
        return region;
    }

    /** A required region reference. */
    String requiredRegion(final YMap map, final String key, final String what) {
        final String region = b.string(b.required(map, key, what), key);
        checkRegion(map, region);
        return region;
    }
}

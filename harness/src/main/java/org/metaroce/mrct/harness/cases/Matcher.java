package org.metaroce.mrct.harness.cases;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What an expected frame field may hold: exactly a value, any value, one of several, a range, a value under a mask,
 * or anything but a value. Values are expressions evaluated per run; PSN and QPN fields are compared in script space by
 * the caller, which hands this matcher the script-space value.
 *
 * @param kind the kind of match
 * @param values the operand(s): one for EXACT and NOT, several for ONE_OF, low and high for RANGE, mask and value for
 *     MASKED, none for ANY
 */
public record Matcher(Kind kind, List<Expr> values) {
    /** Kinds of match. */
    public enum Kind { EXACT, ANY, ONE_OF, RANGE, MASKED, NOT }

    public Matcher {
        values = List.copyOf(values);
    }

    public static Matcher exact(final Expr value) {
        return new Matcher(Kind.EXACT, List.of(value));
    }

    public static Matcher any() {
        return new Matcher(Kind.ANY, List.of());
    }

    /** True when {@code actual} satisfies the matcher. {@code width} masks values (64 for full width). */
    public boolean matches(final long actual, final Function<String, Long> names, final long mask) {
        switch (kind) {
            case ANY:
                return true;
            case EXACT:
                return (values.get(0).eval(names) & mask) == (actual & mask);
            case NOT:
                return (values.get(0).eval(names) & mask) != (actual & mask);
            case ONE_OF:
                for (final Expr value : values) {
                    if ((value.eval(names) & mask) == (actual & mask)) {
                        return true;
                    }
                }
                return false;
            case RANGE:
                return actual >= values.get(0).eval(names) && actual <= values.get(1).eval(names);
            default:
                return (actual & values.get(0).eval(names)) == (values.get(1).eval(names) & values.get(0).eval(names));
        }
    }

    /** The expectation as text with values evaluated, for failure messages ({@code 5 (0x5)}). */
    public String describe(final Function<String, Long> names, final Function<Long, String> format) {
        switch (kind) {
            case ANY:
                return "any";
            case EXACT:
                return format.apply(values.get(0).eval(names));
            case NOT:
                return "not " + format.apply(values.get(0).eval(names));
            case ONE_OF:
                return "one of [" + values.stream().map(v -> format.apply(v.eval(names)))
                    .collect(Collectors.joining(", ")) + "]";
            case RANGE:
                return format.apply(values.get(0).eval(names)) + " .. " + format.apply(values.get(1).eval(names));
            default:
                return "0x" + Long.toHexString(values.get(1).eval(names)) + " under mask 0x"
                    + Long.toHexString(values.get(0).eval(names));
        }
    }

    @Override
    public String toString() {
        return kind + values.toString();
    }
}

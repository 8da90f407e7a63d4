package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A small integer expression used for numeric values in case files: literals (decimal, {@code 0x} hex, {@code 0b}
 * binary, {@code _} separators), durations ({@code 10us}, {@code 1.5ms}, {@code 2s}: nanoseconds), names (parameters
 * such as {@code pmtu}, loop variables, {@code q.qpn}, {@code m.va}), {@code + - * / %}, {@code << >> & |},
 * parentheses and the functions {@code min(a,b)}, {@code max(a,b)}, {@code ceil_div(a,b)} and {@code bits(i,...)} (a
 * 64-bit SACK bitmap with bits i set, most significant first).
 *
 * <p>Hand-written: a few dozen lines cover what case files need, and an expression library would be far larger than
 * the language. Parsed once at load time (so syntax errors are reported with {@code file:line} before the run) and
 * evaluated per run against an environment of names.
 */
public final class Expr {
    private final String text;
    private final Node root;

    private Expr(final String text, final Node root) {
        this.text = text;
        this.root = root;
    }

    /** A literal. */
    public static Expr of(final long value) {
        return new Expr(Long.toString(value), env -> value);
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} with a readable message when malformed. */
    public static Expr parse(final String text) {
        final Parser parser = new Parser(text);
        final Node root = parser.expression();
        parser.skipSpace();
        if (parser.pos < text.length()) {
            throw new IllegalArgumentException("unexpected '" + text.substring(parser.pos) + "' in expression '" + text
                + "'");
        }
        return new Expr(text, root);
    }

    /** Evaluates against names; an unknown name throws {@link IllegalArgumentException}. */
    public long eval(final Function<String, Long> names) {
        return root.eval(names);
    }

    /** Evaluates against a map of names. */
    public long eval(final Map<String, Long> names) {
        return eval(name -> names.get(name));
    }

    /** The names the expression refers to. */
    public List<String> names() {
        final List<String> names = new ArrayList<>();
        Parser.collect(text, names);
        return names;
    }

    /** True when the expression is a plain literal. */
    public boolean isLiteral() {
        return names().isEmpty();
    }

    @Override
    public String toString() {
        return text;
    }

    @FunctionalInterface
    private interface Node {
        long eval(Function<String, Long> names);
    }

    /** Recursive-descent parser: or > and > shift > sum > product > unary > primary. */
    private static final class Parser {
        private final String text;
        private int pos;

        Parser(final String text) {
            this.text = text;
        }

        static void collect(final String text, final List<String> names) {
            int i = 0;
            while (i < text.length()) {
                final char c = text.charAt(i);
                if (Character.isDigit(c)) {
                    while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'
                        || text.charAt(i) == '.')) {
                        i++;
                    }
                } else if (Character.isLetter(c) || c == '_') {
                    final int start = i;
                    while (i < text.length() && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'
                        || text.charAt(i) == '.')) {
                        i++;
                    }
                    final String name = text.substring(start, i);
                    int j = i;
                    while (j < text.length() && text.charAt(j) == ' ') {
                        j++;
                    }
                    if (j >= text.length() || text.charAt(j) != '(') {
                        names.add(name);
                    }
                } else {
                    i++;
                }
            }
        }

        void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        boolean eat(final String token) {
            skipSpace();
            if (text.startsWith(token, pos)) {
                pos += token.length();
                return true;
            }
            return false;
        }

        Node expression() {
            Node left = and();
            while (true) {
                if (peek("||")) {
                    throw error("'||' is not supported");
                }
                if (eat("|")) {
                    final Node l = left;
                    final Node r = and();
                    left = n -> l.eval(n) | r.eval(n);
                } else {
                    return left;
                }
            }
        }

        Node and() {
            Node left = shift();
            while (eat("&")) {
                final Node l = left;
                final Node r = shift();
                left = n -> l.eval(n) & r.eval(n);
            }
            return left;
        }

        Node shift() {
            Node left = sum();
            while (true) {
                if (eat("<<")) {
                    final Node l = left;
                    final Node r = sum();
                    left = n -> l.eval(n) << r.eval(n);
                } else if (eat(">>")) {
                    final Node l = left;
                    final Node r = sum();
                    left = n -> l.eval(n) >>> r.eval(n);
                } else {
                    return left;
                }
            }
        }

        Node sum() {
            Node left = product();
            while (true) {
                if (eat("+")) {
                    final Node l = left;
                    final Node r = product();
                    left = n -> l.eval(n) + r.eval(n);
                } else if (peekMinus()) {
                    pos++;
                    final Node l = left;
                    final Node r = product();
                    left = n -> l.eval(n) - r.eval(n);
                } else {
                    return left;
                }
            }
        }

        private boolean peekMinus() {
            skipSpace();
            return pos < text.length() && text.charAt(pos) == '-';
        }

        private boolean peek(final String token) {
            skipSpace();
            return text.startsWith(token, pos);
        }

        Node product() {
            Node left = unary();
            while (true) {
                if (eat("*")) {
                    final Node l = left;
                    final Node r = unary();
                    left = n -> l.eval(n) * r.eval(n);
                } else if (eat("/")) {
                    final Node l = left;
                    final Node r = unary();
                    left = n -> divide(l.eval(n), r.eval(n));
                } else if (eat("%")) {
                    final Node l = left;
                    final Node r = unary();
                    left = n -> Math.floorMod(l.eval(n), nonZero(r.eval(n)));
                } else {
                    return left;
                }
            }
        }

        private static long divide(final long a, final long b) {
            return Math.floorDiv(a, nonZero(b));
        }

        private static long nonZero(final long b) {
            if (b == 0) {
                throw new IllegalArgumentException("division by zero");
            }
            return b;
        }

        Node unary() {
            if (eat("-")) {
                final Node inner = unary();
                return n -> -inner.eval(n);
            }
            if (eat("~")) {
                final Node inner = unary();
                return n -> ~inner.eval(n);
            }
            return primary();
        }

        Node primary() {
            skipSpace();
            if (eat("(")) {
                final Node inner = expression();
                if (!eat(")")) {
                    throw error("missing ')'");
                }
                return inner;
            }
            if (pos >= text.length()) {
                throw error("expression ends too early");
            }
            final char c = text.charAt(pos);
            if (Character.isDigit(c)) {
                return literal();
            }
            if (Character.isLetter(c) || c == '_') {
                final int start = pos;
                while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                    || text.charAt(pos) == '.')) {
                    pos++;
                }
                final String name = text.substring(start, pos);
                if (eat("(")) {
                    return function(name);
                }
                return n -> {
                    final Long value = n.apply(name);
                    if (value == null) {
                        throw new IllegalArgumentException("unknown name '" + name + "'");
                    }
                    return value;
                };
            }
            throw error("unexpected '" + c + "'");
        }

        private Node function(final String name) {
            final List<Node> args = new ArrayList<>();
            if (!eat(")")) {
                do {
                    args.add(expression());
                } while (eat(","));
                if (!eat(")")) {
                    throw error("missing ')' after the arguments of " + name);
                }
            }
            switch (name) {
                case "min":
                    requireArgs(name, args, 2);
                    return n -> Math.min(args.get(0).eval(n), args.get(1).eval(n));
                case "max":
                    requireArgs(name, args, 2);
                    return n -> Math.max(args.get(0).eval(n), args.get(1).eval(n));
                case "ceil_div":
                    requireArgs(name, args, 2);
                    return n -> Math.floorDiv(args.get(0).eval(n) + nonZero(args.get(1).eval(n)) - 1,
                        args.get(1).eval(n));
                case "bits":
                    return n -> {
                        long value = 0;
                        for (final Node arg : args) {
                            final long bit = arg.eval(n);
                            if (bit < 0 || bit > 63) {
                                throw new IllegalArgumentException("bits(): index " + bit + " is outside 0..63");
                            }
                            value |= Long.MIN_VALUE >>> bit;
                        }
                        return value;
                    };
                default:
                    throw error("unknown function '" + name + "' (known: min, max, ceil_div, bits)");
            }
        }

        private void requireArgs(final String name, final List<Node> args, final int count) {
            if (args.size() != count) {
                throw error(name + "() takes " + count + " arguments");
            }
        }

        private Node literal() {
            final int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                || text.charAt(pos) == '.')) {
                pos++;
            }
            final long value = parseLiteral(text.substring(start, pos));
            return n -> value;
        }

        private IllegalArgumentException error(final String message) {
            return new IllegalArgumentException(message + " in expression '" + text + "'");
        }
    }

    /** Parses one literal: integer in any base, or a duration in ns. */
    static long parseLiteral(final String raw) {
        final String token = raw.replace("_", "").toLowerCase(Locale.ROOT);
        try {
            if (token.startsWith("0x")) {
                return Long.parseUnsignedLong(token.substring(2), 16);
            }
            if (token.startsWith("0b")) {
                return Long.parseUnsignedLong(token.substring(2), 2);
            }
            final String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
            for (final String[] unit : units) {
                if (token.endsWith(unit[0]) && token.length() > unit[0].length()
                    && Character.isDigit(token.charAt(token.length() - unit[0].length() - 1))) {
                    final double amount = Double.parseDouble(token.substring(0, token.length() - unit[0].length()));
                    return Math.round(amount * Long.parseLong(unit[1]));
                }
            }
            return Long.parseLong(token);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + raw + "' is not a number or a duration (10us, 2ms)", e);
        }
    }
}

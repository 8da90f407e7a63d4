package org.metaroce.mrct.harness.cases;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A small integer expression used for numeric values in case files: literals (decimal, {@code 0x} hex, {@code 0b}
 * binary, {@code _} separators), durations ({@code 10us}, {@code 1.5ms}, {@code 2s}: nanoseconds), names (parameters
 * such as {@code pmtu}, loop variables, {@code q.qpn}, {@code m.va}), {@code + - * / %}, {@code << >> & |},
 * one comparison {@code < <= > >= == !=} (1 when it holds, else 0; it binds loosest), parentheses and the
 * functions {@code min(a,b)}, {@code max(a,b)}, {@code ceil_div(a,b)} and {@code bits(i,...)} (a 64-bit SACK bitmap
 * with bits i set, most significant first).
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

    /**
     * The value of an expression without names, or null when it has names. Throws {@link IllegalArgumentException}
     * when its evaluation fails (a division by zero, {@code bits()} outside 0..63).
     */
    public Long constantValue() {
        if (!names().isEmpty()) {
            return null;
        }
        return eval(name -> null);
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

    /** Deepest nesting of parentheses, function arguments and unary operators an expression may have. */
    static final int MAX_DEPTH = 64;

    /**
     * Recursive-descent parser: comparison > or > and > shift > sum > product > unary > primary. Operator chains are
     * read in loops and evaluated in loops; only nesting recurses, and it is bounded by {@link #MAX_DEPTH}.
     */
    private static final class Parser {
        private final String text;
        private int pos;
        private int depth;

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

        /** A chain of left-associative operators, evaluated in a loop (20,000 terms do not recurse 20,000 deep). */
        private static Node chain(final List<Node> operands, final List<Character> operators) {
            if (operands.size() == 1) {
                return operands.get(0);
            }
            final Node[] nodes = operands.toArray(new Node[0]);
            final char[] ops = new char[operators.size()];
            for (int i = 0; i < ops.length; i++) {
                ops[i] = operators.get(i);
            }
            return n -> {
                long value = nodes[0].eval(n);
                for (int i = 0; i < ops.length; i++) {
                    value = apply(ops[i], value, nodes[i + 1].eval(n));
                }
                return value;
            };
        }

        private static long apply(final char op, final long a, final long b) {
            switch (op) {
                case '|':
                    return a | b;
                case '&':
                    return a & b;
                case '<':
                    return a << b;
                case '>':
                    return a >>> b;
                case '+':
                    return a + b;
                case '-':
                    return a - b;
                case '*':
                    return a * b;
                case '/':
                    return divide(a, b);
                default:
                    return Math.floorMod(a, nonZero(b));
            }
        }

        /**
         * A comparison ({@code < <= > >= == !=}, 1 when it holds, else 0) between two or-chains, or one or-chain; a
         * comparison does not chain ({@code a < b < c} is refused).
         */
        Node expression() {
            enter();
            final Node left = or();
            final String op = comparison();
            if (op == null) {
                depth--;
                return left;
            }
            final Node right = or();
            if (comparison() != null) {
                throw error("comparisons do not chain; use parentheses");
            }
            depth--;
            switch (op) {
                case "<=":
                    return n -> left.eval(n) <= right.eval(n) ? 1 : 0;
                case ">=":
                    return n -> left.eval(n) >= right.eval(n) ? 1 : 0;
                case "==":
                    return n -> left.eval(n) == right.eval(n) ? 1 : 0;
                case "!=":
                    return n -> left.eval(n) != right.eval(n) ? 1 : 0;
                case "<":
                    return n -> left.eval(n) < right.eval(n) ? 1 : 0;
                default:
                    return n -> left.eval(n) > right.eval(n) ? 1 : 0;
            }
        }

        /** The comparison operator at the position, consumed, or null. */
        private String comparison() {
            for (final String op : new String[] {"<=", ">=", "==", "!=", "<", ">"}) {
                if (eat(op)) {
                    return op;
                }
            }
            return null;
        }

        Node or() {
            final List<Node> operands = new ArrayList<>(List.of(and()));
            final List<Character> operators = new ArrayList<>();
            while (true) {
                if (peek("||")) {
                    throw error("'||' is not supported");
                }
                if (eat("|")) {
                    operators.add('|');
                    operands.add(and());
                } else {
                    return chain(operands, operators);
                }
            }
        }

        Node and() {
            final List<Node> operands = new ArrayList<>(List.of(shift()));
            final List<Character> operators = new ArrayList<>();
            while (eat("&")) {
                operators.add('&');
                operands.add(shift());
            }
            return chain(operands, operators);
        }

        Node shift() {
            final List<Node> operands = new ArrayList<>(List.of(sum()));
            final List<Character> operators = new ArrayList<>();
            while (true) {
                if (eat("<<")) {
                    operators.add('<');
                } else if (eat(">>")) {
                    operators.add('>');
                } else {
                    return chain(operands, operators);
                }
                operands.add(sum());
            }
        }

        Node sum() {
            final List<Node> operands = new ArrayList<>(List.of(product()));
            final List<Character> operators = new ArrayList<>();
            while (true) {
                if (eat("+")) {
                    operators.add('+');
                } else if (peekMinus()) {
                    pos++;
                    operators.add('-');
                } else {
                    return chain(operands, operators);
                }
                operands.add(product());
            }
        }

        /** One level deeper into parentheses, a function's arguments or a unary operator; bounded. */
        private void enter() {
            if (++depth > MAX_DEPTH) {
                throw error("nested more than " + MAX_DEPTH + " levels deep");
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
            final List<Node> operands = new ArrayList<>(List.of(unary()));
            final List<Character> operators = new ArrayList<>();
            while (true) {
                if (eat("*")) {
                    operators.add('*');
                } else if (eat("/")) {
                    operators.add('/');
                } else if (eat("%")) {
                    operators.add('%');
                } else {
                    return chain(operands, operators);
                }
                operands.add(unary());
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
                enter();
                final Node inner = unary();
                depth--;
                return n -> -inner.eval(n);
            }
            if (eat("~")) {
                enter();
                final Node inner = unary();
                depth--;
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
            if (token.startsWith("0x") || token.startsWith("0b")) {
                final int radix = token.startsWith("0x") ? 16 : 2;
                final String digits = token.substring(2);
                if (!digits.isEmpty() && digits.chars().allMatch(c -> Character.digit(c, radix) >= 0)
                    && new BigInteger(digits, radix).bitLength() > 64) {
                    throw new IllegalArgumentException("'" + raw + "' does not fit in 64 bits");
                }
                return Long.parseUnsignedLong(digits, radix);
            }
            final String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}};
            for (final String[] unit : units) {
                if (token.endsWith(unit[0]) && token.length() > unit[0].length()
                    && Character.isDigit(token.charAt(token.length() - unit[0].length() - 1))) {
                    final BigDecimal nanos = new BigDecimal(token.substring(0, token.length() - unit[0].length()))
                        .multiply(new BigDecimal(unit[1])).setScale(0, RoundingMode.HALF_UP);
                    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                        throw new IllegalArgumentException("duration '" + raw + "' does not fit the 64-bit nanosecond "
                            + "clock (at most about 292 years)");
                    }
                    return nanos.longValueExact();
                }
            }
            if (!token.isEmpty() && token.chars().allMatch(Character::isDigit)) {
                // unsigned 64-bit, as hex literals: 2^63 and above wrap to negative, beyond 2^64 - 1 is refused
                if (new BigInteger(token).bitLength() > 64) {
                    throw new IllegalArgumentException("'" + raw + "' does not fit in 64 bits");
                }
                return Long.parseUnsignedLong(token);
            }
            return Long.parseLong(token);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + raw + "' is not a number or a duration (10us, 2ms)", e);
        }
    }
}

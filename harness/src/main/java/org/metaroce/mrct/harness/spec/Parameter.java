package org.metaroce.mrct.harness.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parameter a device declares (Appendix B), with its default and the range of values it may take. Ranges are read
 * from the table's text, in the forms the specification uses: {@code 16 to 32768}, {@code 10000 to rto_high_ns} (a
 * bound may name another parameter), {@code one of 256, 512, 1024, and at most max_pmtu}, {@code greater than 0 and at
 * most 1}, or a list of words ({@code per-qp, per-destination, per-port}).
 *
 * @param name the parameter ({@code recv_window})
 * @param unit its unit as written
 * @param defaultText the default as written
 * @param rangeText the range as written
 * @param meaning what it sets
 * @param line the table row's line
 */
public record Parameter(String name, String unit, String defaultText, String rangeText, String meaning, int line) {
    private static final Pattern NUMBER = Pattern.compile("^-?[0-9][0-9_,]*(\\.[0-9]+)?(e-?\\d+)?$");
    private static final Pattern INTERVAL = Pattern.compile("^(\\S+) to (\\S+)$");
    private static final Pattern AT_MOST = Pattern.compile("^(.*?),? and at most (\\S+)$");
    private static final Pattern GREATER = Pattern.compile("^greater than (\\S+) and at most (\\S+)$");

    static List<Parameter> fromTables(final List<MarkdownTable> tables, final List<SpecProblem> problems) {
        final List<Parameter> parameters = new ArrayList<>();
        for (final MarkdownTable table : tables) {
            if (!table.hasColumns("name", "unit", "default", "range")) {
                continue;
            }
            for (int r = 0; r < table.rows().size(); r++) {
                final List<String> row = table.rows().get(r);
                if (row.size() < 5 || row.get(0).isBlank()) {
                    problems.add(new SpecProblem(table.lines().get(r), "parameter row needs 5 cells"));
                    continue;
                }
                parameters.add(new Parameter(row.get(0), row.get(1), row.get(2), row.get(3), row.get(4),
                    table.lines().get(r)));
            }
        }
        for (final Parameter parameter : parameters) {
            final String problem = parameter.check(parameter.defaultValue(), other -> {
                for (final Parameter candidate : parameters) {
                    if (candidate.name().equals(other)) {
                        return candidate.defaultValue();
                    }
                }
                return null;
            });
            if (problem != null) {
                problems.add(new SpecProblem(parameter.line(), "default of " + parameter.name() + ": " + problem));
            }
        }
        return parameters;
    }

    /** True when the default is a number (else it is a word such as {@code per-qp}). */
    public boolean isNumeric() {
        return defaultValue() instanceof Number;
    }

    /** The default as a Long, a Double or a String. */
    public Object defaultValue() {
        return parseValue(firstToken(defaultText));
    }

    /** Parses a value written in a profile or table: numbers (underscores and commas allowed) or words. */
    public static Object parseValue(final String text) {
        final String clean = text.trim().replace("_", "").replace(",", "");
        if (NUMBER.matcher(clean).matches()) {
            if (clean.contains(".") || clean.contains("e")) {
                return Double.parseDouble(clean);
            }
            return Long.parseLong(clean);
        }
        return text.trim();
    }

    private static String firstToken(final String text) {
        final String trimmed = text.trim();
        final int space = trimmed.indexOf(' ');
        return space < 0 ? trimmed : trimmed.substring(0, space);
    }

    /**
     * Null when {@code value} is inside the range, else why not. {@code others} gives the declared values of the
     * parameters a bound may name.
     */
    public String check(final Object value, final Function<String, Object> others) {
        String range = rangeText.trim();
        if (range.isEmpty() || range.equals("-") || range.equalsIgnoreCase("any")) {
            return null;
        }
        final Matcher atMost = AT_MOST.matcher(range);
        if (atMost.matches() && !range.startsWith("greater")) {
            final Double bound = bound(atMost.group(2), others);
            if (bound != null && value instanceof Number n && n.doubleValue() > bound) {
                return value + " is above " + atMost.group(2) + " (" + format(bound) + ")";
            }
            range = atMost.group(1).trim();
        }
        final Matcher greater = GREATER.matcher(range);
        if (greater.matches()) {
            final Double low = bound(greater.group(1), others);
            final Double high = bound(greater.group(2), others);
            if (!(value instanceof Number n)) {
                return "'" + value + "' is not a number";
            }
            return low != null && n.doubleValue() <= low || high != null && n.doubleValue() > high
                ? value + " is outside " + rangeText : null;
        }
        final Matcher interval = INTERVAL.matcher(range);
        if (interval.matches()) {
            if (!(value instanceof Number n)) {
                return "'" + value + "' is not a number (range " + rangeText + ")";
            }
            final Double low = bound(interval.group(1), others);
            final Double high = bound(interval.group(2), others);
            return low != null && n.doubleValue() < low || high != null && n.doubleValue() > high
                ? value + " is outside " + rangeText + (low != null && high != null ? " (" + format(low) + " to "
                + format(high) + ")" : "") : null;
        }
        final String list = range.startsWith("one of ") ? range.substring(7) : range;
        for (final String choice : list.split("\\s*,\\s*")) {
            final Object parsed = parseValue(choice);
            if (parsed instanceof Number p && value instanceof Number v) {
                if (p.doubleValue() == v.doubleValue()) {
                    return null;
                }
            } else if (parsed.toString().toLowerCase(Locale.ROOT).equals(String.valueOf(value)
                .toLowerCase(Locale.ROOT))) {
                return null;
            }
        }
        return "'" + value + "' is not one of " + list;
    }

    private static Double bound(final String text, final Function<String, Object> others) {
        final Object parsed = parseValue(text);
        if (parsed instanceof Number n) {
            return n.doubleValue();
        }
        final Object other = others.apply(text);
        return other instanceof Number n ? n.doubleValue() : null;
    }

    private static String format(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}

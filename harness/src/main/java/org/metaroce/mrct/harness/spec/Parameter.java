package org.metaroce.mrct.harness.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parameter a device declares (Appendix B), with its default and the range of values it may take.
 *
 * @param name the parameter ({@code recv_window})
 * @param unit its unit as written
 * @param defaultText the default as written
 * @param rangeText the range as written
 * @param meaning what it sets
 * @param line the table row's line
 */
public record Parameter(String name, String unit, String defaultText, String rangeText, String meaning, int line) {
    private static final Pattern INTERVAL = Pattern.compile(
        "^\\s*\\[?\\s*(-?[0-9][0-9_,.]*(?:e-?\\d+)?)\\s*(?:\\.\\.|to|–|,)\\s*(-?[0-9][0-9_,.]*(?:e-?\\d+)?)\\s*\\]?\\s*$");
    private static final Pattern NUMBER = Pattern.compile("^-?[0-9][0-9_,]*(\\.[0-9]+)?(e-?\\d+)?$");

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
                final Parameter parameter = new Parameter(row.get(0), row.get(1), row.get(2), row.get(3),
                    row.get(4), table.lines().get(r));
                final String problem = parameter.check(parameter.defaultValue());
                if (problem != null) {
                    problems.add(new SpecProblem(parameter.line(), "default of " + parameter.name() + ": " + problem));
                }
                parameters.add(parameter);
            }
        }
        return parameters;
    }

    /** True when the default is a number (else it is a word such as {@code per-qp}). */
    public boolean isNumeric() {
        return NUMBER.matcher(firstToken(defaultText)).matches();
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

    /** Null when {@code value} is inside the range, else why not. */
    public String check(final Object value) {
        final String range = rangeText.trim();
        if (range.isEmpty() || range.equals("-") || range.equalsIgnoreCase("any")) {
            return null;
        }
        final Matcher interval = INTERVAL.matcher(range);
        if (interval.matches() && range.contains("..") || interval.matches() && range.contains(" to ")) {
            if (!(value instanceof Number number)) {
                return "'" + value + "' is not a number (range " + range + ")";
            }
            final double low = ((Number) parseValue(interval.group(1))).doubleValue();
            final double high = ((Number) parseValue(interval.group(2))).doubleValue();
            final double v = number.doubleValue();
            return v >= low && v <= high ? null : v + " is outside " + range;
        }
        final String[] choices = range.split("\\s*(,|\\bor\\b|/)\\s*");
        for (final String choice : choices) {
            final Object parsed = parseValue(choice);
            if (parsed instanceof Number n && value instanceof Number v) {
                if (n.doubleValue() == v.doubleValue()) {
                    return null;
                }
            } else if (parsed.toString().toLowerCase(Locale.ROOT).equals(String.valueOf(value).toLowerCase(Locale.ROOT))) {
                return null;
            }
        }
        return "'" + value + "' is not one of " + range;
    }
}

package org.metaroce.mrct.harness.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A pipe table read from Markdown: header cells, body rows and the line each row came from. Hand-written because the
 * specification's appendix tables are all this simple (no escaped pipes, no alignment that matters) and a Markdown
 * library would bring far more than it is needed for.
 *
 * @param header lower-cased, trimmed header cells
 * @param rows body rows, cells trimmed, backticks removed
 * @param lines 1-based line of each body row
 */
public record MarkdownTable(List<String> header, List<List<String>> rows, List<Integer> lines) {

    /** Every table in {@code lines} (0-based list, reported lines are 1-based). */
    public static List<MarkdownTable> parseAll(final List<String> lines) {
        final List<MarkdownTable> tables = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            if (isRow(lines.get(i)) && i + 1 < lines.size() && isSeparator(lines.get(i + 1))) {
                final List<String> header = new ArrayList<>();
                for (final String cell : cells(lines.get(i))) {
                    header.add(cell.toLowerCase(Locale.ROOT));
                }
                final List<List<String>> rows = new ArrayList<>();
                final List<Integer> rowLines = new ArrayList<>();
                int j = i + 2;
                while (j < lines.size() && isRow(lines.get(j))) {
                    rows.add(cells(lines.get(j)));
                    rowLines.add(j + 1);
                    j++;
                }
                tables.add(new MarkdownTable(List.copyOf(header), List.copyOf(rows), List.copyOf(rowLines)));
                i = j;
            } else {
                i++;
            }
        }
        return tables;
    }

    /** True when the header starts with exactly these column names (lower case). */
    public boolean hasColumns(final String... names) {
        if (header.size() < names.length) {
            return false;
        }
        for (int k = 0; k < names.length; k++) {
            if (!header.get(k).equals(names[k])) {
                return false;
            }
        }
        return true;
    }

    private static boolean isRow(final String line) {
        final String trimmed = line.trim();
        return trimmed.startsWith("|") && trimmed.length() > 1;
    }

    private static boolean isSeparator(final String line) {
        final String trimmed = line.trim();
        return trimmed.startsWith("|") && trimmed.replaceAll("[|:\\-\\s]", "").isEmpty() && trimmed.contains("-");
    }

    private static List<String> cells(final String line) {
        String trimmed = line.trim();
        if (trimmed.startsWith("|")) {
            trimmed = trimmed.substring(1);
        }
        if (trimmed.endsWith("|")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        final List<String> cells = new ArrayList<>();
        for (final String cell : trimmed.split("\\|", -1)) {
            cells.add(cell.trim().replace("`", ""));
        }
        return cells;
    }
}

package org.metaroce.mrct.cli.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A case's verdict as terminal lines: one headline of at most {@link #WIDTH} characters (verdict, case ID, rule, step
 * and case-file line), then the details on lines indented by {@link #INDENT} and wrapped at word boundaries to the same
 * width. Nothing of the reason is dropped: the headline only moves the long parts below. Takes the reason's text as
 * the harness writes it ({@code MR-CC-010: step 7 (expect the rate of q to follow DCQCN, line 40): the window rate
 * ...}); any other text is wrapped as it is.
 */
public final class FailureLines {
    /** Longest line written, in characters. */
    public static final int WIDTH = 160;
    /** Indentation of the detail lines. */
    public static final String INDENT = "    ";
    /** Width of the verdict column of a headline. */
    private static final int VERDICT_COLUMN = 14;

    private FailureLines() {
    }

    /**
     * The lines of one case.
     *
     * @param verdict the verdict's name ({@code FAIL})
     * @param id the case's run ID
     * @param reason the reason, or null or empty for none (a pass)
     * @param terminal how to colour the verdict; {@link Terminal#PLAIN} for none
     */
    public static List<String> of(final String verdict, final String id, final String reason,
                                  final Terminal terminal) {
        final String column = String.format(Locale.ROOT, "%-" + VERDICT_COLUMN + "s ", verdict);
        final String painted = terminal.verdict(verdict, column.substring(0, verdict.length()))
            + column.substring(verdict.length());
        final List<String> lines = new ArrayList<>();
        if (reason == null || reason.isEmpty()) {
            lines.add(painted + id);
            return lines;
        }
        final Split split = split(reason);
        final String head = column + id + ": " + split.head;
        String details = split.details;
        String shownHead = split.head;
        if (head.length() > WIDTH) { // an unusual reason or a very long ID: the headline keeps what fits
            final int room = Math.max(0, WIDTH - column.length() - id.length() - 2);
            final int cut = cut(split.head, room);
            shownHead = split.head.substring(0, cut).stripTrailing();
            final String rest = split.head.substring(cut).strip();
            details = rest.isEmpty() ? details : details.isEmpty() ? rest : rest + " " + details;
        }
        lines.add(painted + id + (shownHead.isEmpty() ? "" : ": " + shownHead));
        lines.addAll(wrap(details, INDENT, WIDTH));
        return lines;
    }

    /** The headline part of a reason (rule, step, file line) and the rest. */
    private record Split(String head, String details) {
    }

    /**
     * Splits {@code RULE: step N (what..., line L): details} into {@code RULE: step N, line L} and
     * {@code what...: details}; any other reason into its first sentence-like part up to ": " and the rest.
     */
    private static Split split(final String reason) {
        final int ruleEnd = reason.indexOf(": step ");
        if (ruleEnd > 0 && ruleEnd <= 24 && reason.indexOf(' ') >= ruleEnd) {
            final int open = reason.indexOf(" (", ruleEnd + 7);
            final int stepEnd = open < 0 ? -1 : open;
            if (stepEnd > 0 && reason.substring(ruleEnd + 7, stepEnd).chars().allMatch(Character::isDigit)) {
                final int close = closing(reason, stepEnd + 1);
                if (close > 0) {
                    final String inside = reason.substring(stepEnd + 2, close);
                    final int line = inside.lastIndexOf(", line ");
                    final String what = line < 0 ? inside : inside.substring(0, line);
                    final String where = line < 0 ? "" : inside.substring(line);
                    String rest = reason.substring(close + 1);
                    rest = rest.startsWith(": ") ? rest.substring(2) : rest.strip();
                    return new Split(reason.substring(0, stepEnd) + where,
                        rest.isEmpty() ? what : what + ": " + rest);
                }
            }
        }
        return new Split(reason, "");
    }

    /** Index of the parenthesis closing the one at {@code open}, or -1. */
    private static int closing(final String text, final int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Where to cut {@code text} to at most {@code room} characters: the last space that fits, else hard. */
    private static int cut(final String text, final int room) {
        if (text.length() <= room) {
            return text.length();
        }
        final int space = text.lastIndexOf(' ', room);
        return space > room / 2 ? space : room;
    }

    /** {@code text} wrapped at word boundaries into lines of at most {@code width}, each starting with {@code indent}. */
    public static List<String> wrap(final String text, final String indent, final int width) {
        final List<String> lines = new ArrayList<>();
        String rest = text.strip();
        final int room = width - indent.length();
        while (!rest.isEmpty()) {
            final int cut = cut(rest, room);
            lines.add(indent + rest.substring(0, cut).stripTrailing());
            rest = rest.substring(cut).strip();
        }
        return lines;
    }
}

package org.metaroce.mrct.reports.internal;

/** Escaping for text from results placed in Markdown (GitHub-flavoured, tables included). */
public final class Markdown {
    private Markdown() {
    }

    /**
     * {@code value} on one line, at most {@code max} characters, with Markdown and HTML syntax neutralised: backslash
     * escapes for {@code \ ` * _ [ ] | # ~}, and {@code <}, {@code >}, {@code &} as entities (GitHub renders raw HTML).
     */
    public static String inline(final String value, final int max) {
        final String line = Text.oneLine(Text.wellFormed(value), max);
        final StringBuilder out = new StringBuilder(line.length() + 8);
        for (int i = 0; i < line.length(); i++) {
            final char c = line.charAt(i);
            switch (c) {
                case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '#': case '~':
                    out.append('\\').append(c);
                    break;
                case '<':
                    out.append("&lt;");
                    break;
                case '>':
                    out.append("&gt;");
                    break;
                case '&':
                    out.append("&amp;");
                    break;
                default:
                    out.append(Character.isISOControl(c) ? ' ' : c);
                    break;
            }
        }
        return out.toString();
    }
}

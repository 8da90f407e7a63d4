package org.metaroce.mrct.reports.internal;

/**
 * Escaping for XML 1.0 text and attribute values. Characters XML 1.0 cannot carry at all (control characters other
 * than tab, line feed and carriage return, U+FFFE, U+FFFF, unpaired surrogates) are written as the visible text
 * {@code \}{@code uXXXX}, so the document stays well-formed and the reader still sees what was there.
 */
public final class Xml {
    private Xml() {
    }

    /** {@code value} escaped for element content; null is "". */
    public static String text(final String value) {
        return escape(value, false);
    }

    /** {@code value} escaped for a double-quoted attribute; tab and line ends are kept as character references. */
    public static String attribute(final String value) {
        return escape(value, true);
    }

    private static String escape(final String value, final boolean attribute) {
        if (value == null) {
            return "";
        }
        final StringBuilder out = new StringBuilder(value.length() + 16);
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            switch (c) {
                case '&':
                    out.append("&amp;");
                    break;
                case '<':
                    out.append("&lt;");
                    break;
                case '>':
                    out.append("&gt;");
                    break;
                case '"':
                    out.append(attribute ? "&quot;" : "\"");
                    break;
                case '\'':
                    out.append(attribute ? "&apos;" : "'");
                    break;
                case '\t':
                    out.append(attribute ? "&#9;" : "\t");
                    break;
                case '\n':
                    out.append(attribute ? "&#10;" : "\n");
                    break;
                case '\r':
                    out.append("&#13;");
                    break;
                default:
                    if (Character.isHighSurrogate(c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                        out.append(c).append(value.charAt(++i));
                    } else if (c < 0x20 || c == 0xFFFE || c == 0xFFFF || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                    break;
            }
        }
        return out.toString();
    }
}

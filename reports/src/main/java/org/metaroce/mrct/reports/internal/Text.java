package org.metaroce.mrct.reports.internal;

/** Small string helpers shared by the writers. */
public final class Text {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Text() {
    }

    /** {@code value}, or "" for null. */
    public static String orEmpty(final String value) {
        return value == null ? "" : value;
    }

    /**
     * {@code value} with every unpaired UTF-16 surrogate replaced by U+FFFD, so that it can be encoded as UTF-8
     * (a result string built from arbitrary bytes can hold one). Null stays null.
     */
    public static String wellFormed(final String value) {
        if (value == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            boolean bad = false;
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    if (out != null) {
                        out.append(c).append(value.charAt(i + 1));
                    }
                    i++;
                    continue;
                }
                bad = true;
            } else if (Character.isLowSurrogate(c)) {
                bad = true;
            }
            if (bad && out == null) {
                out = new StringBuilder(value.length()).append(value, 0, i);
            }
            if (out != null) {
                out.append(bad ? '\uFFFD' : c);
            }
        }
        return out == null ? value : out.toString();
    }

    /** Whitespace runs (newlines included) collapsed to one space, trimmed, cut to {@code max} characters. */
    public static String oneLine(final String value, final int max) {
        final String line = orEmpty(value).replaceAll("\\s+", " ").trim();
        if (line.length() <= max) {
            return line;
        }
        int cut = max - 1;
        if (Character.isLowSurrogate(line.charAt(cut))) {
            cut--;
        }
        return line.substring(0, cut) + "…";
    }

    /** Lower-case hex of {@code bytes}, two digits a byte, no separator. */
    public static String hex(final byte[] bytes) {
        if (bytes == null) {
            return "";
        }
        final char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xF];
            out[2 * i + 1] = HEX[bytes[i] & 0xF];
        }
        return new String(out);
    }
}

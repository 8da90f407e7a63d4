package org.metaroce.mrct.harness.result;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The comments of {@code evidence.pcapng} (reports/README.md): the section header's and each packet's, one line
 * {@code mrct key=value key=value ...}, values percent-encoded so that they hold no space. A byte of the value's UTF-8
 * is written as {@code %XX} when it is a space, a control character, {@code %} or outside printable ASCII; everything
 * else as is, {@code =} included. A reader splits on spaces, checks the first word, splits each field on its first
 * {@code =}, and percent-decodes the value; it ignores keys it does not know.
 */
public final class EvidenceComment {
    /** The first word of every comment. */
    public static final String PREFIX = "mrct";

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private EvidenceComment() {
    }

    /** True when {@code comment} is an mrct evidence comment (its first word is {@link #PREFIX}). */
    public static boolean isEvidence(final String comment) {
        return comment != null && (comment.equals(PREFIX) || comment.startsWith(PREFIX + " "));
    }

    /** {@code mrct k1=v1 k2=v2 ...} in the map's order (a null value is written empty). */
    public static String format(final Map<String, String> fields) {
        final StringBuilder out = new StringBuilder(PREFIX);
        for (final Map.Entry<String, String> field : fields.entrySet()) {
            out.append(' ').append(field.getKey()).append('=').append(encode(field.getValue()));
        }
        return out.toString();
    }

    /**
     * The fields of a comment written by {@link #format}, in their order, values decoded; throws
     * {@link IllegalArgumentException} for anything else (another first word, a field without {@code =}).
     */
    public static Map<String, String> parse(final String comment) {
        if (!isEvidence(comment)) {
            throw new IllegalArgumentException("not an mrct evidence comment: " + comment);
        }
        final String[] words = comment.split(" ");
        final Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < words.length; i++) {
            if (words[i].isEmpty()) {
                continue;
            }
            final int eq = words[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("field without '=' in evidence comment: " + words[i]);
            }
            fields.put(words[i].substring(0, eq), decode(words[i].substring(eq + 1)));
        }
        return fields;
    }

    /** Percent-encodes {@code value} (null is the empty string; an unpaired surrogate becomes U+FFFD). */
    public static String encode(final String value) {
        if (value != null && printable(value)) {
            return value; // the common case (case IDs, notes, numbers): nothing to escape, nothing to copy
        }
        final byte[] bytes = wellFormed(value == null ? "" : value).getBytes(StandardCharsets.UTF_8);
        final StringBuilder out = new StringBuilder(bytes.length + 8);
        for (final byte b : bytes) {
            final int c = b & 0xFF;
            if (c <= 0x20 || c >= 0x7F || c == '%') {
                out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            } else {
                out.append((char) c);
            }
        }
        return out.toString();
    }

    private static boolean printable(final String value) {
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (c <= 0x20 || c >= 0x7F || c == '%') {
                return false;
            }
        }
        return true;
    }

    /** Reverses {@link #encode}; a {@code %} not followed by two hex digits is kept as it is. */
    public static String decode(final String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        final byte[] out = new byte[value.length()];
        int n = 0;
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            final int high = c == '%' && i + 2 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
            final int low = high < 0 ? -1 : Character.digit(value.charAt(i + 2), 16);
            if (low >= 0) {
                out[n++] = (byte) (high << 4 | low);
                i += 2;
            } else {
                out[n++] = (byte) c;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    private static String wellFormed(final String value) {
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            final boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
                && Character.isLowSurrogate(value.charAt(i + 1));
            final boolean bad = !pair && Character.isSurrogate(c);
            if (bad && out == null) {
                out = new StringBuilder(value.length()).append(value, 0, i);
            }
            if (out != null) {
                out.append(bad ? '\uFFFD' : c);
                if (pair) {
                    out.append(value.charAt(i + 1));
                }
            }
            if (pair) {
                i++;
            }
        }
        return out == null ? value : out.toString();
    }
}

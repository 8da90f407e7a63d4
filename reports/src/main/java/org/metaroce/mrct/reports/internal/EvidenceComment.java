package org.metaroce.mrct.reports.internal;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The comment of each frame in {@code evidence.pcapng}: one line {@code mrct key=value key=value ...}, values
 * percent-encoded so that they hold no space. A byte of the value's UTF-8 is written as {@code %XX} when it is a
 * space, a control character, {@code %} or outside printable ASCII; everything else as is. A reader splits on spaces,
 * then each field on its first {@code =}, and percent-decodes the value.
 */
public final class EvidenceComment {
    /** The first word of every comment. */
    public static final String PREFIX = "mrct";

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private EvidenceComment() {
    }

    /** {@code mrct k1=v1 k2=v2 ...} in the map's order. */
    public static String format(final Map<String, String> fields) {
        final StringBuilder out = new StringBuilder(PREFIX);
        for (final Map.Entry<String, String> field : fields.entrySet()) {
            out.append(' ').append(field.getKey()).append('=').append(encode(field.getValue()));
        }
        return out.toString();
    }

    /** The fields of a comment written by {@link #format}; throws {@link IllegalArgumentException} otherwise. */
    public static Map<String, String> parse(final String comment) {
        final String[] words = comment.split(" ");
        if (words.length == 0 || !words[0].equals(PREFIX)) {
            throw new IllegalArgumentException("not an mrct evidence comment: " + comment);
        }
        final Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 1; i < words.length; i++) {
            final int eq = words[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("field without '=' in evidence comment: " + words[i]);
            }
            fields.put(words[i].substring(0, eq), decode(words[i].substring(eq + 1)));
        }
        return fields;
    }

    /** Percent-encodes {@code value} (null is the empty string). */
    public static String encode(final String value) {
        final byte[] bytes = Text.orEmpty(Text.wellFormed(value)).getBytes(StandardCharsets.UTF_8);
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

    /** Reverses {@link #encode}. */
    public static String decode(final String value) {
        final byte[] out = new byte[value.length()];
        int n = 0;
        for (int i = 0; i < value.length(); i++) {
            final char c = value.charAt(i);
            if (c == '%' && i + 2 < value.length()) {
                out[n++] = (byte) Integer.parseInt(value.substring(i + 1, i + 3), 16);
                i += 2;
            } else {
                out[n++] = (byte) c;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }
}

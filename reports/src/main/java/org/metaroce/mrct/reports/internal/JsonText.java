package org.metaroce.mrct.reports.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The two JSON encodings the reports use. {@link #PRETTY} for {@code report.json}: the layout of
 * {@link ReportPrettyPrinter}. {@link #HTML_SAFE} for the data embedded in {@code report.html}: compact, with {@code <}, {@code >}, {@code &}, U+2028 and U+2029
 * written as {@code \}{@code uXXXX} escapes so that no string from a result can close the {@code <script>} element or
 * open a comment.
 */
public enum JsonText {
    /** Indented, for {@code report.json}. */
    PRETTY,
    /** Compact and safe to embed in HTML. */
    HTML_SAFE;

    /**
     * Doubles through Jackson's fast writer (Schubfach): a 20,000-connection analysis spent a quarter of its report
     * thread in {@code Double.toString} (JFR); the values read back exactly and are never longer than the JDK's
     * ({@code JsonTextDoublesTest}), and the reports of the default run and of every fixture capture are unchanged.
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();

    /** Renders one value standing at {@code depth} (the nesting of the array or object holding it) of a document. */
    public String fragment(final JsonNode node, final int depth) {
        return new String(bytes(node, depth), StandardCharsets.UTF_8);
    }

    /** {@link #fragment} as UTF-8 bytes. */
    public byte[] bytes(final JsonNode node, final int depth) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator generator = configure(MAPPER.getFactory().createGenerator(out), depth)) {
            MAPPER.writeTree(generator, node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes {@code node} with {@code generator} (one of {@link #generator}'s). */
    public static void write(final JsonGenerator generator, final JsonNode node) throws IOException {
        MAPPER.writeTree(generator, node);
    }

    /** A generator writing a whole document to {@code out} (UTF-8); the caller closes it. */
    public JsonGenerator generator(final OutputStream out) throws IOException {
        final JsonGenerator generator = MAPPER.getFactory().createGenerator(out);
        generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        return configure(generator, 0);
    }

    private JsonGenerator configure(final JsonGenerator generator, final int depth) {
        if (this == PRETTY) {
            generator.setPrettyPrinter(new ReportPrettyPrinter(depth));
        } else {
            generator.setCharacterEscapes(HtmlEscapes.INSTANCE);
        }
        return generator;
    }

    /** Escapes for JSON inside an HTML {@code <script>} element. */
    private static final class HtmlEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        static final HtmlEscapes INSTANCE = new HtmlEscapes();
        private final int[] table;

        private HtmlEscapes() {
            table = CharacterEscapes.standardAsciiEscapesForJSON();
            table['<'] = CharacterEscapes.ESCAPE_STANDARD;
            table['>'] = CharacterEscapes.ESCAPE_STANDARD;
            table['&'] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return table;
        }

        @Override
        public SerializableString getEscapeSequence(final int ch) {
            if (ch == 0x2028 || ch == 0x2029) {
                return new com.fasterxml.jackson.core.io.SerializedString(String.format("\\u%04x", ch));
            }
            return null;
        }
    }
}

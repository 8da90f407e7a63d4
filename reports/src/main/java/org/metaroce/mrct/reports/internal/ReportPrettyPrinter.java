package org.metaroce.mrct.reports.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;
import java.io.IOException;

/**
 * The layout of {@code report.json}: two spaces a level, one member or element a line, {@code "key": value}, {@code \n}
 * line ends; but every object or array opened deeper than {@link #FLAT_DEPTH} is written on one line
 * ({@code {"index": 0, "direction": "TO_DUT", ...}}). So a case lists one frame, one field diff and one series a line,
 * which keeps the file readable and about half the size of a fully indented one (it is rewritten after every case).
 */
final class ReportPrettyPrinter implements PrettyPrinter {
    /** Containers nested deeper than this (root object = 1, its {@code cases} = 2, a case = 3, ...) go on one line. */
    static final int FLAT_DEPTH = 4;

    private final int offset;
    private int nesting;

    /** A printer for a value that will stand {@code offset} levels deep in its document. */
    ReportPrettyPrinter(final int offset) {
        this.offset = offset;
    }

    private boolean flat() {
        return nesting + offset > FLAT_DEPTH;
    }

    private void newline(final JsonGenerator g, final int level) throws IOException {
        g.writeRaw('\n');
        for (int i = 0; i < level + offset; i++) {
            g.writeRaw("  ");
        }
    }

    @Override
    public void writeRootValueSeparator(final JsonGenerator g) throws IOException {
        g.writeRaw('\n');
    }

    @Override
    public void writeStartObject(final JsonGenerator g) throws IOException {
        g.writeRaw('{');
        nesting++;
    }

    @Override
    public void beforeObjectEntries(final JsonGenerator g) throws IOException {
        if (!flat()) {
            newline(g, nesting);
        }
    }

    @Override
    public void writeObjectFieldValueSeparator(final JsonGenerator g) throws IOException {
        g.writeRaw(": ");
    }

    @Override
    public void writeObjectEntrySeparator(final JsonGenerator g) throws IOException {
        separate(g);
    }

    @Override
    public void writeEndObject(final JsonGenerator g, final int entries) throws IOException {
        close(g, entries, '}');
    }

    @Override
    public void writeStartArray(final JsonGenerator g) throws IOException {
        g.writeRaw('[');
        nesting++;
    }

    @Override
    public void beforeArrayValues(final JsonGenerator g) throws IOException {
        if (!flat()) {
            newline(g, nesting);
        }
    }

    @Override
    public void writeArrayValueSeparator(final JsonGenerator g) throws IOException {
        separate(g);
    }

    @Override
    public void writeEndArray(final JsonGenerator g, final int values) throws IOException {
        close(g, values, ']');
    }

    /** A comma between entries or values: then a space on a flat level, a new line otherwise. */
    private void separate(final JsonGenerator g) throws IOException {
        g.writeRaw(',');
        if (flat()) {
            g.writeRaw(' ');
        } else {
            newline(g, nesting);
        }
    }

    /** Leaves a level: a new line before the bracket when the level was not flat and held something. */
    private void close(final JsonGenerator g, final int count, final char bracket) throws IOException {
        final boolean wasFlat = flat();
        nesting--;
        if (count > 0 && !wasFlat) {
            newline(g, nesting);
        }
        g.writeRaw(bracket);
    }
}

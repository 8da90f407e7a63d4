package org.metaroce.mrct.reports.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes the {@code report.json} document: the run-level members, rebuilt on every write (they are small), then the
 * cases as UTF-8 fragments each rendered once when its case finished. A rewrite after every case is then a copy of
 * bytes, not a re-serialisation of every frame. The bytes are exactly what Jackson would write for the whole tree in
 * the same encoding (a test checks this).
 */
public final class JsonReport {
    /** The {@code format} member of every report. */
    public static final String FORMAT = "mrct-report";
    /** The {@code version} member: the schema version. */
    public static final int VERSION = 1;
    /** Nesting of a case object in the document (root object, {@code cases} array). */
    public static final int CASE_DEPTH = 2;

    private static final byte[] PRETTY_FIRST = "\n    ".getBytes(StandardCharsets.UTF_8);
    private static final byte[] PRETTY_NEXT = ",\n    ".getBytes(StandardCharsets.UTF_8);
    private static final byte[] PRETTY_END = "\n  ]\n}\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] PRETTY_END_EMPTY = "]\n}\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] COMPACT_NEXT = {','};
    private static final byte[] COMPACT_END = "]}".getBytes(StandardCharsets.UTF_8);

    private JsonReport() {
    }

    /** The run-level members of the document for {@code state}, with an empty {@code cases} array last. */
    public static ObjectNode head(final RunState state) {
        final ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        root.put("complete", state.complete());
        root.put("finished", state.finished());
        root.put("overall", state.overall().name());
        root.put("reason", Text.wellFormed(state.reason()));
        root.set("run", JsonModel.runInfo(state.info()));
        root.put("end", JsonModel.instant(state.end()));
        root.set("counts", JsonModel.counts(state.counts()));
        root.set("rules", JsonModel.rules(state.rules()));
        root.set("baseline", JsonModel.baseline(state.baseline()));
        root.putArray("cases");
        return root;
    }

    /**
     * Writes the document for {@code state} to {@code out}: the head, then {@code cases}, each rendered by
     * {@code encoding} at {@link #CASE_DEPTH} ({@link JsonText#bytes}).
     */
    public static void write(final OutputStream out, final JsonText encoding, final RunState state,
                             final List<byte[]> cases) throws IOException {
        write(out, encoding, state, cases.size(), o -> {
            for (int i = 0; i < cases.size(); i++) {
                o.write(separator(encoding, i));
                o.write(cases.get(i));
            }
        });
    }

    /**
     * Writes the document for {@code state} to {@code out}: the head, then {@code count} cases that {@code cases}
     * writes, each preceded by its {@link #separator}.
     */
    public static void write(final OutputStream out, final JsonText encoding, final RunState state, final int count,
                             final AtomicFile.Content cases) throws IOException {
        final String head = new String(encoding.bytes(head(state), 0), StandardCharsets.UTF_8);
        final boolean pretty = encoding == JsonText.PRETTY;
        final String emptyEnd = pretty ? "[]\n}" : "[]}";
        if (!head.endsWith(emptyEnd)) {
            throw new IllegalStateException("unexpected end of the report head: " + head.substring(head.length() - 8));
        }
        out.write(head.substring(0, head.length() - emptyEnd.length() + 1).getBytes(StandardCharsets.UTF_8));
        cases.writeTo(out);
        out.write(pretty ? count == 0 ? PRETTY_END_EMPTY : PRETTY_END : COMPACT_END);
    }

    /** The bytes before case {@code index} (0-based) of the {@code cases} array in {@code encoding}. */
    public static byte[] separator(final JsonText encoding, final int index) {
        if (encoding == JsonText.PRETTY) {
            return (index == 0 ? PRETTY_FIRST : PRETTY_NEXT).clone();
        }
        return index == 0 ? new byte[0] : COMPACT_NEXT.clone();
    }
}

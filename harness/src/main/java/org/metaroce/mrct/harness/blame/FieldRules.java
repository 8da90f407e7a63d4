package org.metaroce.mrct.harness.blame;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.metaroce.mrct.harness.spec.CounterDefinition;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * Which rules govern each field of a frame a device sends ({@code field-rules.tsv} beside this class, written from the
 * spec's field tables and rules), and each counter (every rule whose text names the counter, in spec order).
 */
public final class FieldRules {
    /** One row of the table. */
    public record Row(String field, List<String> kinds, List<String> rules, int line) {
    }

    private static final String RESOURCE = "field-rules.tsv";
    private final List<Row> rows;
    private final Map<String, List<String>> counters;

    private FieldRules(final List<Row> rows, final Map<String, List<String>> counters) {
        this.rows = List.copyOf(rows);
        this.counters = counters;
    }

    /** The bundled table, with the counters of {@code spec}. */
    public static FieldRules bundled(final Specification spec) {
        try (InputStream in = FieldRules.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return new FieldRules(parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))),
                counterRules(spec));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Row> parse(final BufferedReader reader) throws IOException {
        final List<Row> rows = new ArrayList<>();
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            final String[] columns = line.split("\t");
            if (columns.length != 3) {
                throw new IllegalStateException(RESOURCE + ":" + number + ": expected 3 tab-separated columns");
            }
            rows.add(new Row(columns[0], Arrays.asList(columns[1].split(",")), Arrays.asList(columns[2].split(",")),
                number));
        }
        return rows;
    }

    private static Map<String, List<String>> counterRules(final Specification spec) {
        final Map<String, List<String>> map = new LinkedHashMap<>();
        for (final CounterDefinition counter : spec.counters()) {
            final Pattern word = Pattern.compile("\\b" + Pattern.quote(counter.name()) + "\\b");
            final List<String> rules = new ArrayList<>();
            for (final Rule rule : spec.rules().values()) {
                if (word.matcher(rule.text()).find()) {
                    rules.add(rule.id());
                }
            }
            map.put(counter.name(), List.copyOf(rules));
        }
        return map;
    }

    /** Every row, in file order. */
    public List<Row> rows() {
        return rows;
    }

    /**
     * The rules governing {@code field} in a frame of {@code kind} ({@link #kind}; the first matching row), or an
     * empty list.
     */
    public List<String> rules(final String field, final String kind) {
        for (final Row row : rows) {
            if (row.field().equals(field) && (row.kinds().contains("any") || row.kinds().contains(kind))) {
                return row.rules();
            }
        }
        return List.of();
    }

    /** The rules that name {@code counter} (the first is the default), or an empty list. */
    public List<String> counterRules(final String counter) {
        return counters.getOrDefault(counter, List.of());
    }

    /** The frame kind a row's second column names for {@code frame}: an ACKNOWLEDGE is an ack or a nak. */
    public static String kind(final DecodedFrame frame) {
        if (frame == null || !frame.isRoce()) {
            return "any";
        }
        if (frame.opcode().kind() == OpKind.ACKNOWLEDGE && frame.has(HeaderKind.AETH)
            && AethSyndrome.valueOf(frame.aeth().syndromeValue()).type() != AethSyndrome.Type.ACK) {
            return "nak";
        }
        return kind(frame.opcode());
    }

    /** The frame kind a row's second column names for {@code opcode}. */
    public static String kind(final Opcode opcode) {
        if (opcode == null) {
            return "any";
        }
        final OpKind kind = opcode.kind();
        if (kind.isRequest()) {
            return "request";
        }
        return switch (kind) {
            case RDMA_READ_RESPONSE -> "read_response";
            case ATOMIC_ACKNOWLEDGE -> "atomic_ack";
            case CNP -> "cnp";
            case ACKNOWLEDGE -> "ack";
            default -> kind.name().toLowerCase(Locale.ROOT);
        };
    }
}

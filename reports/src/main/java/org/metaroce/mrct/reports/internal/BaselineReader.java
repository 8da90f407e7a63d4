package org.metaroce.mrct.reports.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.result.BaselineEntry;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reports.BaselineProblem;

/**
 * Reads a baseline: a YAML ({@code .yaml}, {@code .yml}, anything else) or JSON ({@code .json}) list of
 * {@code {case, verdict, reason}} mappings. Reads the whole file, collecting every problem with its line (unknown
 * verdict, duplicate case, missing, empty or unknown key, an entry that is not a mapping, a syntax error), so that
 * one run of the tool shows them all.
 */
public final class BaselineReader {
    private static final List<String> KEYS = List.of("case", "verdict", "reason");

    private final String file;
    private final List<BaselineProblem> problems = new ArrayList<>();
    private final List<BaselineEntry> entries = new ArrayList<>();
    private final Map<String, Integer> firstLine = new HashMap<>();

    private BaselineReader(final String file) {
        this.file = file;
    }

    /** The result of reading: the entries that were well-formed and every problem. */
    public record Result(List<BaselineEntry> entries, List<BaselineProblem> problems) {
    }

    /** Reads {@code path}. */
    public static Result read(final Path path) {
        final BaselineReader reader = new BaselineReader(path.toString());
        final String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        final JsonFactory factory = name.endsWith(".json") ? new JsonFactory() : new YAMLFactory();
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (IOException e) {
            reader.problem(0, "cannot read the file: " + e);
            return reader.result();
        }
        try (JsonParser parser = factory.createParser(bytes)) {
            reader.parse(parser);
        } catch (JsonProcessingException e) {
            final int line = e.getLocation() == null ? 0 : Math.max(0, e.getLocation().getLineNr());
            reader.problem(line, "not valid " + (factory instanceof YAMLFactory ? "YAML" : "JSON") + ": "
                + Text.oneLine(e.getOriginalMessage(), 300));
        } catch (IOException e) {
            reader.problem(0, "cannot read the file: " + e);
        }
        return reader.result();
    }

    private Result result() {
        return new Result(List.copyOf(entries), List.copyOf(problems));
    }

    private void problem(final int line, final String message) {
        problems.add(new BaselineProblem(file, line, message));
    }

    private static int line(final JsonParser parser) {
        return Math.max(0, parser.currentTokenLocation().getLineNr());
    }

    private void parse(final JsonParser parser) throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null || token == JsonToken.VALUE_NULL) {
            problem(1, "the file is empty; a baseline with no known failures is written []");
            return;
        }
        if (token != JsonToken.START_ARRAY) {
            problem(line(parser), "a baseline is a list of {case, verdict, reason} entries, not " + describe(token));
            return;
        }
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY && token != null) {
            final int entryLine = line(parser);
            if (token != JsonToken.START_OBJECT) {
                problem(entryLine, "an entry must be a mapping with case, verdict and reason, not " + describe(token));
                parser.skipChildren();
                continue;
            }
            entry(parser, entryLine);
        }
    }

    private void entry(final JsonParser parser, final int entryLine) throws IOException {
        final Map<String, String> values = new LinkedHashMap<>();
        final Map<String, Integer> lines = new HashMap<>();
        boolean broken = false;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            final String key = parser.currentName();
            final JsonToken value = parser.nextToken();
            final int valueLine = line(parser);
            if (!KEYS.contains(key)) {
                problem(valueLine, "unknown key '" + key + "' (an entry has case, verdict and reason)");
                parser.skipChildren();
                continue;
            }
            if (values.containsKey(key)) {
                problem(valueLine, "key '" + key + "' given twice in one entry");
                broken = true;
                parser.skipChildren();
                continue;
            }
            if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                problem(valueLine, "'" + key + "' must be a single value, not " + describe(value));
                parser.skipChildren();
                broken = true;
                continue;
            }
            final String text = value == JsonToken.VALUE_NULL ? "" : parser.getText().trim();
            if (text.isEmpty()) {
                problem(valueLine, "'" + key + "' is empty");
                broken = true;
            }
            values.put(key, text);
            lines.put(key, valueLine);
        }
        for (final String key : KEYS) {
            if (!values.containsKey(key)) {
                problem(entryLine, "entry has no '" + key + "' (an entry has case, verdict and reason)");
                broken = true;
            }
        }
        final Verdict verdict = values.containsKey("verdict") ? verdict(values.get("verdict")) : null;
        if (values.containsKey("verdict") && !values.get("verdict").isEmpty() && verdict == null) {
            problem(lines.get("verdict"), "unknown verdict '" + values.get("verdict") + "' (verdicts are "
                + List.of(Verdict.values()) + ")");
            broken = true;
        }
        final String caseId = values.get("case");
        if (caseId != null && !caseId.isEmpty()) {
            final Integer first = firstLine.putIfAbsent(caseId, lines.get("case"));
            if (first != null) {
                problem(lines.get("case"), "duplicate case '" + caseId + "' (first listed at line " + first + ")");
                broken = true;
            }
        }
        if (!broken) {
            entries.add(new BaselineEntry(caseId, verdict, values.get("reason")));
        }
    }

    /** A verdict by name, case and separators ({@code not-applicable}) forgiven; null when unknown. */
    public static Verdict verdict(final String text) {
        final String name = text.trim().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        for (final Verdict verdict : Verdict.values()) {
            if (verdict.name().equals(name)) {
                return verdict;
            }
        }
        return null;
    }

    private static String describe(final JsonToken token) {
        switch (token) {
            case START_OBJECT:
                return "a mapping";
            case START_ARRAY:
                return "a list";
            case VALUE_STRING:
                return "a string";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "a number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "a boolean";
            case VALUE_NULL:
                return "null";
            default:
                return token.toString();
        }
    }
}

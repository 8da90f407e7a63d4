package org.metaroce.mrct.harness.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads YAML (and JSON, a subset) into a {@link YNode} tree with line numbers, using Jackson's streaming YAML parser.
 * Syntax errors and duplicate keys become {@link YamlProblem}s; the reader never throws on bad content.
 */
public final class YamlReader {
    private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

    private YamlReader() {
    }

    /** Result of reading one document: the tree (null when unreadable) and the problems found. */
    public record Result(YNode root, List<YamlProblem> problems) {
    }

    /** Reads {@code text}, naming it {@code file} in problems. */
    public static Result read(final String file, final String text) {
        final List<YamlProblem> problems = new ArrayList<>();
        try (JsonParser parser = FACTORY.createParser(text)) {
            final JsonToken first = parser.nextToken();
            if (first == null) {
                problems.add(new YamlProblem(file, 1, "the file is empty"));
                return new Result(null, problems);
            }
            final YNode root = node(parser, file, problems);
            if (parser.nextToken() != null) {
                problems.add(new YamlProblem(file, line(parser.currentTokenLocation()),
                    "more than one YAML document; a file holds exactly one"));
            }
            return new Result(root, problems);
        } catch (JsonProcessingException e) {
            final JsonLocation location = e.getLocation();
            problems.add(new YamlProblem(file, location == null ? 0 : line(location),
                "YAML syntax error: " + e.getOriginalMessage().lines().findFirst().orElse("unreadable")));
            return new Result(null, problems);
        } catch (IOException e) {
            problems.add(new YamlProblem(file, 0, "cannot read: " + e.getMessage()));
            return new Result(null, problems);
        }
    }

    private static int line(final JsonLocation location) {
        return Math.max(1, location.getLineNr());
    }

    private static YNode node(final JsonParser parser, final String file, final List<YamlProblem> problems)
        throws IOException {
        final JsonToken token = parser.currentToken();
        final int line = line(parser.currentTokenLocation());
        switch (token) {
            case START_OBJECT: {
                final Map<String, YNode> entries = new LinkedHashMap<>();
                final Map<String, Integer> keyLines = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    final String key = parser.currentName();
                    final int keyLine = line(parser.currentTokenLocation());
                    parser.nextToken();
                    final YNode value = node(parser, file, problems);
                    if (entries.containsKey(key)) {
                        problems.add(new YamlProblem(file, keyLine, "duplicate key '" + key + "' (first at line "
                            + keyLines.get(key) + ")"));
                        continue;
                    }
                    entries.put(key, value);
                    keyLines.put(key, keyLine);
                }
                return new YMap(file, line, entries, keyLines);
            }
            case START_ARRAY: {
                final List<YNode> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    items.add(node(parser, file, problems));
                }
                return new YList(file, line, items);
            }
            case VALUE_STRING:
                return new YScalar(file, line, parser.getText(), parser.getText());
            case VALUE_NUMBER_INT:
                return new YScalar(file, line, parser.getNumberValue() instanceof Integer i ? Long.valueOf(i)
                    : parser.getNumberValue(), textOf(parser));
            case VALUE_NUMBER_FLOAT:
                return new YScalar(file, line, parser.getDoubleValue(), textOf(parser));
            case VALUE_TRUE:
                return new YScalar(file, line, Boolean.TRUE, "true");
            case VALUE_FALSE:
                return new YScalar(file, line, Boolean.FALSE, "false");
            case VALUE_NULL:
                return new YScalar(file, line, null, "null");
            default:
                problems.add(new YamlProblem(file, line, "unexpected YAML token " + token));
                return new YScalar(file, line, null, "");
        }
    }

    private static String textOf(final JsonParser parser) throws IOException {
        if (parser instanceof YAMLParser) {
            return parser.getText();
        }
        return parser.getText();
    }
}

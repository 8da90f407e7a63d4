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
 * Syntax errors, duplicate keys and the YAML features the inputs do not use (tags, aliases, merge keys) become
 * {@link YamlProblem}s with their line; the reader never throws on bad content.
 *
 * <p>Inputs are bounded before parsing: SnakeYAML's scanner re-copies its window while it reads one token, so its time
 * grows with the square of the longest token (a 10 MB comment line took minutes). With lines of at most
 * {@value #MAX_LINE} characters and files of at most {@value #MAX_CHARS} characters the reader stays linear.
 */
public final class YamlReader {
    /** Longest input, in characters (case files are a few kilobytes). */
    public static final int MAX_CHARS = 1 << 20;
    /** Longest line, in characters. */
    public static final int MAX_LINE = 1 << 17;

    private static final YAMLFactory FACTORY = YAMLFactory.builder().build();

    private YamlReader() {
    }

    /** Result of reading one document: the tree (null when unreadable) and the problems found. */
    public record Result(YNode root, List<YamlProblem> problems) {
    }

    /** Reads {@code text}, naming it {@code file} in problems. */
    public static Result read(final String file, final String text) {
        final List<YamlProblem> problems = new ArrayList<>();
        if (!withinLimits(file, text, problems)) {
            return new Result(null, problems);
        }
        final int[] lastLine = {1};
        try (JsonParser parser = FACTORY.createParser(text)) {
            final JsonToken first = parser.nextToken();
            if (first == null) {
                problems.add(new YamlProblem(file, 1, "the file is empty"));
                return new Result(null, problems);
            }
            final YNode root = node(parser, file, problems, lastLine);
            if (parser.nextToken() != null) {
                problems.add(new YamlProblem(file, line(parser.currentTokenLocation()),
                    "more than one YAML document; a file holds exactly one"));
            }
            return new Result(root, problems);
        } catch (JsonProcessingException e) {
            final JsonLocation location = e.getLocation();
            problems.add(new YamlProblem(file, location == null || location.getLineNr() < 1 ? lastLine[0]
                : line(location), "YAML syntax error: " + firstLine(e.getOriginalMessage())));
            return new Result(null, problems);
        } catch (IOException | RuntimeException e) {
            problems.add(new YamlProblem(file, lastLine[0], "unreadable YAML: " + firstLine(e.getMessage())));
            return new Result(null, problems);
        }
    }

    private static String firstLine(final String message) {
        return message == null ? "unreadable" : message.lines().findFirst().orElse("unreadable");
    }

    private static boolean withinLimits(final String file, final String text, final List<YamlProblem> problems) {
        if (text.length() > MAX_CHARS) {
            problems.add(new YamlProblem(file, 1, "the file has " + text.length() + " characters; the limit is "
                + MAX_CHARS));
            return false;
        }
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                if (i - start > MAX_LINE) {
                    problems.add(new YamlProblem(file, line, "line " + line + " has " + (i - start)
                        + " characters; the limit is " + MAX_LINE));
                    return false;
                }
                line++;
                start = i + 1;
            }
        }
        return true;
    }

    private static int line(final JsonLocation location) {
        return Math.max(1, location.getLineNr());
    }

    private static YNode node(final JsonParser parser, final String file, final List<YamlProblem> problems,
                              final int[] lastLine) throws IOException {
        final JsonToken token = parser.currentToken();
        final int line = line(parser.currentTokenLocation());
        lastLine[0] = line;
        final String tag = parser.getTypeId() instanceof String t ? t : null;
        if (tag != null) {
            problems.add(new YamlProblem(file, line, "YAML tag '!" + tag + "' is not supported: write plain values"));
        }
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            problems.add(new YamlProblem(file, line, "YAML alias '*" + parser.getText() + "' is not supported: write "
                + "the value out"));
            return new YScalar(file, line, null, "");
        }
        switch (token) {
            case START_OBJECT: {
                final Map<String, YNode> entries = new LinkedHashMap<>();
                final Map<String, Integer> keyLines = new LinkedHashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    final String key = parser.currentName();
                    final int keyLine = line(parser.currentTokenLocation());
                    if (key.equals("<<")) {
                        problems.add(new YamlProblem(file, keyLine, "YAML merge key '<<' is not supported: write the "
                            + "keys out"));
                    }
                    parser.nextToken();
                    final YNode value = node(parser, file, problems, lastLine);
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
                    items.add(node(parser, file, problems, lastLine));
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

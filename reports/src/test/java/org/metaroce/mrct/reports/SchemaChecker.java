package org.metaroce.mrct.reports;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A small JSON Schema 2020-12 checker for the keywords {@code report-v1.schema.json} uses: {@code type},
 * {@code required}, {@code properties}, {@code additionalProperties}, {@code items}, {@code enum}, {@code const},
 * {@code oneOf}, {@code $ref} to {@code #/$defs/...}, {@code minimum}, {@code pattern} and {@code format: date-time}.
 * Any other keyword makes it throw, so the schema cannot quietly rely on something this checker ignores. (Written
 * for the tests instead of a schema-validator dependency.)
 */
final class SchemaChecker {
    private static final Set<String> ANNOTATIONS = Set.of("$schema", "$id", "title", "description", "$defs");
    private static final Set<String> KEYWORDS = Set.of("type", "required", "properties", "additionalProperties",
        "items", "enum", "const", "oneOf", "$ref", "minimum", "pattern", "format");

    private final JsonNode root;

    SchemaChecker(final JsonNode root) {
        this.root = root;
    }

    /** Every way {@code document} breaks the schema, each as {@code <json pointer>: <problem>}; empty when it conforms. */
    List<String> check(final JsonNode document) {
        final List<String> problems = new ArrayList<>();
        check(root, document, "", problems);
        return problems;
    }

    private void check(final JsonNode schema, final JsonNode value, final String at, final List<String> problems) {
        final Iterator<Map.Entry<String, JsonNode>> keywords = schema.properties().iterator();
        while (keywords.hasNext()) {
            final Map.Entry<String, JsonNode> entry = keywords.next();
            final String keyword = entry.getKey();
            final JsonNode arg = entry.getValue();
            if (ANNOTATIONS.contains(keyword)) {
                continue;
            }
            if (!KEYWORDS.contains(keyword)) {
                throw new IllegalStateException("the schema uses '" + keyword + "', which this checker does not know");
            }
            switch (keyword) {
                case "$ref":
                    check(resolve(arg.asText()), value, at, problems);
                    break;
                case "type":
                    if (!typeMatches(arg, value)) {
                        problems.add(at + ": expected type " + arg + ", found " + value.getNodeType());
                    }
                    break;
                case "const":
                    if (!arg.equals(value)) {
                        problems.add(at + ": expected " + arg + ", found " + value);
                    }
                    break;
                case "enum": {
                    boolean found = false;
                    for (final JsonNode option : arg) {
                        found |= option.equals(value);
                    }
                    if (!found) {
                        problems.add(at + ": " + value + " is not one of " + arg);
                    }
                    break;
                }
                case "required":
                    if (value.isObject()) {
                        for (final JsonNode name : arg) {
                            if (!value.has(name.asText())) {
                                problems.add(at + ": missing required member '" + name.asText() + "'");
                            }
                        }
                    }
                    break;
                case "properties":
                    if (value.isObject()) {
                        arg.properties().forEach(p -> {
                            if (value.has(p.getKey())) {
                                check(p.getValue(), value.get(p.getKey()), at + "/" + p.getKey(), problems);
                            }
                        });
                    }
                    break;
                case "additionalProperties":
                    if (value.isObject()) {
                        final JsonNode declared = schema.path("properties");
                        value.properties().forEach(member -> {
                            if (declared.has(member.getKey())) {
                                return;
                            }
                            if (arg.isBoolean()) {
                                if (!arg.asBoolean()) {
                                    problems.add(at + ": unexpected member '" + member.getKey() + "'");
                                }
                            } else {
                                check(arg, member.getValue(), at + "/" + member.getKey(), problems);
                            }
                        });
                    }
                    break;
                case "items":
                    if (value.isArray()) {
                        for (int i = 0; i < value.size(); i++) {
                            check(arg, value.get(i), at + "/" + i, problems);
                        }
                    }
                    break;
                case "oneOf": {
                    int matches = 0;
                    for (final JsonNode option : arg) {
                        final List<String> sub = new ArrayList<>();
                        check(option, value, at, sub);
                        matches += sub.isEmpty() ? 1 : 0;
                    }
                    if (matches != 1) {
                        problems.add(at + ": matches " + matches + " of the oneOf alternatives, not exactly 1");
                    }
                    break;
                }
                case "minimum":
                    if (value.isNumber() && value.asDouble() < arg.asDouble()) {
                        problems.add(at + ": " + value + " is below the minimum " + arg);
                    }
                    break;
                case "pattern":
                    if (value.isTextual() && !Pattern.compile(arg.asText()).matcher(value.asText()).find()) {
                        problems.add(at + ": '" + value.asText() + "' does not match " + arg.asText());
                    }
                    break;
                case "format":
                    if (!"date-time".equals(arg.asText())) {
                        throw new IllegalStateException("format " + arg + " is not checked");
                    }
                    if (value.isTextual()) {
                        try {
                            Instant.parse(value.asText());
                        } catch (DateTimeParseException e) {
                            problems.add(at + ": '" + value.asText() + "' is not an ISO 8601 date-time");
                        }
                    }
                    break;
                default:
                    throw new IllegalStateException(keyword);
            }
        }
    }

    private JsonNode resolve(final String ref) {
        if (!ref.startsWith("#/$defs/")) {
            throw new IllegalStateException("only #/$defs/ references are supported: " + ref);
        }
        final JsonNode target = root.path("$defs").path(ref.substring("#/$defs/".length()));
        if (target.isMissingNode()) {
            throw new IllegalStateException("dangling $ref " + ref);
        }
        return target;
    }

    private static boolean typeMatches(final JsonNode type, final JsonNode value) {
        if (type.isArray()) {
            for (final JsonNode one : type) {
                if (typeMatches(one, value)) {
                    return true;
                }
            }
            return false;
        }
        switch (type.asText()) {
            case "object":
                return value.isObject();
            case "array":
                return value.isArray();
            case "string":
                return value.isTextual();
            case "integer":
                return value.isIntegralNumber();
            case "number":
                return value.isNumber();
            case "boolean":
                return value.isBoolean();
            case "null":
                return value.isNull();
            default:
                throw new IllegalStateException("unknown type " + type);
        }
    }

    /** Every member name the schema declares under any {@code properties}. */
    List<String> declaredNames() {
        final List<String> names = new ArrayList<>();
        collect(root, names);
        return names;
    }

    private static void collect(final JsonNode node, final List<String> names) {
        if (node.isObject()) {
            node.properties().forEach(entry -> {
                if (entry.getKey().equals("properties") && entry.getValue().isObject()) {
                    entry.getValue().fieldNames().forEachRemaining(name -> {
                        if (!names.contains(name)) {
                            names.add(name);
                        }
                    });
                }
                collect(entry.getValue(), names);
            });
        } else if (node.isArray()) {
            node.forEach(child -> collect(child, names));
        }
    }
}

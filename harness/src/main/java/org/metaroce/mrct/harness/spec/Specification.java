package org.metaroce.mrct.harness.spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MetaRoCE specification as data: its numbered rules, PICS items, declared parameters and counters, read from
 * the Markdown document. Parsing never throws on bad content: every malformed rule line, duplicate ID or numbering
 * gap becomes a {@link SpecProblem}, and a build test fails when there is any.
 *
 * <p>A rule is a paragraph starting {@code **MR-<AREA>-<NNN>** (<LEVEL>, <ROLE>[, if <pics>])}; it ends at the next
 * blank line.
 */
public final class Specification {
    /** The areas of the specification, in document order. */
    public static final List<String> AREAS = List.of("WIRE", "HDR", "QP", "ORD", "ACK", "PLC", "CMP", "RD", "ATM",
        "SEC", "ROB", "REQ", "RTX", "CC", "MP", "LEG", "CONF");
    /** Resource path of the bundled specification. */
    public static final String RESOURCE = "/spec/metaroce-v1.md";

    private static final Pattern RULE = Pattern.compile(
        "^\\*\\*(MR-([A-Z]+)-(\\d{3}))\\*\\* \\((MUST|SHOULD|MAY), (responder|requester|any)(?:, if ([a-z0-9-]+))?\\) (.+)$");
    private static final Pattern RULE_START = Pattern.compile("^\\s*\\*{0,2}MR-");
    private static final Pattern VERSION = Pattern.compile("MetaRoCE v(\\d+\\.\\d+)");

    private final String source;
    private final String version;
    private final Map<String, Rule> rules;
    private final List<SpecProblem> problems;
    private final List<Parameter> parameters;
    private final List<PicsItem> picsItems;
    private final List<CounterDefinition> counters;
    private final String text;

    private Specification(final String source, final String version, final Map<String, Rule> rules,
                          final List<SpecProblem> problems, final List<Parameter> parameters,
                          final List<PicsItem> picsItems, final List<CounterDefinition> counters, final String text) {
        this.source = source;
        this.version = version;
        this.rules = Collections.unmodifiableMap(rules);
        this.problems = List.copyOf(problems);
        this.parameters = List.copyOf(parameters);
        this.picsItems = List.copyOf(picsItems);
        this.counters = List.copyOf(counters);
        this.text = text;
    }

    /** Reads the specification bundled with the suite. */
    public static Specification bundled() {
        try (InputStream in = Specification.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the specification " + RESOURCE + " is not on the class path");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "metaroce-v1.md");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a specification file. */
    public static Specification load(final Path path) throws IOException {
        return parse(Files.readString(path, StandardCharsets.UTF_8), path.toString());
    }

    /** Parses specification text; problems are collected, never thrown. */
    public static Specification parse(final String text, final String source) {
        final List<String> lines = text.lines().toList();
        final Map<String, Rule> rules = new LinkedHashMap<>();
        final List<SpecProblem> problems = new ArrayList<>();
        String section = "";
        String version = null;
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i);
            if (version == null) {
                final Matcher v = VERSION.matcher(line);
                if (v.find()) {
                    version = v.group(1);
                }
            }
            if (line.startsWith("#")) {
                section = line.replaceFirst("^#+\\s*", "").trim();
                continue;
            }
            if (!RULE_START.matcher(line).find()) {
                continue;
            }
            final Matcher m = RULE.matcher(line);
            if (!m.matches()) {
                problems.add(new SpecProblem(i + 1, "malformed rule line (expected **MR-<AREA>-<NNN>** (<LEVEL>, "
                    + "<ROLE>[, if <pics>]) text): " + abbreviate(line)));
                continue;
            }
            final String id = m.group(1);
            final String area = m.group(2);
            if (!AREAS.contains(area)) {
                problems.add(new SpecProblem(i + 1, "unknown area " + area + " in " + id + "; areas are " + AREAS));
            }
            final StringBuilder paragraph = new StringBuilder(m.group(7).trim());
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).isBlank() && !RULE_START.matcher(lines.get(j)).find()
                && !lines.get(j).startsWith("#")) {
                paragraph.append(' ').append(lines.get(j).trim());
                j++;
            }
            final Rule rule = new Rule(id, area, Integer.parseInt(m.group(3)), Level.valueOf(m.group(4)),
                Role.byLabel(m.group(5)), m.group(6), paragraph.toString(), section, i + 1);
            final Rule previous = rules.putIfAbsent(id, rule);
            if (previous != null) {
                problems.add(new SpecProblem(i + 1, "duplicate rule ID " + id + " (first at line " + previous.line()
                    + ")"));
            }
        }
        checkNumbering(rules, problems);
        final List<MarkdownTable> tables = MarkdownTable.parseAll(lines);
        final List<Parameter> parameters = Parameter.fromTables(tables, problems);
        final List<PicsItem> pics = PicsItem.fromTables(tables);
        final List<CounterDefinition> counters = CounterDefinition.fromTables(tables);
        checkPicsReferences(rules, pics, problems);
        if (rules.isEmpty()) {
            problems.add(new SpecProblem(1, "no rules found"));
        }
        return new Specification(source, version == null ? "unknown" : version, rules, problems, parameters, pics,
            counters, text);
    }

    private static void checkNumbering(final Map<String, Rule> rules, final List<SpecProblem> problems) {
        final Map<String, List<Rule>> byArea = new TreeMap<>();
        for (final Rule rule : rules.values()) {
            byArea.computeIfAbsent(rule.area(), a -> new ArrayList<>()).add(rule);
        }
        for (final List<Rule> area : byArea.values()) {
            for (int k = 0; k < area.size(); k++) {
                final Rule rule = area.get(k);
                if (rule.number() != k + 1) {
                    problems.add(new SpecProblem(rule.line(), rule.id() + " should be number " + String.format("%03d",
                        k + 1) + " of area " + rule.area() + " (rules are numbered in document order without gaps)"));
                    break;
                }
            }
        }
    }

    private static void checkPicsReferences(final Map<String, Rule> rules, final List<PicsItem> pics,
                                            final List<SpecProblem> problems) {
        if (pics.isEmpty()) {
            return;
        }
        for (final Rule rule : rules.values()) {
            if (rule.pics() != null && pics.stream().noneMatch(p -> p.name().equals(rule.pics()))) {
                problems.add(new SpecProblem(rule.line(), rule.id() + " depends on PICS item '" + rule.pics()
                    + "', which Appendix A does not list"));
            }
        }
    }

    private static String abbreviate(final String line) {
        return line.length() <= 100 ? line : line.substring(0, 100) + "...";
    }

    /** Where the text came from (file name). */
    public String source() {
        return source;
    }

    /** The version the document states ({@code 1.0}). */
    public String version() {
        return version;
    }

    /** Every rule by ID, in document order. */
    public Map<String, Rule> rules() {
        return rules;
    }

    /** The rule with this ID, or null. */
    public Rule rule(final String id) {
        return rules.get(id);
    }

    /** Problems found while parsing; empty for a well-formed document. */
    public List<SpecProblem> problems() {
        return problems;
    }

    /** Appendix B parameters. */
    public List<Parameter> parameters() {
        return parameters;
    }

    /** The parameter with this name, or null. */
    public Parameter parameter(final String name) {
        for (final Parameter parameter : parameters) {
            if (parameter.name().equals(name)) {
                return parameter;
            }
        }
        return null;
    }

    /** Appendix A PICS items. */
    public List<PicsItem> picsItems() {
        return picsItems;
    }

    /** Names of the PICS items. */
    public Set<String> picsNames() {
        final Set<String> names = new java.util.LinkedHashSet<>();
        for (final PicsItem item : picsItems) {
            names.add(item.name());
        }
        return names;
    }

    /** Appendix C counters. */
    public List<CounterDefinition> counters() {
        return counters;
    }

    /** The whole document. */
    public String text() {
        return text;
    }
}

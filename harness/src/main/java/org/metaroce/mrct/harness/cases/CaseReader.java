package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.spec.Parameter;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.yaml.Binder;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.spi.Capability;

/**
 * Binds one case file's YAML tree to a {@link CaseDef}, recording every problem with its line: the case's header
 * (identity, rules, role, PICS, capabilities, parameters and matrix) here, its setup in {@link SetupReader}, its steps
 * in {@link StepReader} and the readers of each step family. Every value is checked and typed once, here; the engine
 * parses nothing again. The case format is documented in {@code spec-cases/README.md}.
 */
final class CaseReader {
    private final ReadScope s;
    private final Binder b;
    private final String area;
    private final TemplateReader templates;
    private final SetupReader setupReader;
    private final StepReader stepReader;

    CaseReader(final Binder binder, final LoadContext context, final String area, final String file) {
        this.s = new ReadScope(binder, context, file);
        this.b = binder;
        this.area = area;
        this.templates = new TemplateReader(s);
        this.setupReader = new SetupReader(s, templates);
        this.stepReader = new StepReader(s, setupReader, templates);
    }

    CaseDef read(final YNode root) {
        final YMap map = b.map(root, "a case");
        if (map == null) {
            return null;
        }
        b.onlyKeys(map, "a case", "id", "title", "description", "rules", "role", "pics", "capabilities", "params",
            "matrix", "setup", "steps", "ignore", "exhaustive", "requires");
        final String id = text(map, "id", true);
        final String title = text(map, "title", true);
        final String description = text(map, "description", false);
        final List<String> rules = b.strings(b.required(map, "rules", "a case"), "rules");
        checkRules(map, rules);
        s.caseRules = List.copyOf(rules);
        final Role role = role(map);
        final List<String> pics = b.strings(map.get("pics"), "pics");
        for (final String item : pics) {
            if (!s.context.spec().picsNames().isEmpty() && !s.context.spec().picsNames().contains(item)) {
                s.problemAt(map, "pics", "unknown PICS item '" + item + "'; Appendix A lists "
                    + s.context.spec().picsNames());
            }
        }
        final List<Capability> capabilities = new ArrayList<>();
        for (final String label : b.strings(map.get("capabilities"), "capabilities")) {
            final Capability capability = s.word(map, "capabilities", label, Capability::byLabel, "capability",
                Arrays.stream(Capability.values()).map(Capability::label).toList());
            if (capability != null) {
                capabilities.add(capability);
            }
        }
        s.names.addAll(s.context.parameterNames());
        s.names.add("seed");
        final Map<String, Expr> params = params(map.get("params"), "params", false);
        final List<Map<String, Expr>> matrix = new ArrayList<>();
        final Map<String, Integer> variables = new LinkedHashMap<>();
        for (final YNode row : map.has("matrix") ? b.list(map.get("matrix")) : List.<YNode>of()) {
            matrix.add(params(row, "a matrix row", true));
            if (row instanceof YMap rowMap) {
                for (final String key : rowMap.keys()) {
                    if (!s.context.parameterNames().contains(key)) {
                        variables.putIfAbsent(key, rowMap.keyLine(key));
                    }
                }
            }
        }
        s.names.addAll(params.keySet());
        for (final Map<String, Expr> row : matrix) {
            s.names.addAll(row.keySet());
        }
        final List<Expr> requires = map.has("requires") ? s.exprs(map.get("requires"), "requires", Domain.ANY)
            : List.of();
        final List<ConnectionDef> connections = new ArrayList<>();
        final List<RegionDef> regions = new ArrayList<>();
        final List<Step> setupSteps = new ArrayList<>();
        if (map.has("setup")) {
            setup(map.get("setup"), connections, regions, setupSteps);
        }
        if (connections.isEmpty()) {
            b.problem(map, "a case needs at least one connection in setup.connections");
        }
        final YNode stepsNode = b.required(map, "steps", "a case");
        final List<Step> steps = stepsNode == null ? List.of() : stepReader.steps(stepsNode, Set.of(), "a case");
        final List<FrameTemplate> ignore = new ArrayList<>();
        for (final YNode node : map.has("ignore") ? b.list(map.get("ignore")) : List.<YNode>of()) {
            final YMap template = b.map(node, "an ignore entry");
            if (template != null) {
                ignore.add(templates.template(template, "an ignore entry"));
            }
        }
        final Boolean exhaustive = b.optionalBool(map, "exhaustive", "case");
        for (final Map.Entry<String, Integer> variable : variables.entrySet()) {
            if (!s.used.contains(variable.getKey())) {
                b.problem(s.file, variable.getValue(), "matrix variable '" + variable.getKey() + "' is neither a "
                    + "parameter (Appendix B or a QP attribute) nor used by any expression of the case");
            }
        }
        if (id == null || title == null || role == null) {
            return null;
        }
        return new CaseDef(id, title, description == null ? "" : description, area, s.file, rules, role, pics,
            capabilities, params, matrix, connections, regions, setupSteps, steps, ignore,
            exhaustive == null || exhaustive, requires);
    }

    private String text(final YMap map, final String key, final boolean required) {
        final YNode node = required ? b.required(map, key, "a case") : map.get(key);
        return node == null ? null : b.string(node, key);
    }

    private Role role(final YMap map) {
        final String text = text(map, "role", false);
        if (text == null) {
            return Role.RESPONDER;
        }
        final Role role = Role.byLabel(text);
        if (role != Role.RESPONDER && role != Role.REQUESTER) {
            s.problemAt(map, "role", "role must be responder or requester, not '" + text + "'");
            return null;
        }
        return role;
    }

    private void checkRules(final YMap map, final List<String> rules) {
        if (rules.isEmpty()) {
            s.problemAt(map, "rules", "a case must cite at least one rule");
        }
        for (final String ruleId : rules) {
            if (s.context.spec().rule(ruleId) == null) {
                s.problemAt(map, "rules", "cites unknown rule " + ruleId);
            }
        }
    }

    /**
     * Parameter values by name, constants checked against the parameter's range (bounds naming another parameter are
     * left to the run). With {@code variables}, names that are not parameters are accepted too: they are case
     * variables of a matrix row, which expressions use (checked once the whole case is read).
     */
    private Map<String, Expr> params(final YNode node, final String what, final boolean variables) {
        final Map<String, Expr> out = new LinkedHashMap<>();
        final YMap map = b.map(node, what);
        if (map == null) {
            return out;
        }
        for (final Map.Entry<String, YNode> entry : map.entries().entrySet()) {
            final String name = entry.getKey();
            if (!s.context.parameterNames().contains(name) && !(variables && name.matches("[a-z][a-z0-9_]*"))) {
                s.problemAt(map, name, "unknown parameter '" + name + "' (parameters are those of Appendix B and the "
                    + "QP attributes" + (variables ? "; a matrix variable is a lower-case name of letters, digits and _"
                    : "") + ")");
            }
            final Expr expr = s.expr(entry.getValue(), what + "." + name, Set.of(), Domain.ANY);
            if (expr == null) {
                continue;
            }
            final Parameter parameter = s.context.spec().parameter(name);
            final Long constant = expr.constantValue();
            if (parameter != null && constant != null) {
                final String problem = parameter.check(constant, other -> null);
                if (problem != null) {
                    s.problemAt(map, name, what + "." + name + ": " + problem);
                }
            }
            out.put(name, expr);
        }
        return out;
    }

    private void setup(final YNode node, final List<ConnectionDef> connections, final List<RegionDef> regions,
                       final List<Step> setupSteps) {
        final YMap setup = b.map(node, "setup");
        if (setup == null) {
            return;
        }
        b.onlyKeys(setup, "setup", "connections", "regions", "receives");
        for (final YNode item : b.list(setup.get("connections"))) {
            final ConnectionDef connection = setupReader.connection(item);
            if (connection != null) {
                connections.add(connection);
            }
        }
        for (final YNode item : b.list(setup.get("regions"))) {
            final RegionDef region = setupReader.region(item);
            if (region != null) {
                regions.add(region);
            }
        }
        for (final YNode item : b.list(setup.get("receives"))) {
            final YMap map = b.map(item, "a receive");
            if (map != null) {
                setupSteps.add(stepReader.postReceive(map));
            }
        }
    }
}

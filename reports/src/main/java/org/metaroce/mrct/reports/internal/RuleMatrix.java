package org.metaroce.mrct.reports.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The rule matrix of a run still in progress, built case by case as the cases finish (the finished run's matrix comes
 * from the harness in its {@link org.metaroce.mrct.harness.result.RunSummary}). Each row lists at most
 * {@link #LISTED} cases (those that do not pass first, {@link RuleVerdict.Builder#Builder(int)}) and counts the
 * others, so the matrix grows with the rules, not with the cases; its verdicts are those of every case.
 */
public final class RuleMatrix {
    /** Rules in specification order: by area as {@link Specification#AREAS} lists them, then by ID. */
    public static final Comparator<String> RULE_ORDER = Comparator.comparingInt(RuleMatrix::areaIndex)
        .thenComparing(Comparator.naturalOrder());
    /** Case IDs a row lists (in each of its lists) before it only counts. */
    public static final int LISTED = 100;

    /** A rule's builder and the level and role of the first case covering it (for a rule the spec does not know). */
    private record Row(RuleVerdict.Builder builder, Level level, Role role) {
    }

    private final Specification spec;
    private final Set<String> claimedPics;
    private final int listed;
    private final Map<String, Row> byRule = new TreeMap<>(RULE_ORDER);
    private List<RuleVerdict> rows;

    /**
     * An empty matrix.
     *
     * @param spec the specification (levels, roles, PICS of the rules), or null
     * @param claimedPics the PICS items the device claims
     * @param listed case IDs listed per row before the others are only counted
     */
    public RuleMatrix(final Specification spec, final Set<String> claimedPics, final int listed) {
        this.spec = spec;
        this.claimedPics = Set.copyOf(claimedPics);
        this.listed = listed;
    }

    /**
     * Adds a finished case to the rows of the rules it covers (cited, or blamed by its failure). A case failing blames
     * one rule only ({@link RuleVerdict#given}).
     */
    public void add(final CaseEntry entry) {
        final Set<String> touched = new LinkedHashSet<>(entry.rules());
        if (entry.failure() != null && entry.failure().rule() != null && !entry.failure().rule().isBlank()) {
            touched.add(entry.failure().rule());
        }
        for (final String rule : touched) {
            byRule.computeIfAbsent(rule, r -> new Row(new RuleVerdict.Builder(listed), entry.level(), entry.role()))
                .builder().add(rule, entry.id(), entry.verdict(), entry.failure());
        }
        rows = null;
    }

    /**
     * One row per rule covered so far, in {@link #RULE_ORDER}; level and role from the specification when it knows
     * the rule.
     */
    public List<RuleVerdict> rows() {
        if (rows == null) {
            final List<RuleVerdict> out = new ArrayList<>(byRule.size());
            for (final Map.Entry<String, Row> row : byRule.entrySet()) {
                final Rule rule = spec == null ? null : spec.rule(row.getKey());
                final Level level = rule != null ? rule.level() : row.getValue().level();
                final Role role = rule != null ? rule.role() : row.getValue().role();
                final boolean applicable = rule == null || rule.appliesTo(claimedPics);
                out.add(row.getValue().builder().build(row.getKey(), level, role, applicable));
            }
            rows = List.copyOf(out);
        }
        return rows;
    }

    private static int areaIndex(final String ruleId) {
        final int dash = ruleId.indexOf('-');
        final int next = dash < 0 ? -1 : ruleId.indexOf('-', dash + 1);
        final int index = next < 0 ? -1 : Specification.AREAS.indexOf(ruleId.substring(dash + 1, next));
        return index < 0 ? Specification.AREAS.size() : index;
    }
}

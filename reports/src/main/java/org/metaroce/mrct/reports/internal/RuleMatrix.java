package org.metaroce.mrct.reports.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The rule matrix of a run still in progress, computed from the cases done so far (the finished run's matrix comes
 * from the harness in its {@link org.metaroce.mrct.harness.result.RunSummary}).
 */
public final class RuleMatrix {
    /** Rules in specification order: by area as {@link Specification#AREAS} lists them, then by ID. */
    public static final Comparator<String> RULE_ORDER = Comparator.comparingInt(RuleMatrix::areaIndex)
        .thenComparing(Comparator.naturalOrder());

    private RuleMatrix() {
    }

    /** One row per rule covered by {@code cases}; level and role from the specification when it knows the rule. */
    public static List<RuleVerdict> of(final List<CaseEntry> cases, final Specification spec,
                                       final Set<String> claimedPics) {
        final Map<String, List<CaseEntry>> byRule = new TreeMap<>(RULE_ORDER);
        for (final CaseEntry entry : cases) {
            for (final String rule : entry.rules()) {
                byRule.computeIfAbsent(rule, r -> new ArrayList<>()).add(entry);
            }
        }
        final List<RuleVerdict> rows = new ArrayList<>();
        for (final Map.Entry<String, List<CaseEntry>> row : byRule.entrySet()) {
            final Rule rule = spec == null ? null : spec.rule(row.getKey());
            final CaseEntry first = row.getValue().get(0);
            final Level level = rule != null ? rule.level() : first.level();
            final Role role = rule != null ? rule.role() : first.role();
            final boolean applicable = rule == null || rule.appliesTo(claimedPics);
            final Map<String, Boolean> ids = new LinkedHashMap<>();
            Verdict worst = null;
            for (final CaseEntry entry : row.getValue()) {
                ids.put(entry.id(), Boolean.TRUE);
                worst = worst == null ? entry.verdict() : worst.worst(entry.verdict());
            }
            rows.add(new RuleVerdict(row.getKey(), level, role, applicable, List.copyOf(ids.keySet()),
                worst == null ? Verdict.NOT_APPLICABLE : worst));
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

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

    /**
     * One row per rule covered by {@code cases} (cited, or blamed by a failure); level and role from the specification
     * when it knows the rule. A case failing blames one rule only ({@link RuleVerdict#given}).
     */
    public static List<RuleVerdict> of(final List<CaseEntry> cases, final Specification spec,
                                       final Set<String> claimedPics) {
        final Map<String, RuleVerdict.Builder> byRule = new TreeMap<>(RULE_ORDER);
        final Map<String, CaseEntry> firstEntry = new LinkedHashMap<>();
        for (final CaseEntry entry : cases) {
            final Set<String> touched = new java.util.LinkedHashSet<>(entry.rules());
            if (entry.failure() != null && entry.failure().rule() != null && !entry.failure().rule().isBlank()) {
                touched.add(entry.failure().rule());
            }
            for (final String rule : touched) {
                byRule.computeIfAbsent(rule, r -> new RuleVerdict.Builder()).add(rule, entry.id(), entry.verdict(),
                    entry.failure());
                firstEntry.putIfAbsent(rule, entry);
            }
        }
        final List<RuleVerdict> rows = new ArrayList<>();
        for (final Map.Entry<String, RuleVerdict.Builder> row : byRule.entrySet()) {
            final Rule rule = spec == null ? null : spec.rule(row.getKey());
            final CaseEntry first = firstEntry.get(row.getKey());
            final Level level = rule != null ? rule.level() : first.level();
            final Role role = rule != null ? rule.role() : first.role();
            final boolean applicable = rule == null || rule.appliesTo(claimedPics);
            rows.add(row.getValue().build(row.getKey(), level, role, applicable));
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

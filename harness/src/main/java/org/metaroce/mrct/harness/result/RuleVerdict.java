package org.metaroce.mrct.harness.result;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/**
 * One row of the rule matrix: a rule, the cases covering it and the verdict they give it. A case that failed blaming
 * another rule says nothing about this one: it is listed in {@code citedBy}, not counted in the verdict; a case that
 * failed blaming this rule counts even when it does not cite it.
 *
 * @param rule the rule ID
 * @param level the rule's level (null when the rule is not in the specification)
 * @param role the role the rule binds (null when the rule is not in the specification)
 * @param applicable false when the device does not claim the rule's PICS item
 * @param cases IDs of the cases that cover it in this run (cite it, or failed blaming it)
 * @param verdict the worst verdict the cases give the rule; NOT_APPLICABLE when none ran; INCONCLUSIVE when every case
 *     citing it failed on another rule, so none could judge it
 * @param citedBy IDs of the cases that cite the rule and failed blaming another rule
 */
public record RuleVerdict(String rule, Level level, Role role, boolean applicable, List<String> cases,
                          Verdict verdict, List<String> citedBy) {
    public RuleVerdict {
        cases = List.copyOf(cases);
        citedBy = List.copyOf(citedBy);
    }

    /** A row without cases cited only by failures blaming other rules. */
    public RuleVerdict(final String rule, final Level level, final Role role, final boolean applicable,
                       final List<String> cases, final Verdict verdict) {
        this(rule, level, role, applicable, cases, verdict, List.of());
    }

    /**
     * The verdict a case gives {@code rule}: its own, unless it failed (FAIL or WARN) blaming another rule, then null
     * (the case only cites the rule).
     */
    public static Verdict given(final String rule, final Verdict caseVerdict, final Failure failure) {
        if ((caseVerdict == Verdict.FAIL || caseVerdict == Verdict.WARN) && failure != null
            && failure.rule() != null && !failure.rule().isBlank() && !failure.rule().equals(rule)) {
            return null;
        }
        return caseVerdict;
    }

    /** Accumulates one row from the cases citing or blaming a rule. */
    public static final class Builder {
        private final List<String> cases = new ArrayList<>();
        /** The IDs in {@link #cases}, for a constant-time check: a capture analysis gives a rule 10^5 cases. */
        private final Set<String> seen = new HashSet<>();
        private final List<String> citedBy = new ArrayList<>();
        private Verdict worst;

        /** Adds a case that cites the rule or whose failure blames it. */
        public Builder add(final String rule, final String caseId, final Verdict caseVerdict, final Failure failure) {
            if (!seen.add(caseId)) {
                return this;
            }
            cases.add(caseId);
            final Verdict given = given(rule, caseVerdict, failure);
            if (given == null) {
                citedBy.add(caseId);
            } else {
                worst = worst == null ? given : worst.worst(given);
            }
            return this;
        }

        /** The row. */
        public RuleVerdict build(final String rule, final Level level, final Role role, final boolean applicable) {
            final Verdict verdict = worst != null ? worst : citedBy.isEmpty() ? Verdict.NOT_APPLICABLE
                : Verdict.INCONCLUSIVE;
            return new RuleVerdict(rule, level, role, applicable, cases, verdict, citedBy);
        }
    }
}

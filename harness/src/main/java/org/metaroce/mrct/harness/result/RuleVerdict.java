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
 * @param casesNotListed cases covering the rule that {@code cases} does not list (a row built with a limit,
 *     {@link Builder#Builder(int)}: a capture analysis of 10^5 connections); 0 when every one is listed
 * @param citedByNotListed cases citing the rule and failing on another that {@code citedBy} does not list
 */
public record RuleVerdict(String rule, Level level, Role role, boolean applicable, List<String> cases,
                          Verdict verdict, List<String> citedBy, int casesNotListed, int citedByNotListed) {
    public RuleVerdict {
        cases = List.copyOf(cases);
        citedBy = List.copyOf(citedBy);
        if (casesNotListed < 0 || citedByNotListed < 0) {
            throw new IllegalArgumentException("cases not listed cannot be negative");
        }
    }

    /** A row listing every case. */
    public RuleVerdict(final String rule, final Level level, final Role role, final boolean applicable,
                       final List<String> cases, final Verdict verdict, final List<String> citedBy) {
        this(rule, level, role, applicable, cases, verdict, citedBy, 0, 0);
    }

    /** A row without cases cited only by failures blaming other rules. */
    public RuleVerdict(final String rule, final Level level, final Role role, final boolean applicable,
                       final List<String> cases, final Verdict verdict) {
        this(rule, level, role, applicable, cases, verdict, List.of(), 0, 0);
    }

    /** The number of cases covering the rule, listed or not. */
    public int caseCount() {
        return cases.size() + casesNotListed;
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

    /**
     * Accumulates one row from the cases citing or blaming a rule. Without a limit every case is listed; with one
     * ({@link #Builder(int)}) at most that many are, those that do not pass before those that do (a passing case
     * listed is given up for a later one that does not), and the others are counted: the row's verdict is the same.
     */
    public static final class Builder {
        private final List<String> cases = new ArrayList<>();
        /** Whether each case of {@link #cases} gave the rule PASS (the ones given up first when the list is full). */
        private final List<Boolean> passing = new ArrayList<>();
        /** The IDs in {@link #cases}, for a constant-time check: a capture analysis gives a rule 10^5 cases. */
        private final Set<String> seen = new HashSet<>();
        private final List<String> citedBy = new ArrayList<>();
        private final int limit;
        private int casesNotListed;
        private int citedByNotListed;
        private Verdict worst;

        /** Lists every case. */
        public Builder() {
            this(Integer.MAX_VALUE);
        }

        /**
         * Lists at most {@code limit} cases (and at most {@code limit} in {@code citedBy}), counting the others. The
         * cases added must have distinct IDs: beyond the limit they are counted, not compared.
         */
        public Builder(final int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be at least 1, not " + limit);
            }
            this.limit = limit;
        }

        /** Adds a case that cites the rule or whose failure blames it. */
        public Builder add(final String rule, final String caseId, final Verdict caseVerdict, final Failure failure) {
            if (seen.contains(caseId)) {
                return this;
            }
            final Verdict given = given(rule, caseVerdict, failure);
            if (given == null) {
                if (citedBy.size() < limit) {
                    citedBy.add(caseId);
                } else {
                    citedByNotListed++;
                }
            } else {
                worst = worst == null ? given : worst.worst(given);
            }
            final boolean passes = given == Verdict.PASS;
            if (cases.size() < limit) {
                list(caseId, passes);
            } else if (!passes && passing.lastIndexOf(Boolean.TRUE) >= 0) {
                final int out = passing.lastIndexOf(Boolean.TRUE);
                seen.remove(cases.remove(out));
                passing.remove(out);
                casesNotListed++;
                list(caseId, false);
            } else {
                casesNotListed++;
            }
            return this;
        }

        private void list(final String caseId, final boolean passes) {
            cases.add(caseId);
            passing.add(passes);
            seen.add(caseId);
        }

        /** The row. */
        public RuleVerdict build(final String rule, final Level level, final Role role, final boolean applicable) {
            final Verdict verdict = worst != null ? worst : citedBy.isEmpty() && citedByNotListed == 0
                ? Verdict.NOT_APPLICABLE : Verdict.INCONCLUSIVE;
            return new RuleVerdict(rule, level, role, applicable, cases, verdict, citedBy, casesNotListed,
                citedByNotListed);
        }
    }
}

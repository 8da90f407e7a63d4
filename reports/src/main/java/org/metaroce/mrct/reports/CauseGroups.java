package org.metaroce.mrct.reports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * The failures of a run grouped by root cause (the blamed rule, field and cause, {@link Failure#rootCause()}), counted
 * as the cases go by and bounded whatever the run's size: at most {@link #MAX_GROUPS} groups, each keeping its first
 * {@link #EXAMPLES} case IDs and a count; the failures of causes first seen once that many groups exist are counted
 * together ({@link #otherCases()}). Up to that many causes the groups are those of
 * {@link org.metaroce.mrct.harness.result.RootCause#of}, in the same order, so the terminal and {@code summary.md}
 * word them as before. Not thread-safe.
 */
public final class CauseGroups {
    /** Causes grouped; the failures of causes seen after these are only counted. */
    public static final int MAX_GROUPS = 1_000;
    /** Case IDs each group keeps (the first ones, in run order). */
    public static final int EXAMPLES = 3;

    /**
     * One root cause.
     *
     * @param rule the blamed rule
     * @param field the field whose value broke it, or empty
     * @param cause the failure's shape, or empty
     * @param count the cases that failed this way
     * @param examples the first {@link #EXAMPLES} of them (fewer when fewer failed), in run order
     */
    public record Group(String rule, String field, String cause, int count, List<String> examples) {
        public Group {
            examples = List.copyOf(examples);
        }

        /**
         * One line, worded as {@link org.metaroce.mrct.harness.result.RootCause#line}: {@code 51 cases: MR-ORD-002
         * sacketh.bitmap: PSNs ... (a, b, c, ...)}, naming at most {@code shown} (up to {@link #EXAMPLES}) cases.
         */
        public String line(final int shown) {
            final StringBuilder out = new StringBuilder().append(count).append(count == 1 ? " case: " : " cases: ")
                .append(rule);
            if (!field.isEmpty()) {
                out.append(' ').append(field);
            }
            if (!cause.isEmpty()) {
                out.append(": ").append(cause);
            }
            final int n = Math.min(shown, examples.size());
            out.append(" (").append(String.join(", ", examples.subList(0, n)));
            return out.append(count > n ? ", ...)" : ")").toString();
        }
    }

    private static final class Counting {
        final Failure first;
        final List<String> examples = new ArrayList<>(EXAMPLES);
        int count;

        Counting(final Failure first) {
            this.first = first;
        }
    }

    private final Map<String, Counting> groups = new LinkedHashMap<>();
    private int otherCases;

    /** Counts {@code result} when it is a FAIL or WARN with failure details (as {@code RootCause.of} does). */
    public void add(final CaseResult result) {
        add(result.id(), result.verdict(), result.failure());
    }

    /** Counts the case {@code id} when it is a FAIL or WARN with failure details; others are ignored. */
    public void add(final String id, final Verdict verdict, final Failure failure) {
        if (failure == null || verdict != Verdict.FAIL && verdict != Verdict.WARN) {
            return;
        }
        Counting group = groups.get(failure.rootCause());
        if (group == null) {
            if (groups.size() >= MAX_GROUPS) {
                otherCases++;
                return;
            }
            group = new Counting(failure);
            groups.put(failure.rootCause(), group);
        }
        group.count++;
        if (group.examples.size() < EXAMPLES) {
            group.examples.add(id);
        }
    }

    /** Forgets every case (a new run). */
    public void clear() {
        groups.clear();
        otherCases = 0;
    }

    /** The groups, largest first (ties: rule, field, cause, then the order first seen). */
    public List<Group> groups() {
        final List<Group> out = new ArrayList<>(groups.size());
        for (final Counting group : groups.values()) {
            out.add(new Group(group.first.rule(), group.first.field(), group.first.cause(), group.count,
                group.examples));
        }
        out.sort(Comparator.comparingInt((Group g) -> -g.count()).thenComparing(Group::rule)
            .thenComparing(Group::field).thenComparing(Group::cause));
        return out;
    }

    /** True when no case failed with failure details. */
    public boolean isEmpty() {
        return groups.isEmpty();
    }

    /**
     * The failures whose cause was first seen when {@link #MAX_GROUPS} groups existed already: counted, not grouped
     * (0 in a run of at most that many causes).
     */
    public int otherCases() {
        return otherCases;
    }
}

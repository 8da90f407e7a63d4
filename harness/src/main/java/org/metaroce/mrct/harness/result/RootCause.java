package org.metaroce.mrct.harness.result;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Failures that share a root cause: the same blamed rule, field and cause ({@link Failure#rootCause()}). Reports list
 * these groups before the cases, largest first, so that fifty cases failing the same way read as one problem:
 * "51 cases: MR-ORD-002 sacketh.bitmap: PSNs after ePSN in the window discarded instead of recorded".
 *
 * @param rule the blamed rule
 * @param field the field whose value broke it, or empty
 * @param cause the failure's shape, or empty
 * @param cases the IDs of the cases that failed this way, in run order
 */
public record RootCause(String rule, String field, String cause, List<String> cases) {
    public RootCause {
        cases = List.copyOf(cases);
    }

    /** One line: {@code 51 cases: MR-ORD-002 sacketh.bitmap: PSNs ... (ORD-002-x, ORD-003-y, ...)}. */
    public String line(final int examples) {
        final StringBuilder out = new StringBuilder().append(cases.size()).append(cases.size() == 1 ? " case: "
            : " cases: ").append(rule);
        if (!field.isEmpty()) {
            out.append(' ').append(field);
        }
        if (!cause.isEmpty()) {
            out.append(": ").append(cause);
        }
        out.append(" (").append(String.join(", ", cases.subList(0, Math.min(examples, cases.size()))));
        return out.append(cases.size() > examples ? ", ...)" : ")").toString();
    }

    /** The root causes of the FAIL and WARN results among {@code items}, largest group first (ties: rule order). */
    public static <T> List<RootCause> of(final List<T> items, final Function<T, String> id,
                                         final Function<T, Verdict> verdict, final Function<T, Failure> failure) {
        final Map<String, List<String>> ids = new LinkedHashMap<>();
        final Map<String, Failure> first = new LinkedHashMap<>();
        for (final T item : items) {
            final Verdict v = verdict.apply(item);
            final Failure f = failure.apply(item);
            if (f == null || v != Verdict.FAIL && v != Verdict.WARN) {
                continue;
            }
            ids.computeIfAbsent(f.rootCause(), k -> new ArrayList<>()).add(id.apply(item));
            first.putIfAbsent(f.rootCause(), f);
        }
        final List<RootCause> groups = new ArrayList<>();
        for (final Map.Entry<String, List<String>> entry : ids.entrySet()) {
            final Failure f = first.get(entry.getKey());
            groups.add(new RootCause(f.rule(), f.field(), f.cause(), entry.getValue()));
        }
        groups.sort(Comparator.comparingInt((RootCause g) -> -g.cases().size()).thenComparing(RootCause::rule)
            .thenComparing(RootCause::field).thenComparing(RootCause::cause));
        return groups;
    }
}

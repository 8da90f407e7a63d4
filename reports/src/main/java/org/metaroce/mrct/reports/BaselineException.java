package org.metaroce.mrct.reports;

import java.util.List;

/** A baseline file that cannot be used: every problem found in it, each with {@code file:line}. */
public final class BaselineException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<BaselineProblem> problems;

    public BaselineException(final String file, final List<BaselineProblem> problems) {
        super(message(file, problems));
        this.problems = List.copyOf(problems);
    }

    /** Every problem, in file order. */
    public List<BaselineProblem> problems() {
        return problems;
    }

    private static String message(final String file, final List<BaselineProblem> problems) {
        final StringBuilder out = new StringBuilder("the baseline ").append(file).append(" has ")
            .append(problems.size()).append(problems.size() == 1 ? " problem:" : " problems:");
        for (final BaselineProblem problem : problems) {
            out.append("\n  ").append(problem);
        }
        return out.toString();
    }
}

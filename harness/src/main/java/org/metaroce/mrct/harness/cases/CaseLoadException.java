package org.metaroce.mrct.harness.cases;

import java.util.List;
import java.util.stream.Collectors;
import org.metaroce.mrct.harness.yaml.YamlProblem;

/**
 * Case files had problems. The message lists every problem of every file, one per line, as {@code file:line:
 * message}; the run stops before touching the device.
 */
public final class CaseLoadException extends Exception {
    private static final long serialVersionUID = 1L;

    private final transient List<YamlProblem> problems;

    public CaseLoadException(final List<YamlProblem> problems) {
        super(problems.size() + " problem" + (problems.size() == 1 ? "" : "s") + " in case files:\n"
            + problems.stream().map(YamlProblem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<YamlProblem> problems() {
        return problems;
    }
}

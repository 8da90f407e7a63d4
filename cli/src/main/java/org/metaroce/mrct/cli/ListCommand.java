package org.metaroce.mrct.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoadException;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.spec.Specification;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code mrct list}: the cases, one per line: ID, level, role, rules and title. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the cases (one line each).")
final class ListCommand implements Callable<Integer> {
    @ParentCommand
    private Main main;

    @Option(names = "--cases", paramLabel = "PATH", description = "case folders or files instead of the bundled cases "
        + "(as for mrct run)")
    private List<Path> caseDirs = new ArrayList<>();

    @Option(names = {"-s", "--select"}, paramLabel = "ID", description = "only IDs starting with this; repeatable")
    private List<String> select = new ArrayList<>();

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        final List<CaseDef> cases;
        try {
            final CaseLoader loader = new CaseLoader(spec);
            cases = caseDirs.isEmpty() ? loader.loadBundled() : loader.load(caseDirs);
        } catch (CaseLoadException e) {
            main.err().println("mrct list: " + e.getMessage());
            return RunCommand.HARNESS_ERROR;
        }
        int shown = 0;
        for (final Runner.Planned planned : Runner.plan(cases)) {
            if (!select.isEmpty() && select.stream().noneMatch(planned.id()::startsWith)) {
                continue;
            }
            final CaseDef def = planned.def();
            final String level = def.rules().stream().map(spec::rule).filter(java.util.Objects::nonNull)
                .map(r -> r.level().name()).sorted().findFirst().orElse("?");
            main.out().println(String.format(Locale.ROOT, "%-44s %-6s %-9s %-30s %s", planned.id(), level,
                def.role().label(), String.join(",", def.rules()), def.title()));
            shown++;
            if (PipeAwareStream.closedPipe(main.out())) {
                return ExitStatus.OK; // the reader has what it wanted (| head): a quiet end
            }
        }
        main.err().println(shown + " case(s)");
        return ExitStatus.OK;
    }
}

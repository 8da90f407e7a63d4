package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoadException;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mrct explain CASE-ID}: the case file and the text of every rule it cites. */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = "Shows a case and the text of the rules it covers.")
final class ExplainCommand implements Callable<Integer> {
    @ParentCommand
    private Main main;

    @Parameters(paramLabel = "CASE-ID", description = "the case's ID (without a parameter row)")
    private String id;

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        final CaseDef def;
        try {
            def = new CaseLoader(spec).loadBundled().stream().filter(c -> c.id().equals(id)).findFirst().orElse(null);
        } catch (CaseLoadException e) {
            main.err().println("mrct explain: " + e.getMessage());
            return RunCommand.HARNESS_ERROR;
        }
        if (def == null) {
            main.err().println("mrct explain: no case " + id + " (mrct list shows them)");
            return RunCommand.HARNESS_ERROR;
        }
        main.out().println(def.id() + ": " + def.title());
        main.out().println();
        for (final String ruleId : def.rules()) {
            final Rule rule = spec.rule(ruleId);
            main.out().println(rule.label() + "  [" + rule.section() + "]");
            main.out().println("  " + rule.text());
            main.out().println();
        }
        main.out().println("--- " + def.file());
        try (InputStream in = CaseLoader.class.getClassLoader().getResourceAsStream(CaseLoader.BUNDLED_ROOT + "/"
            + def.file())) {
            if (in != null) {
                main.out().print(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            main.err().println("mrct explain: cannot read " + def.file() + ": " + e.getMessage());
            return RunCommand.HARNESS_ERROR;
        }
        return ExitStatus.OK;
    }
}

package org.metaroce.mrct.cli;

import java.util.concurrent.Callable;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mrct spec RULE-ID}: a rule's text; with a prefix ({@code MR-ORD}), every rule that starts with it. */
@Command(name = "spec", mixinStandardHelpOptions = true, description = "Shows the text of a rule (or of all rules "
    + "with an ID prefix such as MR-ORD).")
final class SpecCommand implements Callable<Integer> {
    @ParentCommand
    private Main main;

    @Parameters(paramLabel = "RULE-ID", description = "MR-<AREA>-<NNN>, or a prefix")
    private String id;

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        int shown = 0;
        for (final Rule rule : spec.rules().values()) {
            if (rule.id().equals(id) || !spec.rules().containsKey(id) && rule.id().startsWith(id)) {
                main.out().println(rule.label() + "  [" + rule.section() + ", line " + rule.line() + "]");
                main.out().println("  " + rule.text());
                main.out().println();
                shown++;
            }
        }
        if (shown == 0) {
            main.err().println("mrct spec: no rule " + id + " in MetaRoCE v" + spec.version());
            return RunCommand.HARNESS_ERROR;
        }
        return ExitStatus.OK;
    }
}

package org.metaroce.mrct.cli;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.metaroce.mrct.reference.Fault;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/** {@code mrct faults}: the reference NIC's fault profiles, one per line: name, the rule it breaks, a sentence. */
@Command(name = "faults", mixinStandardHelpOptions = true,
    description = "Lists the reference NIC's fault profiles (for mrct run --fault NAME).")
final class FaultsCommand implements Callable<Integer> {
    @ParentCommand
    private Main main;

    @Override
    public Integer call() {
        for (final Fault fault : Fault.values()) {
            main.out().println(String.format(Locale.ROOT, "%-28s %-12s %s", fault.label(), fault.rule(),
                fault.description()));
        }
        return ExitStatus.OK;
    }
}

package org.metaroce.mrct.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.metaroce.mrct.reports.ReportDiff;
import org.metaroce.mrct.reports.ReportReadException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code mrct report diff A B}: how two runs' verdicts differ. */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Works with reports of earlier runs.",
    subcommands = ReportCommand.Diff.class)
final class ReportCommand implements Runnable {
    @ParentCommand
    Main main;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "Missing subcommand: diff");
    }

    /** {@code mrct report diff A B}. */
    @Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Compares two runs' report.json files (or their directories).",
            "Exit status: 0 no verdict got worse, 1 some case regressed, 2 unreadable input."})
    static final class Diff implements Callable<Integer> {
        @ParentCommand
        private ReportCommand parent;

        @Parameters(index = "0", paramLabel = "A", description = "the earlier report.json or report directory")
        private Path a;

        @Parameters(index = "1", paramLabel = "B", description = "the later report.json or report directory")
        private Path b;

        @Option(names = "--markdown", description = "Markdown instead of text")
        private boolean markdown;

        @Override
        public Integer call() {
            try {
                final ReportDiff diff = ReportDiff.compare(resolve(a), resolve(b));
                parent.main.out().print(markdown ? diff.toMarkdown() : diff.toText());
                return diff.regressions().isEmpty() ? ExitStatus.OK : RunCommand.NON_CONFORMANT;
            } catch (ReportReadException e) {
                parent.main.err().println("mrct report diff: " + e.getMessage());
                return RunCommand.HARNESS_ERROR;
            }
        }

        private static Path resolve(final Path path) {
            return java.nio.file.Files.isDirectory(path) ? path.resolve("report.json") : path;
        }
    }
}

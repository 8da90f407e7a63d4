package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.metaroce.mrct.cli.internal.Terminal;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code mrct} command: a thin registry of subcommands, each in its own class. It owns the two output streams so
 * that subcommands write to whatever {@link #run} was given (the console, or a test's buffers) and it turns every
 * outcome into an exit status: a subcommand's own, 2 for a usage error, 1 for an unexpected failure, which is
 * reported as one line on the error stream, never as a stack trace.
 */
@Command(name = "mrct", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "The MetaRoCE conformance test suite.")
public final class Main implements Runnable {
    /**
     * The subcommands, in the order the usage lists them. They are registered when a command line is built: only the
     * one named, when the arguments name one, since picocli builds a command's model from its annotations by
     * reflection, which for all of them took about a third of a second of every start; all of them otherwise (the
     * usage, an unknown name and its suggestions).
     */
    private static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, ListCommand.class,
        ExplainCommand.class, SpecCommand.class, FaultsCommand.class, ReportCommand.class, DecodeCommand.class,
        AnalyzeCommand.class, ServeCommand.class, WiresharkCommand.class, AgentCommand.class);
    private final PrintStream out;
    private final PrintStream err;
    private final Terminal outTerminal;
    private final Terminal errTerminal;

    @Spec
    private CommandSpec spec;

    private Main(final PrintStream out, final PrintStream err, final Terminal outTerminal,
                 final Terminal errTerminal) {
        this.out = out;
        this.err = err;
        this.outTerminal = outTerminal;
        this.errTerminal = errTerminal;
    }

    /**
     * Runs {@code mrct} with {@code args} and exits the JVM with the command's exit status. The standard output is
     * watched for a closed pipe ({@link PipeAwareStream}), and colour goes only to the streams that are terminals
     * ({@link Terminal}).
     */
    public static void main(final String[] args) {
        final PrintStream out = new PipeAwareStream(new java.io.BufferedOutputStream(
            new java.io.FileOutputStream(java.io.FileDescriptor.out), 1 << 13));
        System.setOut(out);
        System.exit(run(args, out, System.err, Terminal.ofProcess("out"), Terminal.ofProcess("err")));
    }

    /**
     * Runs {@code mrct} with {@code args}, writing results to {@code out} and messages to {@code err}.
     *
     * @return the exit status: 0 success, 1 unexpected failure, 2 usage error or unreadable input
     */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        return run(args, out, err, Terminal.PLAIN, Terminal.PLAIN);
    }

    /** {@link #run(String[], PrintStream, PrintStream)} with what each stream may do with a terminal. */
    static int run(final String[] args, final PrintStream out, final PrintStream err, final Terminal outTerminal,
                   final Terminal errTerminal) {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
        final CommandLine commandLine = new CommandLine(new Main(out, err, outTerminal, errTerminal));
        final String named = subcommandNamed(args);
        for (final Class<?> subcommand : SUBCOMMANDS) {
            final String name = subcommand.getAnnotation(Command.class).name();
            if (named == null || named.equals(name)) {
                // built here rather than by addSubcommand(name, Class): picocli applies a command's model
                // transformer (RunCommand's adds the adapters' options) only to command lines built directly
                commandLine.addSubcommand(name, new CommandLine(subcommand));
            }
        }
        // settings after the subcommands: picocli applies them to the subcommands registered so far
        commandLine.setCaseInsensitiveEnumValuesAllowed(true)
            .setOut(new PrintWriter(out, true, StandardCharsets.UTF_8))
            .setErr(new PrintWriter(err, true, StandardCharsets.UTF_8))
            .setExecutionExceptionHandler((exception, failed, parsed) -> {
                failed.getErr().println(failed.getCommandSpec().qualifiedName() + ": internal error: " + exception);
                return ExitStatus.FAILURE;
            });
        int status;
        try {
            status = commandLine.execute(args);
        } catch (OutOfMemoryError e) {
            // an Error passes picocli's handler; by the time it reaches here the stack that held the heap has unwound,
            // so a message can still be written. The reports already written stay (each is replaced atomically)
            err.println("mrct " + (named == null ? "" : named + " ") + "ran out of heap (-Xmx "
                + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB): the reports in the report directory are "
                + "those of the last complete write. Run with a larger heap (MRCT_JAVA_OPTS=-Xmx... ./mrct, or "
                + "java -Xmx... -jar); `analyze` holds each connection until it is idle for the release window, "
                + "up to --max-held-flows flows (default from the heap; about 3 KB a connection, more for long ones; "
                + "the reports keep no case in memory)");
            status = ExitStatus.FAILURE;
        }
        out.flush();
        err.flush();
        return status;
    }

    /** The subcommand the first argument that is not an option names, or null when it names none. */
    private static String subcommandNamed(final String[] args) {
        for (final String arg : args) {
            if (arg.startsWith("-")) {
                continue;
            }
            for (final Class<?> subcommand : SUBCOMMANDS) {
                if (subcommand.getAnnotation(Command.class).name().equals(arg)) {
                    return arg;
                }
            }
            return null;
        }
        return null;
    }

    /** Without a subcommand: the usage, and the usage-error status. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** The stream that subcommands write their results to. */
    PrintStream out() {
        return out;
    }

    /** The stream that subcommands write their messages to. */
    PrintStream err() {
        return err;
    }

    /** What the standard output may do with a terminal (colour). */
    Terminal outTerminal() {
        return outTerminal;
    }

    /** What the error stream may do with a terminal (colour, a live progress line). */
    Terminal errTerminal() {
        return errTerminal;
    }
}

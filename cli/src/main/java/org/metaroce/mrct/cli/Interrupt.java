package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What {@code mrct run} says when it is stopped by Ctrl-C or SIGTERM: where the partial reports are. A JVM shutdown
 * hook, present only while the cases run. The reports need nothing more to be valid: each file is replaced atomically
 * after every case that did not pass and at least every half second, and says that the run is incomplete; the
 * evidence capture ends at a block boundary. The exit status stays the shell's 130 (Ctrl-C) or 143 (SIGTERM).
 */
final class Interrupt {
    private Interrupt() {
    }

    /** Registers the hook and returns it for {@link #unhook}. */
    static Thread hook(final Path dir, final Progress progress, final int planned, final PrintStream err) {
        final Thread hook = new Thread(() -> {
            err.println();
            err.println("mrct run: interrupted after " + progress.done() + " of " + planned + " cases; the partial "
                + "reports (marked incomplete) are in " + dir.toAbsolutePath().normalize());
            err.flush();
        }, "mrct-run-interrupted");
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /** Removes the hook once the run has ended by itself. */
    static void unhook(final Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down already: the hook runs
        }
    }
}

package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What {@code mrct run} does when Ctrl-C (SIGINT) or SIGTERM stops it: a JVM shutdown hook, present only while the
 * cases run, asks the run to stop after the current case, waits until the runner has ended the run (its reports
 * written a last time: every finished case, {@code "complete": false}, the evidence synced) for at most
 * {@link #WAIT_SECONDS}, and says where the partial reports are. Even when the wait runs out the reports are valid:
 * each file is replaced atomically after every case that did not pass and at least every half second, and the
 * evidence capture ends at a block boundary. The exit status stays the shell's 130 (Ctrl-C) or 143 (SIGTERM).
 */
final class Interrupt {
    /** How long the hook lets the current case run on (a JVM stopping waits for its hooks). */
    static final long WAIT_SECONDS = 30;

    private final AtomicBoolean requested = new AtomicBoolean();
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Thread hook;

    private Interrupt(final Path dir, final Progress progress, final int planned, final PrintStream err) {
        hook = new Thread(() -> {
            requested.set(true);
            err.println();
            err.println("mrct run: stopping after the current case...");
            err.flush();
            boolean clean;
            try {
                clean = ended.await(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                clean = false;
            }
            err.println("mrct run: interrupted after " + progress.done() + " of " + planned + " cases; the partial "
                + "reports (marked incomplete) are in " + dir.toAbsolutePath().normalize()
                + (clean ? "" : " (the current case did not end within " + WAIT_SECONDS + " s: they show the cases "
                + "before it)"));
            err.flush();
        }, "mrct-run-interrupted");
    }

    /** Registers the hook for a run of {@code planned} cases reporting into {@code dir}. */
    static Interrupt hook(final Path dir, final Progress progress, final int planned, final PrintStream err) {
        final Interrupt interrupt = new Interrupt(dir, progress, planned, err);
        Runtime.getRuntime().addShutdownHook(interrupt.hook);
        return interrupt;
    }

    /** Whether a signal asked the run to stop (the runner asks after every case). */
    boolean requested() {
        return requested.get();
    }

    /** The run has ended (its reports written): lets a waiting hook finish, or removes the hook. */
    void ended() {
        ended.countDown();
        if (!requested.get()) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down already: the hook runs
            }
        }
    }
}

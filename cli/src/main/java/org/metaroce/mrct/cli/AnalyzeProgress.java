package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;

/**
 * The progress line of {@code mrct analyze} on a terminal: one line on the error stream, rewritten in place at most
 * four times a second, naming the capture, how much of it was read and the frames so far; erased before the summary.
 * Shown only when the error stream is a terminal, and only for captures that take more than a second.
 */
final class AnalyzeProgress implements CaptureAnalyzer.Progress {
    private static final long FIRST_NS = 1_000_000_000L;
    private static final long EVERY_NS = 250_000_000L;

    private final PrintStream err;
    private final java.util.function.LongSupplier clock;
    private final long started;
    private long shownNs;
    private int width;

    AnalyzeProgress(final PrintStream err) {
        this(err, System::nanoTime);
    }

    /** With a clock of nanoseconds (tests). */
    AnalyzeProgress(final PrintStream err, final java.util.function.LongSupplier clock) {
        this.err = err;
        this.clock = clock;
        this.started = clock.getAsLong();
        this.shownNs = started - EVERY_NS;
    }

    @Override
    public synchronized void update(final String capture, final int index, final int count, final long bytes,
                                    final long size, final long frames) {
        final long now = clock.getAsLong();
        if (now - started < FIRST_NS || now - shownNs < EVERY_NS) {
            return;
        }
        shownNs = now;
        final String where = size > 0 ? String.format(Locale.ROOT, "%d%% (%s of %s)", Math.min(100, bytes * 100 / size),
            megabytes(bytes), megabytes(size)) : megabytes(bytes);
        show(String.format(Locale.ROOT, "mrct analyze: %s%s %s, %,d frames", count > 1 ? "[" + (index + 1) + "/"
            + count + "] " : "", capture, where, frames));
    }

    private static String megabytes(final long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private void show(final String text) {
        final String line = text.length() > 150 ? text.substring(0, 147) + "..." : text;
        err.print('\r' + line + " ".repeat(Math.max(0, width - line.length())));
        err.flush();
        width = line.length();
    }

    /** Erases the line, if one was shown. */
    synchronized void clear() {
        if (width > 0) {
            err.print('\r' + " ".repeat(width) + '\r');
            err.flush();
            width = 0;
        }
    }
}

package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reports.ReportListener;
import org.metaroce.mrct.reports.ReportWriteException;

/**
 * The listener {@link org.metaroce.mrct.reports.Reports#open} returns: feeds one {@link RunState} and every writer.
 * Appending writers (the evidence capture) write after every case. Rewriting writers rewrite their whole file after
 * {@code runStarted}, after every case that did not pass, after a passing case when {@link #REWRITE_INTERVAL_NANOS}
 * have gone by since their last write, and after {@code runFinished}: a crash loses no failure and at most that much
 * of the passes, and a run of many cases (an analysis of a long capture makes thousands) does not rewrite its reports
 * thousands of times. When a file cannot be written the other files are still written, then the first failure is
 * thrown (the others suppressed in it). {@code runStarted} first removes the spill files a killed run left in the
 * report directories ({@link Spill#sweep}).
 *
 * <p>Past {@link #GROWTH_CASES} cases a rewrite costs more the longer the run (the writers stream every case from
 * their spill files), so the interval grows with the cases done, {@code REWRITE_INTERVAL_NANOS} per
 * {@code GROWTH_CASES}, and it applies to the cases that did not pass too: the bytes rewritten per second stay about
 * the same however long the run, where a fixed interval (or a rewrite per failure) would make the run quadratic in its
 * cases. Every case is still in the spill files (and the evidence capture) as soon as it finishes; only the view in
 * the reports lags, by at most that interval.
 */
public final class ReportSet implements ReportListener {
    /** How long passing cases may wait before the rewritten reports show them. */
    public static final long REWRITE_INTERVAL_NANOS = 500_000_000L;
    /**
     * Cases per {@link #REWRITE_INTERVAL_NANOS} of the rewrite interval; up to this many cases a failure is written at
     * once.
     */
    public static final int GROWTH_CASES = 2_000;

    private final RunState state;
    private final List<ReportWriter> writers;
    private final LongSupplier clock;
    private long lastRewrite;

    public ReportSet(final RunState state, final List<ReportWriter> writers) {
        this(state, writers, System::nanoTime);
    }

    /** A set whose rewrite interval is measured on {@code clock} (nanoseconds; tests inject one). */
    public ReportSet(final RunState state, final List<ReportWriter> writers, final LongSupplier clock) {
        this.state = state;
        this.writers = List.copyOf(writers);
        this.clock = clock;
    }

    @Override
    public synchronized void runStarted(final RunInfo info) {
        // the spill files a killed run left in these directories (none held by a live process)
        final Set<Path> dirs = new LinkedHashSet<>();
        for (final ReportWriter writer : writers) {
            final Path dir = writer.file().toAbsolutePath().getParent();
            if (dir != null && dirs.add(dir)) {
                Spill.sweep(dir);
            }
        }
        state.start(info);
        for (final ReportWriter writer : writers) {
            writer.started(state);
        }
        writeAll(false, true);
    }

    @Override
    public synchronized void caseFinished(final CaseResult result) {
        state.add(result);
        for (final ReportWriter writer : writers) {
            writer.caseAdded(result, state);
        }
        final boolean passed = result.verdict() == Verdict.PASS || result.verdict() == Verdict.NOT_APPLICABLE;
        final int done = state.done();
        final long interval = REWRITE_INTERVAL_NANOS * Math.max(1, done / GROWTH_CASES);
        writeAll(false, !passed && done <= GROWTH_CASES || clock.getAsLong() - lastRewrite >= interval);
    }

    @Override
    public synchronized long pcapngFrame(final String caseId, final int index) {
        return state.pcapngFrame(caseId, index);
    }

    @Override
    public synchronized void runFinished(final RunInfo info, final RunSummary summary) {
        state.finish(info, summary);
        writeAll(true, true);
    }

    private void writeAll(final boolean last, final boolean rewrite) {
        ReportWriteException first = null;
        for (final ReportWriter writer : writers) {
            if (writer.rewrites() && !rewrite) {
                continue;
            }
            try {
                writer.write(state, last);
            } catch (IOException e) {
                final ReportWriteException failure = new ReportWriteException(writer.file(), e);
                if (first == null) {
                    first = failure;
                } else {
                    first.addSuppressed(failure);
                }
            }
        }
        if (rewrite) {
            lastRewrite = clock.getAsLong();
        }
        if (first != null) {
            throw first;
        }
    }
}

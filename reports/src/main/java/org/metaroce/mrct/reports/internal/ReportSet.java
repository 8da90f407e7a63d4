package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.util.List;
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
 * thrown (the others suppressed in it).
 */
public final class ReportSet implements ReportListener {
    /** How long passing cases may wait before the rewritten reports show them. */
    public static final long REWRITE_INTERVAL_NANOS = 500_000_000L;

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
        writeAll(false, !passed || clock.getAsLong() - lastRewrite >= REWRITE_INTERVAL_NANOS);
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

package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.reports.ReportWriteException;

/**
 * The listener {@link org.metaroce.mrct.reports.Reports#open} returns: feeds one {@link RunState} and every writer,
 * and has each rewrite its file after {@code runStarted}, after every {@code caseFinished} and after
 * {@code runFinished}. When a file cannot be written the other files are still written, then the first failure is
 * thrown (the others suppressed in it).
 */
public final class ReportSet implements RunListener {
    private final RunState state;
    private final List<ReportWriter> writers;

    public ReportSet(final RunState state, final List<ReportWriter> writers) {
        this.state = state;
        this.writers = List.copyOf(writers);
    }

    @Override
    public synchronized void runStarted(final RunInfo info) {
        state.start(info);
        for (final ReportWriter writer : writers) {
            writer.started(state);
        }
        writeAll(false);
    }

    @Override
    public synchronized void caseFinished(final CaseResult result) {
        state.add(result);
        for (final ReportWriter writer : writers) {
            writer.caseAdded(result, state);
        }
        writeAll(false);
    }

    @Override
    public synchronized void runFinished(final RunInfo info, final RunSummary summary) {
        state.finish(info, summary);
        writeAll(true);
    }

    private void writeAll(final boolean last) {
        ReportWriteException first = null;
        for (final ReportWriter writer : writers) {
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
        if (first != null) {
            throw first;
        }
    }
}

package org.metaroce.mrct.harness.result;

/**
 * Receives a run's events in order: {@code runStarted}, then {@code caseStarted} and {@code caseFinished} for each
 * case, then {@code runFinished} (also after an interrupted run, with {@code complete = false}). Report writers are
 * listeners; they must leave a valid report after every {@code caseFinished}.
 */
public interface RunListener {
    default void runStarted(final RunInfo info) {
    }

    default void caseStarted(final String id, final int index, final int total) {
    }

    default void caseFinished(final CaseResult result) {
    }

    default void runFinished(final RunInfo info, final RunSummary summary) {
    }
}

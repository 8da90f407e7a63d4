package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.nio.file.Path;
import org.metaroce.mrct.harness.result.CaseResult;

/** One report file, kept up to date as a run goes: {@code caseAdded} renders what it needs, {@code write} rewrites. */
public interface ReportWriter {
    /** The file this writer maintains. */
    Path file();

    /** A run starts: forget any earlier run. */
    void started(RunState state);

    /** A case has finished: keep what the file will need of it (called before {@link #write}). */
    void caseAdded(CaseResult result, RunState state);

    /** Brings the file up to date with {@code state}; {@code last} is true for the write after the run finished. */
    void write(RunState state, boolean last) throws IOException;

    /**
     * True when {@link #write} rewrites the whole file (its cost grows with the run), false when it appends what is new
     * (the evidence capture), which the report set then does after every case.
     */
    default boolean rewrites() {
        return true;
    }
}

package org.metaroce.mrct.reports;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A report file could not be written (disk full, permissions). Unchecked because report writers are
 * {@link org.metaroce.mrct.harness.result.RunListener}s; the previous version of the file is left in place.
 */
public final class ReportWriteException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public ReportWriteException(final Path file, final IOException cause) {
        super("cannot write the report " + file + ": " + cause.getMessage(), cause);
        this.file = file;
    }

    /** The report file that could not be written. */
    public Path file() {
        return file;
    }
}

package org.metaroce.mrct.reports;

/** A {@code report.json} that cannot be read: names the file and, where it applies, the line or the JSON pointer. */
public final class ReportReadException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String file;

    public ReportReadException(final String file, final String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    public ReportReadException(final String file, final String problem, final Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The file as given. */
    public String file() {
        return file;
    }
}

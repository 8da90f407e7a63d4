package org.metaroce.mrct.cli;

/** The exit statuses every {@code mrct} command uses. */
public final class ExitStatus {
    /** Everything asked for was done. */
    public static final int OK = 0;
    /** An unexpected failure (a bug, or the output could not be written); one line on the error stream says which. */
    public static final int FAILURE = 1;
    /** A usage error, or input that cannot be read (missing, not a capture, damaged). Same value as picocli's. */
    public static final int UNREADABLE = 2;

    private ExitStatus() {
    }
}

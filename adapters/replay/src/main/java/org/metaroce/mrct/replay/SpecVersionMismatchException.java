package org.metaroce.mrct.replay;

import java.nio.file.Path;

/**
 * The recording was made against another version of the specification than the one this mrct bundles: its cases,
 * rules and verdicts are not the ones this harness would compute, so it is not replayed.
 */
public final class SpecVersionMismatchException extends RecordingException {
    private static final long serialVersionUID = 1L;

    private final String recorded;
    private final String expected;

    public SpecVersionMismatchException(final Path file, final String recorded, final String expected) {
        super(file, "recorded against specification version " + recorded + ", but this mrct implements version "
            + expected + "; replay it with an mrct of specification version " + recorded);
        this.recorded = recorded;
        this.expected = expected;
    }

    /** The specification version of the recording. */
    public String recorded() {
        return recorded;
    }

    /** The specification version of this harness. */
    public String expected() {
        return expected;
    }
}

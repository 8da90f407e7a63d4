package org.metaroce.mrct.replay;

import java.nio.file.Path;
import org.metaroce.mrct.spi.AdapterSetupException;

/**
 * A recording that cannot be replayed as a whole: the file is missing, unreadable, not mrct evidence, recorded under
 * another specification version, or the DUT profile given is not the one the run used. The message names the file
 * and says what is wrong; {@link #file()} is the file.
 */
public class RecordingException extends AdapterSetupException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public RecordingException(final Path file, final String message) {
        super(file + ": " + message);
        this.file = file;
    }

    public RecordingException(final Path file, final String message, final Throwable cause) {
        super(file + ": " + message, cause);
        this.file = file;
    }

    /** The recording. */
    public Path file() {
        return file;
    }
}

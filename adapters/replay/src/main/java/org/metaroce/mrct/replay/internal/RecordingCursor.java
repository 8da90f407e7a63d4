package org.metaroce.mrct.replay.internal;

import java.io.IOException;
import java.nio.file.Path;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * A reader over a recording that is moved to a case's first packet when the case is replayed. Cases are replayed in
 * the order they were recorded, so one pass through the file serves a whole replay; a case asked for out of order
 * reopens the file.
 */
public final class RecordingCursor implements AutoCloseable {
    private final Path file;
    private CaptureReader reader;
    private boolean current;

    public RecordingCursor(final Path file) {
        this.file = file;
    }

    /** The reader on packet record {@code number} (1-based), or null when the file ends before it. */
    CaptureReader at(final long number) throws IOException {
        if (reader == null || !current || reader.recordNumber() > number) {
            close();
            reader = CaptureReader.open(file);
            current = false;
        }
        while (!current || reader.recordNumber() < number) {
            if (!reader.next()) {
                current = false;
                return null;
            }
            current = true;
        }
        return reader;
    }

    /** Moves to the next packet record; false at the end of the file. */
    boolean next() throws IOException {
        current = reader.next();
        return current;
    }

    @Override
    public void close() {
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException ignored) {
                // a read-only file: nothing was left unwritten
            }
            reader = null;
            current = false;
        }
    }
}

package org.metaroce.mrct.wire.capture;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A capture file is damaged or is not a capture file: truncated, a length out of bounds, an undeclared interface, an
 * unknown magic number. It names the file, the byte offset where the damaged record or block starts, the number the
 * next packet record would have had, and the rule broken; {@link #getMessage()} reads as one line for a user, e.g.
 * {@code capture.pcapng: byte 4096 (record 17): truncated enhanced packet block: 40 of 1064 bytes}.
 *
 * <p>It is a checked {@link IOException}: damage is an expected outcome of reading a file the caller did not write
 * (a capture cut short by a full disk or a killed tcpdump), so the compiler should make every caller decide what to
 * do with it, exactly as with the I/O failures that reading throws anyway. Catching {@code IOException} covers both;
 * catching this type first separates a damaged file from a failing disk. Every record before the damage has been
 * delivered by then.
 */
public final class CaptureFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path path;
    private final long byteOffset;
    private final long recordNumber;
    private final String reason;

    /**
     * @param path         the capture file
     * @param byteOffset   file offset where the damaged record, block or header starts
     * @param recordNumber 1-based number the next packet record would have had
     * @param reason       the rule broken, e.g. {@code "truncated record header: 7 of 16 bytes"}
     */
    public CaptureFormatException(final Path path, final long byteOffset, final long recordNumber,
            final String reason) {
        super(path + ": byte " + byteOffset + " (record " + recordNumber + "): " + reason);
        this.path = path;
        this.byteOffset = byteOffset;
        this.recordNumber = recordNumber;
        this.reason = reason;
    }

    /** The capture file, as it was given to the reader. */
    public Path path() {
        return path;
    }

    /** File offset of the first byte of the damaged record, block or header. */
    public long byteOffset() {
        return byteOffset;
    }

    /** The 1-based number the damaged packet record would have had (one more than the records delivered). */
    public long recordNumber() {
        return recordNumber;
    }

    /** The rule broken, without the file, offset and record number. */
    public String reason() {
        return reason;
    }
}

package org.metaroce.mrct.wire.capture.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.metaroce.mrct.wire.capture.CaptureFormatException;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * What the pcap and pcapng readers share: the file window, the current record's fields, the failure that sticks once
 * thrown, and the read-only view handed to callers. A subclass implements {@link #readRecord()}, which leaves the
 * window's cursor on the record it found and fills the fields; the record's length is skipped on the next call.
 */
abstract class AbstractCaptureReader implements CaptureReader {
    private final Path path;
    private final FileChannel channel;
    final ReadWindow window;

    /** Bytes from the window cursor to skip before reading on: the current record or block. */
    int pending;
    long recordNumber;
    long byteOffset;
    long timestampNanos;
    int capturedLength;
    long originalLength;
    int dataIndex;

    private boolean current;
    private boolean closed;
    private CaptureFormatException failure;
    private ByteBuffer viewSource;
    private ByteBuffer view;

    AbstractCaptureReader(final Path path, final FileChannel channel, final ReadWindow window) {
        this.path = path;
        this.channel = channel;
        this.window = window;
    }

    /**
     * Reads up to and including the next packet record.
     *
     * @return {@code false} at a clean end of file
     * @throws CaptureFormatException at damage, from {@link #damage(String)}
     * @throws IOException            when reading fails
     */
    abstract boolean readRecord() throws IOException;

    @Override
    public final boolean next() throws IOException {
        if (closed) {
            throw new IllegalStateException("capture reader of " + path + " is closed");
        }
        if (failure != null) {
            throw failure;
        }
        current = false;
        window.skip(pending);
        pending = 0;
        try {
            current = readRecord();
        } catch (CaptureFormatException e) {
            failure = e;
            throw e;
        }
        return current;
    }

    /** An exception for damage at the window cursor, naming the record that would have come next. */
    final CaptureFormatException damage(final String reason) {
        return new CaptureFormatException(path, window.cursorOffset(), recordNumber + 1, reason);
    }

    /** Throws unless a record is current. */
    final void checkCurrent() {
        if (!current) {
            throw new IllegalStateException("no current record: next() has not returned true");
        }
    }

    @Override
    public final long recordNumber() {
        checkCurrent();
        return recordNumber;
    }

    @Override
    public final long byteOffset() {
        checkCurrent();
        return byteOffset;
    }

    @Override
    public final long timestampNanos() {
        checkCurrent();
        return timestampNanos;
    }

    @Override
    public final int capturedLength() {
        checkCurrent();
        return capturedLength;
    }

    @Override
    public final long originalLength() {
        checkCurrent();
        return originalLength;
    }

    @Override
    public final int offset() {
        checkCurrent();
        return dataIndex;
    }

    @Override
    public final ByteBuffer buffer() {
        checkCurrent();
        final ByteBuffer source = window.buffer();
        if (source != viewSource) {
            viewSource = source;
            view = source.asReadOnlyBuffer();
        }
        return view;
    }

    @Override
    public final Path path() {
        return path;
    }

    @Override
    public final void close() throws IOException {
        if (!closed) {
            closed = true;
            current = false;
            channel.close();
        }
    }
}

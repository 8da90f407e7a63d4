package org.metaroce.mrct.wire.capture.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/** What the pcap and pcapng writers share: the file, its record buffer, and the open/closed state. */
abstract class AbstractCaptureWriter {
    /** Size of the write buffer: 1 MiB. */
    static final int BUFFER_SIZE = 1 << 20;

    final RecordOutput output;
    final boolean bigEndian;
    private boolean closed;

    /** Creates or truncates {@code path}. */
    AbstractCaptureWriter(final Path path, final boolean bigEndian) throws IOException {
        this(FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), bigEndian);
    }

    /** Writes to {@code channel} from its current position, which must be a record boundary (0 for a new file). */
    AbstractCaptureWriter(final FileChannel channel, final boolean bigEndian) throws IOException {
        this.output = new RecordOutput(channel, BUFFER_SIZE);
        this.bigEndian = bigEndian;
    }

    /** Throws {@link IllegalStateException} once closed. */
    final void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("capture writer is closed");
        }
    }

    /** Checks a frame slice before anything is reserved, so a bad argument never leaves half a record. */
    static void checkFrame(final ByteBuffer frame, final int offset, final int length) {
        Objects.checkFromIndexSize(offset, length, frame.limit());
    }

    /** Writes zeros to {@code buffer[from, to)}: padding, at most 3 bytes. */
    static void zero(final ByteBuffer buffer, final int from, final int to) {
        for (int i = from; i < to; i++) {
            buffer.put(i, (byte) 0);
        }
    }

    /** Hands every record written so far to the file, without forcing it to the storage device. */
    public final void flush() throws IOException {
        ensureOpen();
        output.flush();
    }

    /** {@link #flush()}, then forces the file's content to the storage device (fsync). */
    public final void sync() throws IOException {
        ensureOpen();
        output.sync();
    }

    /** Flushes and closes the file; idempotent. */
    public final void close() throws IOException {
        if (!closed) {
            closed = true;
            output.close();
        }
    }
}

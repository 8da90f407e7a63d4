package org.metaroce.mrct.wire.capture.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A reusable direct buffer in front of a {@link FileChannel} that hands whole records to the channel: a record is
 * reserved in one piece, and the buffer is written out only between records, so the file on disk always ends at a
 * record boundary (a reader sees a shorter but valid file if the process dies). A record larger than the buffer
 * replaces it with one big enough, once.
 *
 * <p>A write that fails part way (a full disk: ENOSPC after some bytes went out) would leave a record cut in two, so
 * the file is then truncated back to its length before the failed flush, which ended at a record boundary, and the
 * records of that flush are dropped before the failure is thrown: the file stays valid, and a later flush (after
 * space was freed) appends whole records again.
 */
final class RecordOutput {
    private final FileChannel channel;
    private ByteBuffer buffer;
    private int used;
    /** The file's length after the last flush that succeeded: a record boundary. */
    private long committed;

    /** An output writing at the channel's current position, which must be a record boundary (0 for a new file). */
    RecordOutput(final FileChannel channel, final int capacity) throws IOException {
        this.channel = channel;
        this.buffer = ByteBuffer.allocateDirect(capacity);
        this.committed = channel.position();
    }

    /** The buffer to write reserved records into, with absolute indices; valid until the next reservation. */
    ByteBuffer buffer() {
        return buffer;
    }

    /**
     * Reserves {@code length} bytes for one record, writing out the records before it first when it would not fit.
     *
     * @return the buffer index where the record starts
     * @throws IOException when writing out fails
     */
    int reserve(final int length) throws IOException {
        if (buffer.capacity() - used < length) {
            flush();
            if (buffer.capacity() < length) {
                buffer = ByteBuffer.allocateDirect(Math.max(length, 2 * buffer.capacity()));
            }
        }
        final int start = used;
        used += length;
        return start;
    }

    /**
     * Writes every reserved record to the channel (without forcing it to the storage device); when that fails, cuts
     * the file back to the last record boundary and drops the records reserved since.
     */
    void flush() throws IOException {
        buffer.limit(used).position(0);
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            committed = channel.position();
        } catch (IOException e) {
            try {
                channel.truncate(committed);
                channel.position(committed);
            } catch (IOException | RuntimeException cut) {
                e.addSuppressed(cut);
            }
            throw e;
        } finally {
            buffer.clear();
            used = 0;
        }
    }

    /** {@link #flush()}, then forces the file's content to the storage device. */
    void sync() throws IOException {
        flush();
        channel.force(false);
    }

    /** Flushes and closes the channel; the channel is closed even when flushing fails. */
    void close() throws IOException {
        try (channel) {
            flush();
        }
    }
}

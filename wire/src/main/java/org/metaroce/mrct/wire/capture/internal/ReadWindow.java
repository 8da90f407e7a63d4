package org.metaroce.mrct.wire.capture.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.function.IntFunction;

/**
 * A fixed, reusable window of a file, read sequentially through one direct {@link ByteBuffer}.
 *
 * <p>The window holds the file bytes {@code [start, start + limit)} at buffer indices {@code [0, limit)}; the
 * {@linkplain #cursor() cursor} is the buffer index of the record being read. {@link #request(int)} makes a number of
 * bytes from the cursor available: when the buffer holds too few it moves the unread tail to the front (a copy of less
 * than one record) and refills the rest with one {@link FileChannel#read} of as many bytes as fit. A request larger
 * than the buffer replaces it with one big enough, once, so memory stays bounded by the largest record the caller
 * accepts.
 * Nothing is allocated while records fit.
 *
 * <p>Given a source of fresh buffers ({@link #ReadWindow(FileChannel, int, IntFunction)}), the window never writes
 * again into the bytes before the cursor: where it would move the unread tail to the front it takes a fresh buffer
 * instead, copies the tail there and reads on into it, so that the records already read stay where they are for as
 * long as their reader keeps the old buffer.
 */
final class ReadWindow {
    private final FileChannel channel;
    private ByteBuffer buffer;
    private long start;
    private int limit;
    private int cursor;
    private boolean endOfFile;
    /** Where fresh buffers come from, or null to reuse the one buffer. */
    private final IntFunction<ByteBuffer> fresh;
    /** The size asked of {@link #fresh} for a refill that needs no more. */
    private final int capacity;

    /**
     * @param channel  the file, read from its current position to its end
     * @param capacity initial buffer size in bytes
     */
    ReadWindow(final FileChannel channel, final int capacity) {
        this.channel = channel;
        this.buffer = ByteBuffer.allocateDirect(capacity);
        this.fresh = null;
        this.capacity = capacity;
    }

    /**
     * A window that never writes into bytes it has moved its cursor past: each refill that would reuse the buffer
     * reads into {@code fresh.apply(n)} instead (a buffer of at least {@code n} bytes, which the window then owns
     * until the next refill; the one before is the caller's again).
     *
     * @param channel  the file, read from its current position to its end
     * @param capacity the size asked of {@code fresh} for each refill, at least
     * @param fresh    gives a buffer of at least the bytes asked for, with no other reader or writer
     */
    ReadWindow(final FileChannel channel, final int capacity, final IntFunction<ByteBuffer> fresh) {
        this.channel = channel;
        this.fresh = fresh;
        this.capacity = capacity;
        this.buffer = checked(fresh.apply(capacity), capacity);
    }

    private static ByteBuffer checked(final ByteBuffer given, final int capacity) {
        if (given.capacity() < capacity) {
            throw new IllegalArgumentException("a fresh buffer of " + given.capacity() + " bytes, asked " + capacity);
        }
        return given.clear();
    }

    /** The buffer holding the window; replaced only by a {@link #request(int)} larger than its capacity. */
    ByteBuffer buffer() {
        return buffer;
    }

    /** Buffer index of the cursor. */
    int cursor() {
        return cursor;
    }

    /** File offset of the cursor. */
    long cursorOffset() {
        return start + cursor;
    }

    /** Bytes available from the cursor without reading. */
    int remaining() {
        return limit - cursor;
    }

    /** Moves the cursor forward by {@code count} bytes, which must be {@linkplain #remaining() available}. */
    void skip(final int count) {
        cursor += count;
    }

    /**
     * Makes {@code count} bytes from the cursor available, reading as needed; this may move them to another index or
     * another buffer, so callers re-read {@link #buffer()} and {@link #cursor()} afterwards.
     *
     * @return {@code true} when {@code count} bytes are available; {@code false} when the file ends first, in which
     *     case {@link #remaining()} bytes (possibly none) are left before its end
     * @throws IOException when the channel fails
     */
    boolean request(final int count) throws IOException {
        if (limit - cursor >= count) {
            return true;
        }
        if (endOfFile) {
            return false;
        }
        if (fresh != null) {
            if (cursor + count > buffer.capacity()) {
                move(checked(fresh.apply(Math.max(count, capacity)), count));
            }
        } else if (count > buffer.capacity()) {
            grow(count);
        } else if (cursor > 0) {
            compact();
        }
        buffer.limit(buffer.capacity()).position(limit);
        while (limit - cursor < count) {
            final int read = channel.read(buffer);
            if (read < 0) {
                endOfFile = true;
                return false;
            }
            limit += read;
        }
        return true;
    }

    private void compact() {
        buffer.limit(limit).position(cursor);
        buffer.compact();
        start += cursor;
        limit -= cursor;
        cursor = 0;
    }

    private void grow(final int count) {
        move(ByteBuffer.allocateDirect(Math.max(count, 2 * buffer.capacity())));
    }

    /** Continues in {@code next}, from its index 0, with the unread tail copied there. */
    private void move(final ByteBuffer next) {
        buffer.limit(limit).position(cursor);
        next.put(buffer);
        buffer = next;
        start += cursor;
        limit -= cursor;
        cursor = 0;
    }
}

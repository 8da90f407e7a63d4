package org.metaroce.mrct.wire.header;

import java.nio.ByteBuffer;

/**
 * Base of the header flyweights: a reusable view of one header at an absolute index of a {@link ByteBuffer}. A
 * flyweight holds no copy of the bytes; {@link #wrap} points it at a header and the accessors read and write the
 * buffer in place, in network byte order, never allocating. Flyweights are not thread-safe.
 *
 * @param <T> the concrete flyweight type, returned by {@link #wrap} and by the setters for chaining
 */
public abstract class HeaderFlyweight<T extends HeaderFlyweight<T>> {
    /** The buffer currently wrapped (null before the first wrap). */
    protected ByteBuffer buffer;
    /** Absolute index of the header's first byte in {@link #buffer}. */
    protected int offset;

    /** Points this flyweight at the header starting at absolute index {@code offset} of {@code buffer}. */
    public final T wrap(final ByteBuffer buffer, final int offset) {
        // stored only when it changes: a reference store into a long-lived flyweight runs the collector's write
        // barrier, a measurable part of the analyser's per-frame path, where the buffer is the same frame after frame
        if (this.buffer != buffer) {
            this.buffer = buffer;
        }
        this.offset = offset;
        return self();
    }

    /** The wrapped buffer. */
    public final ByteBuffer buffer() {
        return buffer;
    }

    /** Absolute index of the header in the wrapped buffer. */
    public final int offset() {
        return offset;
    }

    /** Length of the header in bytes as it is currently encoded. */
    public abstract int headerLength();

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }
}

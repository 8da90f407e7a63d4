package org.metaroce.mrct.wire.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;
import org.metaroce.mrct.wire.capture.internal.PcapngFileWriter;

/**
 * Writes a pcapng file of one section: the section header block on creation, an interface description block per
 * {@link #addInterface}, an enhanced packet block per {@code write}. Interfaces may be added at any time, also after
 * packets; a packet may use any interface added before it. Blocks are buffered and handed to the file whole, so the
 * file always ends at a block boundary and any prefix cut there is valid; {@link #flush()} hands over what is
 * buffered, {@link #sync()} also forces it to the storage device. Nothing is allocated per packet except the UTF-8
 * bytes of a comment. Not thread-safe.
 *
 * <pre>{@code
 * try (PcapngWriter writer = PcapngWriter.create(path, PcapngWriter.Options.defaults())) {
 *     int eth0 = writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "eth0", 9);
 *     writer.write(eth0, timestampNanos, frame, 0, frame.limit(), "retransmitted");
 * }
 * }</pre>
 */
public interface PcapngWriter extends AutoCloseable {
    /**
     * Creates (or truncates) {@code path} and writes the section header block to it.
     *
     * @param path    the file to write
     * @param options byte order and section header options
     * @return the writer
     * @throws IOException when the file cannot be created or written
     */
    static PcapngWriter create(final Path path, final Options options) throws IOException {
        return PcapngFileWriter.create(path, options);
    }

    /**
     * Appends an interface description block (snapshot length 0: no limit).
     *
     * @param linkType        link-layer header type, 0 to 65535 (1 is Ethernet)
     * @param name            {@code if_name}, or {@code null} for none
     * @param tsresolExponent timestamps of this interface count units of 10^-tsresolExponent seconds, 0 to 9 (6,
     *                        microseconds, is the pcapng default and is written without an {@code if_tsresol} option)
     * @return the interface id for {@code write}: 0 for the first interface, then 1, 2...
     * @throws IllegalArgumentException when an argument is out of range or the name exceeds 65535 UTF-8 bytes
     * @throws IOException              when writing out buffered blocks fails
     */
    int addInterface(int linkType, String name, int tsresolExponent) throws IOException;

    /**
     * Appends an enhanced packet block, its original length equal to {@code length}.
     *
     * @see #write(int, long, ByteBuffer, int, int, long, String)
     */
    void write(int interfaceId, long timestampNanos, ByteBuffer frame, int offset, int length, String comment)
            throws IOException;

    /**
     * Appends an enhanced packet block of {@code frame[offset, offset + length)} (absolute indices; the buffer's
     * position, limit and order are not used or changed).
     *
     * @param interfaceId    an id returned by {@link #addInterface}
     * @param timestampNanos nanoseconds since the epoch, not negative; rounded down to the interface's resolution
     * @param frame          the frame's buffer
     * @param offset         index of the frame's first byte
     * @param length         number of frame bytes
     * @param originalLength length of the frame on the wire, at least {@code length} and below 2^32
     * @param comment        written as {@code opt_comment} in UTF-8 (up to 65535 bytes); {@code null} for none, and
     *                       then the block has no options at all
     * @throws IllegalArgumentException  when the interface is unknown or a value cannot be written
     * @throws IndexOutOfBoundsException when the slice is outside the buffer's limit
     * @throws IllegalStateException     when the writer is closed
     * @throws IOException               when writing out buffered blocks fails
     */
    void write(int interfaceId, long timestampNanos, ByteBuffer frame, int offset, int length, long originalLength,
            String comment) throws IOException;

    /** Appends an enhanced packet block of the whole array, without a comment. */
    void write(int interfaceId, long timestampNanos, byte[] frame) throws IOException;

    /** Hands every block written so far to the file, without forcing it to the storage device. */
    void flush() throws IOException;

    /** {@link #flush()}, then forces the file's content to the storage device (fsync). */
    void sync() throws IOException;

    /** Flushes and closes the file; idempotent. */
    @Override
    void close() throws IOException;

    /**
     * How to write the section.
     *
     * @param byteOrder       byte order of every block
     * @param userApplication {@code shb_userappl}, or {@code null} for none
     * @param comment         the section header's {@code opt_comment}, or {@code null} for none
     */
    record Options(ByteOrder byteOrder, String userApplication, String comment) {
        /** Checks the byte order. */
        public Options {
            Objects.requireNonNull(byteOrder, "byteOrder");
        }

        /** Little-endian (whatever this machine's order), no user application, no comment. */
        public static Options defaults() {
            return new Options(ByteOrder.LITTLE_ENDIAN, null, null);
        }

        /** These options with another byte order. */
        public Options withByteOrder(final ByteOrder newByteOrder) {
            return new Options(newByteOrder, userApplication, comment);
        }

        /** These options with another {@code shb_userappl}. */
        public Options withUserApplication(final String newUserApplication) {
            return new Options(byteOrder, newUserApplication, comment);
        }

        /** These options with another section comment. */
        public Options withComment(final String newComment) {
            return new Options(byteOrder, userApplication, newComment);
        }
    }
}

package org.metaroce.mrct.wire.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Objects;
import org.metaroce.mrct.wire.capture.internal.PcapFileWriter;

/**
 * Writes a classic pcap savefile: the file header on creation, then one record per {@code write}. Records are
 * buffered and handed to the file whole, so the file always ends at a record boundary and any prefix cut there is a
 * valid capture; {@link #flush()} hands over what is buffered, {@link #sync()} also forces it to the storage device.
 * Nothing is allocated per record. Not thread-safe.
 *
 * <pre>{@code
 * PcapWriter.Options nanosecond = PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO);
 * try (PcapWriter writer = PcapWriter.create(path, nanosecond)) {
 *     writer.write(timestampNanos, frameBytes);
 * }
 * }</pre>
 */
public interface PcapWriter extends AutoCloseable {
    /**
     * Creates (or truncates) {@code path} and writes the pcap file header to it.
     *
     * @param path    the file to write
     * @param options resolution, byte order, link type and snapshot length
     * @return the writer
     * @throws IOException when the file cannot be created or written
     */
    static PcapWriter create(final Path path, final Options options) throws IOException {
        return PcapFileWriter.create(path, options);
    }

    /**
     * Appends a record of {@code frame[offset, offset + length)}, its original length equal to {@code length}.
     *
     * @see #write(long, ByteBuffer, int, int, long)
     */
    void write(long timestampNanos, ByteBuffer frame, int offset, int length) throws IOException;

    /**
     * Appends a record of {@code frame[offset, offset + length)} (absolute indices; the buffer's position, limit and
     * order are not used or changed), cut to the snapshot length when longer.
     *
     * @param timestampNanos nanoseconds since the epoch, 0 to 2^32 seconds; rounded down to a microsecond in
     *                       {@link CaptureFormat#PCAP_MICRO} files
     * @param frame          the frame's buffer
     * @param offset         index of the frame's first byte
     * @param length         number of frame bytes
     * @param originalLength length of the frame on the wire, at least {@code length} and below 2^32
     * @throws IllegalArgumentException  when the timestamp or original length cannot be written
     * @throws IndexOutOfBoundsException when the slice is outside the buffer's limit
     * @throws IllegalStateException     when the writer is closed
     * @throws IOException               when writing out buffered records fails
     */
    void write(long timestampNanos, ByteBuffer frame, int offset, int length, long originalLength) throws IOException;

    /** Appends a record of the whole array, as {@link #write(long, ByteBuffer, int, int)} does. */
    void write(long timestampNanos, byte[] frame) throws IOException;

    /** Hands every record written so far to the file, without forcing it to the storage device. */
    void flush() throws IOException;

    /** {@link #flush()}, then forces the file's content to the storage device (fsync). */
    void sync() throws IOException;

    /** Flushes and closes the file; idempotent. */
    @Override
    void close() throws IOException;

    /**
     * How to write the file.
     *
     * @param format     {@link CaptureFormat#PCAP_MICRO} or {@link CaptureFormat#PCAP_NANO}
     * @param byteOrder  byte order of every header field
     * @param linkType   link-layer header type, 0 to 65535 (1 is Ethernet)
     * @param snapLength snapshot length: longer frames are cut to it; 1 to 16 MiB
     */
    record Options(CaptureFormat format, ByteOrder byteOrder, int linkType, int snapLength) {
        /** Snapshot length of {@link #defaults()}: 262144, as tcpdump writes. */
        public static final int DEFAULT_SNAP_LENGTH = 262_144;
        /** Largest snapshot length accepted: 16 MiB, the largest captured length {@link CaptureReader} reads. */
        public static final int MAX_SNAP_LENGTH = 16 * 1024 * 1024;

        /** Checks every field. */
        public Options {
            Objects.requireNonNull(format, "format");
            Objects.requireNonNull(byteOrder, "byteOrder");
            if (format == CaptureFormat.PCAPNG) {
                throw new IllegalArgumentException("a pcap writer writes PCAP_MICRO or PCAP_NANO, not PCAPNG");
            }
            if (linkType < 0 || linkType > 0xFFFF) {
                throw new IllegalArgumentException("link type " + linkType + " is not a 16-bit value");
            }
            if (snapLength < 1 || snapLength > MAX_SNAP_LENGTH) {
                throw new IllegalArgumentException("snapshot length " + snapLength + " is not in 1.."
                        + MAX_SNAP_LENGTH);
            }
        }

        /**
         * Microsecond timestamps, little-endian (as tcpdump writes on x86, whatever this machine's order), Ethernet,
         * snapshot length 262144.
         */
        public static Options defaults() {
            return new Options(CaptureFormat.PCAP_MICRO, ByteOrder.LITTLE_ENDIAN, CaptureReader.LINKTYPE_ETHERNET,
                    DEFAULT_SNAP_LENGTH);
        }

        /** These options with another timestamp resolution. */
        public Options withFormat(final CaptureFormat newFormat) {
            return new Options(newFormat, byteOrder, linkType, snapLength);
        }

        /** These options with another byte order. */
        public Options withByteOrder(final ByteOrder newByteOrder) {
            return new Options(format, newByteOrder, linkType, snapLength);
        }

        /** These options with another link type. */
        public Options withLinkType(final int newLinkType) {
            return new Options(format, byteOrder, newLinkType, snapLength);
        }

        /** These options with another snapshot length. */
        public Options withSnapLength(final int newSnapLength) {
            return new Options(format, byteOrder, linkType, newSnapLength);
        }
    }
}

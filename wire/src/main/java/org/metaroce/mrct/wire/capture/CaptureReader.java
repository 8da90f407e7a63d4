package org.metaroce.mrct.wire.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.IntFunction;
import org.metaroce.mrct.wire.capture.internal.CaptureOpener;

/**
 * Streams the packet records of a pcap or pcapng file, one at a time, without allocating per record.
 *
 * <pre>{@code
 * try (CaptureReader reader = CaptureReader.open(path)) {
 *     while (reader.next()) {
 *         ByteBuffer frame = reader.buffer();           // frame bytes: [offset(), offset() + capturedLength())
 *         decode(frame, reader.offset(), reader.capturedLength(), reader.timestampNanos());
 *     }
 * } catch (CaptureFormatException damaged) {
 *     // every record before the damage was delivered; the message names file, byte offset, record and reason
 * }
 * }</pre>
 *
 * <p>The format is detected from the first four bytes: classic pcap with microsecond (0xA1B2C3D4) or nanosecond
 * (0xA1B23C4D) timestamps in either byte order, or pcapng (section header block type 0x0A0D0D0A, byte order from its
 * byte-order magic 0x1A2B3C4D, per section). The file is read sequentially through one reusable buffer, so memory
 * stays flat however large the file; a record larger than the buffer grows it once.
 *
 * <p>The record accessors describe the record that the last {@link #next()} returned {@code true} for, and throw
 * {@link IllegalStateException} when there is none. The frame bytes stay valid until the next call to {@code next()}
 * or {@link #close()}. A reader is not thread-safe.
 */
public interface CaptureReader extends AutoCloseable {
    /** Initial size of the read buffer: 1 MiB. */
    int DEFAULT_BUFFER_SIZE = 1 << 20;

    /** Smallest read buffer {@link #open(Path, int)} accepts: 4 KiB. */
    int MIN_BUFFER_SIZE = 1 << 12;

    /** Link-layer header type of Ethernet frames (LINKTYPE_ETHERNET). */
    int LINKTYPE_ETHERNET = 1;

    /**
     * Opens a capture file with a {@linkplain #DEFAULT_BUFFER_SIZE 1 MiB} buffer and reads its file or first section
     * header.
     *
     * @param path the pcap or pcapng file
     * @return a reader positioned before the first record
     * @throws CaptureFormatException when the file is empty, shorter than its header, not a pcap or pcapng file, or its
     *     header is damaged
     * @throws IOException            when the file cannot be opened or read
     */
    static CaptureReader open(final Path path) throws IOException {
        return CaptureOpener.open(path, DEFAULT_BUFFER_SIZE);
    }

    /**
     * Opens a capture file as {@link #open(Path)} does, with a read buffer of {@code bufferSize} bytes.
     *
     * @param path       the pcap or pcapng file
     * @param bufferSize initial read buffer size, at least {@link #MIN_BUFFER_SIZE}
     * @return a reader positioned before the first record
     * @throws CaptureFormatException when the file is not a readable capture (see {@link #open(Path)})
     * @throws IOException            when the file cannot be opened or read
     */
    static CaptureReader open(final Path path, final int bufferSize) throws IOException {
        if (bufferSize < MIN_BUFFER_SIZE) {
            throw new IllegalArgumentException("buffer size " + bufferSize + " is below " + MIN_BUFFER_SIZE);
        }
        return CaptureOpener.open(path, bufferSize);
    }

    /**
     * Opens a capture file as {@link #open(Path, int)} does, for a caller that keeps reading records' bytes after
     * {@link #next()} has moved on (e.g. on other threads): the reader never writes again into the bytes of a record
     * it has handed out. Where it would move unread bytes to the front of its read buffer it reads on into
     * {@code fresh.apply(n)} instead, a buffer of at least {@code n} bytes (never fewer than {@code bufferSize}; a
     * direct one, or the file's channel copies through one) that nothing else writes until the reader has moved on
     * from it; a record's bytes stay in the buffer it was read into, at {@link #offset()}, until the caller
     * reuses that buffer. {@link #buffer()} returns a new view whenever the reader has moved on to another buffer.
     *
     * @param fresh gives each buffer the reader reads into (its position and limit are the reader's)
     */
    static CaptureReader open(final Path path, final int bufferSize, final IntFunction<ByteBuffer> fresh)
            throws IOException {
        if (bufferSize < MIN_BUFFER_SIZE) {
            throw new IllegalArgumentException("buffer size " + bufferSize + " is below " + MIN_BUFFER_SIZE);
        }
        return CaptureOpener.open(path, bufferSize, Objects.requireNonNull(fresh, "fresh"));
    }

    /**
     * Advances to the next packet record, reading and checking any blocks before it (pcapng section headers,
     * interface descriptions; other block types are skipped by their length).
     *
     * @return {@code true} when a record is current; {@code false} at a clean end of file (the last record or block
     *     ends exactly at the file's end), and again on every later call
     * @throws CaptureFormatException at the first damaged record or block, after every record before it was delivered;
     *     later calls throw the same exception again
     * @throws IOException            when reading fails
     */
    boolean next() throws IOException;

    /** 1-based number of the current packet record (other pcapng blocks are not counted). */
    long recordNumber();

    /** File offset of the current record (pcap: its record header; pcapng: its block). */
    long byteOffset();

    /**
     * Timestamp of the current record in nanoseconds since 1970-01-01T00:00:00Z. For pcapng it is scaled by the
     * interface's {@code if_tsresol} (powers of 10 and of 2, rounded down to a nanosecond) and shifted by its
     * {@code if_tsoffset}; it is 0 when {@link #timestampKnown()} is {@code false}.
     */
    long timestampNanos();

    /** {@code false} only for a pcapng simple packet block, which carries no timestamp. */
    boolean timestampKnown();

    /** Interface of the current record within its pcapng section (0 for pcap, and for simple packet blocks). */
    int interfaceId();

    /** Link-layer header type of the current record's interface (1 is Ethernet), without pcap's FCS bits. */
    int linkType();

    /** Snapshot length of the current record's interface (0 means no limit in pcapng). */
    int snapLength();

    /**
     * Length in bytes of the frame check sequence at the end of each frame of the current record's interface, from
     * pcap's FCS bits in the link-type field or pcapng's {@code if_fcslen}; -1 when the file does not say.
     */
    int fcsLength();

    /** The pcapng {@code if_name} of the current record's interface; {@code null} for pcap or when absent. */
    String interfaceName();

    /** Number of frame bytes in the file for the current record. */
    int capturedLength();

    /** Length of the frame on the wire (may be larger than {@link #capturedLength()}). */
    long originalLength();

    /**
     * A read-only view of the buffer holding the current frame at {@code [offset(), offset() + capturedLength())}.
     * Read it with absolute accessors; its position, limit and order are the caller's to change and do not affect
     * the reader. The same view is returned for every record until the reader has to grow its buffer.
     */
    ByteBuffer buffer();

    /** Index of the current frame's first byte in {@link #buffer()}. */
    int offset();

    /**
     * The first {@code opt_comment} of the current pcapng packet, decoded as UTF-8; {@code null} for pcap and when
     * the packet has none. A new String per call.
     */
    String comment();

    /**
     * The first {@code opt_comment} of the current pcapng section header block, decoded as UTF-8; {@code null} for
     * pcap and when the section has none. Available once the file is open (the first section's), and after each
     * {@link #next()} the comment of the section the current record belongs to.
     */
    default String sectionComment() {
        return null;
    }

    /** Format of the file. */
    CaptureFormat format();

    /** Byte order of the file (pcap) or of the current section (pcapng). */
    boolean bigEndian();

    /** The file, as it was given to {@link #open(Path)}. */
    Path path();

    /** Closes the file; idempotent. The frame buffer must not be used afterwards. */
    @Override
    void close() throws IOException;
}

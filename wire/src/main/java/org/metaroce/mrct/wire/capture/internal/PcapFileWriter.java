package org.metaroce.mrct.wire.capture.internal;

import static org.metaroce.mrct.wire.capture.internal.PcapLayout.CAPTURED_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.FILE_HEADER_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.LINK_TYPE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.MAGIC_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.ORIGINAL_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.RECORD_HEADER_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.RESERVED1_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.RESERVED2_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.SNAPLEN_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.TIMESTAMP_FRACTION_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.TIMESTAMP_SECONDS_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.VERSION_MAJOR;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.VERSION_MAJOR_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.VERSION_MINOR;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.VERSION_MINOR_OFFSET;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/** The {@link PcapWriter} implementation; see {@link PcapLayout} for the fields it writes. */
public final class PcapFileWriter extends AbstractCaptureWriter implements PcapWriter {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MAX_UNSIGNED_32 = 0xFFFF_FFFFL;

    private final Options options;
    private final long nanosPerFraction;

    private PcapFileWriter(final Path path, final Options options) throws IOException {
        super(path, options.byteOrder() == ByteOrder.BIG_ENDIAN);
        this.options = options;
        this.nanosPerFraction = options.format() == CaptureFormat.PCAP_NANO ? 1 : 1000;
    }

    /**
     * Creates (or truncates) {@code path} and writes the file header to it.
     *
     * @see PcapWriter#create(Path, Options)
     */
    public static PcapWriter create(final Path path, final Options options) throws IOException {
        final PcapFileWriter writer = new PcapFileWriter(path, options);
        try {
            writer.writeFileHeader();
            return writer;
        } catch (IOException | RuntimeException e) {
            writer.close();
            throw e;
        }
    }

    private void writeFileHeader() throws IOException {
        final int header = output.reserve(FILE_HEADER_LENGTH);
        final ByteBuffer buffer = output.buffer();
        final int magic = options.format() == CaptureFormat.PCAP_NANO
                ? PcapLayout.MAGIC_NANOSECONDS : PcapLayout.MAGIC_MICROSECONDS;
        Endian.put32(buffer, header + MAGIC_OFFSET, magic, bigEndian);
        Endian.put16(buffer, header + VERSION_MAJOR_OFFSET, VERSION_MAJOR, bigEndian);
        Endian.put16(buffer, header + VERSION_MINOR_OFFSET, VERSION_MINOR, bigEndian);
        Endian.put32(buffer, header + RESERVED1_OFFSET, 0, bigEndian);
        Endian.put32(buffer, header + RESERVED2_OFFSET, 0, bigEndian);
        Endian.put32(buffer, header + SNAPLEN_OFFSET, options.snapLength(), bigEndian);
        Endian.put32(buffer, header + LINK_TYPE_OFFSET, options.linkType(), bigEndian);
        output.flush();
    }

    @Override
    public void write(final long timestampNanos, final ByteBuffer frame, final int offset, final int length)
            throws IOException {
        write(timestampNanos, frame, offset, length, length);
    }

    @Override
    public void write(final long timestampNanos, final ByteBuffer frame, final int offset, final int length,
            final long originalLength) throws IOException {
        checkFrame(frame, offset, length);
        final int captured = Math.min(length, options.snapLength());
        final int data = reserveRecord(timestampNanos, captured, length, originalLength);
        output.buffer().put(data, frame, offset, captured);
    }

    @Override
    public void write(final long timestampNanos, final byte[] frame) throws IOException {
        final int captured = Math.min(frame.length, options.snapLength());
        final int data = reserveRecord(timestampNanos, captured, frame.length, frame.length);
        output.buffer().put(data, frame, 0, captured);
    }

    /** Checks the values, reserves the record and writes its header; returns the index for the frame bytes. */
    private int reserveRecord(final long timestampNanos, final int captured, final int length,
            final long originalLength) throws IOException {
        ensureOpen();
        final long seconds = timestampNanos / NANOS_PER_SECOND;
        if (timestampNanos < 0 || seconds > MAX_UNSIGNED_32) {
            throw new IllegalArgumentException("timestamp " + timestampNanos
                    + " ns is outside what pcap can hold (0 to 2^32 s after the epoch)");
        }
        if (originalLength < length || originalLength > MAX_UNSIGNED_32) {
            throw new IllegalArgumentException("original length " + originalLength + " is not in " + length + ".."
                    + MAX_UNSIGNED_32);
        }
        final int record = output.reserve(RECORD_HEADER_LENGTH + captured);
        final ByteBuffer buffer = output.buffer();
        Endian.put32(buffer, record + TIMESTAMP_SECONDS_OFFSET, (int) seconds, bigEndian);
        Endian.put32(buffer, record + TIMESTAMP_FRACTION_OFFSET,
                (int) (timestampNanos % NANOS_PER_SECOND / nanosPerFraction), bigEndian);
        Endian.put32(buffer, record + CAPTURED_LENGTH_OFFSET, captured, bigEndian);
        Endian.put32(buffer, record + ORIGINAL_LENGTH_OFFSET, (int) originalLength, bigEndian);
        return record + RECORD_HEADER_LENGTH;
    }
}

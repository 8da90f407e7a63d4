package org.metaroce.mrct.wire.capture.internal;

import static org.metaroce.mrct.wire.capture.internal.PcapLayout.CAPTURED_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.FCS_PRESENT_BIT;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.FCS_WORDS_SHIFT;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.FILE_HEADER_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.LENIENT_CAPTURED_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.LINK_TYPE_MASK;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.LINK_TYPE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.MAX_CAPTURED_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.ORIGINAL_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.RECORD_HEADER_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.SNAPLEN_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.TIMESTAMP_FRACTION_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.TIMESTAMP_SECONDS_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.VERSION_MAJOR;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.VERSION_MAJOR_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapLayout.VERSION_MINOR_OFFSET;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.metaroce.mrct.wire.capture.CaptureFormat;

/**
 * Reads a classic pcap savefile: a 24-byte file header, then records of a 16-byte header and the captured bytes.
 *
 * <pre>
 * +-------------+---------------+------------+---------------+------------+---
 * | file header | record header | frame data | record header | frame data | ...
 * |  24 bytes   |   16 bytes    | incl_len   |   16 bytes    | incl_len   |
 * +-------------+---------------+------------+---------------+------------+---
 * </pre>
 *
 * See {@link PcapLayout} for the fields. A captured length is accepted up to the snapshot length, and up to 256 KiB
 * when the snapshot length is 0 or smaller (some writers record less than they wrote), never beyond 16 MiB; anything
 * larger is damage. The captured length may exceed the original length.
 */
final class PcapFileReader extends AbstractCaptureReader {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final boolean bigEndian;
    private final CaptureFormat format;
    private final long fractionToNanos;
    private final int snapLength;
    private final int linkType;
    private final int fcsLength;
    private final long maxCapturedLength;

    /**
     * Reads the file header; the window cursor is at offset 0, on a magic number already recognised.
     *
     * @param bigEndian  byte order told by the magic number
     * @param nanosecond {@code true} for the 0xA1B23C4D magic
     */
    PcapFileReader(final Path path, final FileChannel channel, final ReadWindow window, final boolean bigEndian,
            final boolean nanosecond) throws IOException {
        super(path, channel, window);
        this.bigEndian = bigEndian;
        this.format = nanosecond ? CaptureFormat.PCAP_NANO : CaptureFormat.PCAP_MICRO;
        this.fractionToNanos = nanosecond ? 1 : 1000;
        if (!window.request(FILE_HEADER_LENGTH)) {
            throw damage("truncated pcap file header: " + window.remaining() + " of " + FILE_HEADER_LENGTH + " bytes");
        }
        final ByteBuffer buffer = window.buffer();
        final int header = window.cursor();
        final int major = Endian.u16(buffer, header + VERSION_MAJOR_OFFSET, bigEndian);
        if (major != VERSION_MAJOR) {
            throw damage("unsupported pcap version " + major + "." + Endian.u16(buffer,
                    header + VERSION_MINOR_OFFSET, bigEndian) + " (only " + VERSION_MAJOR + ".x is defined)");
        }
        this.snapLength = Endian.i32(buffer, header + SNAPLEN_OFFSET, bigEndian);
        final int linkField = Endian.i32(buffer, header + LINK_TYPE_OFFSET, bigEndian);
        this.linkType = linkField & LINK_TYPE_MASK;
        this.fcsLength = (linkField & FCS_PRESENT_BIT) != 0 ? 2 * (linkField >>> FCS_WORDS_SHIFT) : -1;
        this.maxCapturedLength = Math.max(LENIENT_CAPTURED_LENGTH,
                Math.min(Integer.toUnsignedLong(snapLength), MAX_CAPTURED_LENGTH));
        pending = FILE_HEADER_LENGTH;
    }

    @Override
    boolean readRecord() throws IOException {
        final ReadWindow window = this.window;
        if (window.remaining() < RECORD_HEADER_LENGTH && !window.request(RECORD_HEADER_LENGTH)) {
            if (window.remaining() == 0) {
                return false;
            }
            throw damage("truncated record header: " + window.remaining() + " of " + RECORD_HEADER_LENGTH + " bytes");
        }
        ByteBuffer buffer = window.buffer();
        int record = window.cursor();
        final long captured = Endian.u32(buffer, record + CAPTURED_LENGTH_OFFSET, bigEndian);
        if (captured > maxCapturedLength) {
            throw damage("captured length " + captured + " exceeds the limit of " + maxCapturedLength
                    + " bytes (snapshot length " + Integer.toUnsignedString(snapLength) + ")");
        }
        final int length = RECORD_HEADER_LENGTH + (int) captured;
        if (window.remaining() < length) {
            if (!window.request(length)) {
                throw damage("truncated packet record: " + window.remaining() + " of " + length + " bytes");
            }
            buffer = window.buffer();
            record = window.cursor();
        }
        timestampNanos = Endian.u32(buffer, record + TIMESTAMP_SECONDS_OFFSET, bigEndian) * NANOS_PER_SECOND
                + Endian.u32(buffer, record + TIMESTAMP_FRACTION_OFFSET, bigEndian) * fractionToNanos;
        capturedLength = (int) captured;
        originalLength = Endian.u32(buffer, record + ORIGINAL_LENGTH_OFFSET, bigEndian);
        dataIndex = record + RECORD_HEADER_LENGTH;
        byteOffset = window.cursorOffset();
        recordNumber++;
        pending = length;
        return true;
    }

    @Override
    public boolean timestampKnown() {
        checkCurrent();
        return true;
    }

    @Override
    public int interfaceId() {
        checkCurrent();
        return 0;
    }

    @Override
    public int linkType() {
        checkCurrent();
        return linkType;
    }

    @Override
    public int snapLength() {
        checkCurrent();
        return snapLength;
    }

    @Override
    public int fcsLength() {
        checkCurrent();
        return fcsLength;
    }

    @Override
    public String interfaceName() {
        checkCurrent();
        return null;
    }

    @Override
    public String comment() {
        checkCurrent();
        return null;
    }

    @Override
    public CaptureFormat format() {
        return format;
    }

    @Override
    public boolean bigEndian() {
        return bigEndian;
    }
}

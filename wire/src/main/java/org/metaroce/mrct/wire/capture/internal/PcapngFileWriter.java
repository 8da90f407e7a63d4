package org.metaroce.mrct.wire.capture.internal;

import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.BLOCK_TOTAL_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.BLOCK_TRAILER_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.BLOCK_TYPE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.BYTE_ORDER_MAGIC;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.ENHANCED_PACKET_BLOCK;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.EPB_CAPTURED_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.EPB_DATA_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.EPB_INTERFACE_ID_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.EPB_MIN_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.EPB_ORIGINAL_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.EPB_TIMESTAMP_HIGH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.EPB_TIMESTAMP_LOW_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IDB_LINK_TYPE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IDB_MIN_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IDB_OPTIONS_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IDB_RESERVED_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IDB_SNAPLEN_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IF_NAME;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IF_TSRESOL;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.INTERFACE_DESCRIPTION_BLOCK;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.MAX_OPTION_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_CODE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_HEADER_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_VALUE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPT_COMMENT;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPT_ENDOFOPT;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SECTION_HEADER_BLOCK;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_BYTE_ORDER_MAGIC_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_MIN_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_OPTIONS_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_SECTION_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_SECTION_LENGTH_UNSPECIFIED;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_USERAPPL;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_VERSION_MAJOR;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_VERSION_MAJOR_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_VERSION_MINOR;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_VERSION_MINOR_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.padded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/** The {@link PcapngWriter} implementation; see {@link PcapngLayout} for the blocks it writes. */
public final class PcapngFileWriter extends AbstractCaptureWriter implements PcapngWriter {
    private static final long MAX_UNSIGNED_32 = 0xFFFF_FFFFL;
    private static final int MAX_TSRESOL_EXPONENT = 9;
    private static final int INITIAL_INTERFACES = 4;
    /** Bytes of an options area holding nothing but {@code opt_endofopt}. */
    private static final int END_OF_OPTIONS_LENGTH = OPTION_HEADER_LENGTH;
    private static final byte[] NO_VALUE = {};

    /** Nanoseconds per timestamp unit of each interface, by id. */
    private long[] nanosPerUnit = new long[INITIAL_INTERFACES];
    private int interfaceCount;

    private PcapngFileWriter(final Path path, final Options options) throws IOException {
        super(path, options.byteOrder() == ByteOrder.BIG_ENDIAN);
    }

    private PcapngFileWriter(final FileChannel channel, final Options options) throws IOException {
        super(channel, options.byteOrder() == ByteOrder.BIG_ENDIAN);
    }

    /**
     * A writer over an open, empty channel, which it closes when closed: the seam through which tests hand it a
     * channel that fails as a full disk does.
     */
    public static PcapngWriter create(final FileChannel channel, final Options options) throws IOException {
        return started(new PcapngFileWriter(channel, options), options);
    }

    /**
     * Creates (or truncates) {@code path} and writes the section header block to it.
     *
     * @see PcapngWriter#create(Path, Options)
     */
    public static PcapngWriter create(final Path path, final Options options) throws IOException {
        return started(new PcapngFileWriter(path, options), options);
    }

    /** {@code writer} with its section header block written; closed when that fails. */
    private static PcapngWriter started(final PcapngFileWriter writer, final Options options) throws IOException {
        try {
            writer.writeSectionHeader(options);
            return writer;
        } catch (IOException | RuntimeException e) {
            writer.close();
            throw e;
        }
    }

    private void writeSectionHeader(final Options options) throws IOException {
        final byte[] userApplication = optionValue("shb_userappl", options.userApplication());
        final byte[] comment = optionValue("opt_comment", options.comment());
        final int optionsLength = optionsLength(userApplication, comment);
        final int length = SHB_MIN_LENGTH + optionsLength;
        final int block = beginBlock(SECTION_HEADER_BLOCK, length);
        final ByteBuffer buffer = output.buffer();
        Endian.put32(buffer, block + SHB_BYTE_ORDER_MAGIC_OFFSET, BYTE_ORDER_MAGIC, bigEndian);
        Endian.put16(buffer, block + SHB_VERSION_MAJOR_OFFSET, SHB_VERSION_MAJOR, bigEndian);
        Endian.put16(buffer, block + SHB_VERSION_MINOR_OFFSET, SHB_VERSION_MINOR, bigEndian);
        Endian.put64(buffer, block + SHB_SECTION_LENGTH_OFFSET, SHB_SECTION_LENGTH_UNSPECIFIED, bigEndian);
        writeOptions(block + SHB_OPTIONS_OFFSET, SHB_USERAPPL, userApplication, OPT_COMMENT, comment);
        output.flush();
    }

    @Override
    public int addInterface(final int linkType, final String name, final int tsresolExponent) throws IOException {
        ensureOpen();
        if (linkType < 0 || linkType > 0xFFFF) {
            throw new IllegalArgumentException("link type " + linkType + " is not a 16-bit value");
        }
        if (tsresolExponent < 0 || tsresolExponent > MAX_TSRESOL_EXPONENT) {
            throw new IllegalArgumentException("if_tsresol exponent " + tsresolExponent + " is not in 0.."
                    + MAX_TSRESOL_EXPONENT);
        }
        final byte[] nameBytes = optionValue("if_name", name);
        final byte[] tsresol = tsresolExponent == TimestampScale.DEFAULT_TSRESOL ? null
                : new byte[] {(byte) tsresolExponent};
        final int length = IDB_MIN_LENGTH + optionsLength(nameBytes, tsresol);
        final int block = beginBlock(INTERFACE_DESCRIPTION_BLOCK, length);
        final ByteBuffer buffer = output.buffer();
        Endian.put16(buffer, block + IDB_LINK_TYPE_OFFSET, linkType, bigEndian);
        Endian.put16(buffer, block + IDB_RESERVED_OFFSET, 0, bigEndian);
        Endian.put32(buffer, block + IDB_SNAPLEN_OFFSET, 0, bigEndian);
        writeOptions(block + IDB_OPTIONS_OFFSET, IF_NAME, nameBytes, IF_TSRESOL, tsresol);
        if (interfaceCount == nanosPerUnit.length) {
            nanosPerUnit = Arrays.copyOf(nanosPerUnit, 2 * interfaceCount);
        }
        nanosPerUnit[interfaceCount] = TimestampScale.of(tsresolExponent).toNanos(1);
        return interfaceCount++;
    }

    @Override
    public void write(final int interfaceId, final long timestampNanos, final ByteBuffer frame, final int offset,
            final int length, final String comment) throws IOException {
        write(interfaceId, timestampNanos, frame, offset, length, length, comment);
    }

    @Override
    public void write(final int interfaceId, final long timestampNanos, final ByteBuffer frame, final int offset,
            final int length, final long originalLength, final String comment) throws IOException {
        checkFrame(frame, offset, length);
        final int data = reservePacket(interfaceId, timestampNanos, length, originalLength, comment);
        output.buffer().put(data, frame, offset, length);
    }

    @Override
    public void write(final int interfaceId, final long timestampNanos, final byte[] frame) throws IOException {
        final int data = reservePacket(interfaceId, timestampNanos, frame.length, frame.length, null);
        output.buffer().put(data, frame, 0, frame.length);
    }

    /**
     * Checks the values, reserves the enhanced packet block and writes all of it but the frame bytes; returns the
     * index for them.
     */
    private int reservePacket(final int interfaceId, final long timestampNanos, final int length,
            final long originalLength, final String comment) throws IOException {
        ensureOpen();
        if (interfaceId < 0 || interfaceId >= interfaceCount) {
            throw new IllegalArgumentException("interface " + interfaceId + " was not added (" + interfaceCount
                    + " interfaces)");
        }
        if (timestampNanos < 0) {
            throw new IllegalArgumentException("timestamp " + timestampNanos + " ns is before the epoch");
        }
        if (originalLength < length || originalLength > MAX_UNSIGNED_32) {
            throw new IllegalArgumentException("original length " + originalLength + " is not in " + length + ".."
                    + MAX_UNSIGNED_32);
        }
        final byte[] commentBytes = optionValue("opt_comment", comment);
        final int paddedLength = padded(length);
        final int blockLength = EPB_MIN_LENGTH + paddedLength + optionsLength(commentBytes, null);
        if (blockLength > PcapngLayout.MAX_BLOCK_LENGTH) {
            throw new IllegalArgumentException("a frame of " + length + " bytes makes an enhanced packet block of "
                    + blockLength + " bytes, beyond the " + PcapngLayout.MAX_BLOCK_LENGTH + " readers accept");
        }
        final long units = timestampNanos / nanosPerUnit[interfaceId];
        final int block = beginBlock(ENHANCED_PACKET_BLOCK, blockLength);
        final ByteBuffer buffer = output.buffer();
        Endian.put32(buffer, block + EPB_INTERFACE_ID_OFFSET, interfaceId, bigEndian);
        Endian.put32(buffer, block + EPB_TIMESTAMP_HIGH_OFFSET, (int) (units >>> 32), bigEndian);
        Endian.put32(buffer, block + EPB_TIMESTAMP_LOW_OFFSET, (int) units, bigEndian);
        Endian.put32(buffer, block + EPB_CAPTURED_LENGTH_OFFSET, length, bigEndian);
        Endian.put32(buffer, block + EPB_ORIGINAL_LENGTH_OFFSET, (int) originalLength, bigEndian);
        final int data = block + EPB_DATA_OFFSET;
        zero(buffer, data + length, data + paddedLength);
        writeOptions(data + paddedLength, OPT_COMMENT, commentBytes, OPT_COMMENT, null);
        return data;
    }

    /** Reserves a whole block and writes its type and both total lengths; returns its buffer index. */
    private int beginBlock(final int type, final int length) throws IOException {
        final int block = output.reserve(length);
        final ByteBuffer buffer = output.buffer();
        Endian.put32(buffer, block + BLOCK_TYPE_OFFSET, type, bigEndian);
        Endian.put32(buffer, block + BLOCK_TOTAL_LENGTH_OFFSET, length, bigEndian);
        Endian.put32(buffer, block + length - BLOCK_TRAILER_LENGTH, length, bigEndian);
        return block;
    }

    /** The UTF-8 bytes of an option value, or {@code null} for none; longer than an option can hold is an error. */
    private static byte[] optionValue(final String option, final String value) {
        if (value == null) {
            return null;
        }
        final byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_OPTION_LENGTH) {
            throw new IllegalArgumentException(option + " of " + bytes.length + " UTF-8 bytes exceeds the "
                    + MAX_OPTION_LENGTH + " an option can hold");
        }
        return bytes;
    }

    /** Bytes of an options area holding the non-null values and {@code opt_endofopt}; 0 when both are null. */
    private static int optionsLength(final byte[] first, final byte[] second) {
        if (first == null && second == null) {
            return 0;
        }
        return optionLength(first) + optionLength(second) + END_OF_OPTIONS_LENGTH;
    }

    private static int optionLength(final byte[] value) {
        return value == null ? 0 : OPTION_HEADER_LENGTH + padded(value.length);
    }

    /**
     * Writes the options area {@link #optionsLength} measured: the non-null values, then {@code opt_endofopt};
     * nothing when both are null.
     */
    private void writeOptions(final int start, final int firstCode, final byte[] first, final int secondCode,
            final byte[] second) {
        if (first == null && second == null) {
            return;
        }
        int next = writeOption(start, firstCode, first);
        next = writeOption(next, secondCode, second);
        writeOption(next, OPT_ENDOFOPT, NO_VALUE);
    }

    private int writeOption(final int index, final int code, final byte[] value) {
        if (value == null) {
            return index;
        }
        final ByteBuffer buffer = output.buffer();
        Endian.put16(buffer, index + OPTION_CODE_OFFSET, code, bigEndian);
        Endian.put16(buffer, index + OPTION_LENGTH_OFFSET, value.length, bigEndian);
        final int valueIndex = index + OPTION_VALUE_OFFSET;
        buffer.put(valueIndex, value);
        zero(buffer, valueIndex + value.length, valueIndex + padded(value.length));
        return valueIndex + padded(value.length);
    }
}

package org.metaroce.mrct.wire.capture.internal;

import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.BLOCK_HEADER_LENGTH;
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
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IDB_SNAPLEN_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IF_FCSLEN;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IF_NAME;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IF_TSOFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.IF_TSRESOL;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.INTERFACE_DESCRIPTION_BLOCK;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.MAX_BLOCK_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.MIN_BLOCK_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPT_COMMENT;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.PACKET_BLOCK;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.PB_INTERFACE_ID_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SECTION_HEADER_BLOCK;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_BYTE_ORDER_MAGIC_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_MIN_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_OPTIONS_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_VERSION_MAJOR;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_VERSION_MAJOR_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SHB_VERSION_MINOR_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SIMPLE_PACKET_BLOCK;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SPB_DATA_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SPB_MIN_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.SPB_ORIGINAL_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.blockName;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.padded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureFormatException;

/**
 * Reads a pcapng file: one or more sections, each a section header block followed by interface description blocks,
 * packet blocks and any other blocks, which are skipped by their length.
 *
 * <pre>
 * +-----+-----+-----+-----+-----+-----+     +-----+-----+-----+
 * | SHB | IDB | IDB | EPB | NRB | EPB | ... | SHB | IDB | SPB | ...
 * +-----+-----+-----+-----+-----+-----+     +-----+-----+-----+
 *  section 1 (its own byte order)            section 2: new byte order, interfaces from 0 again
 * </pre>
 *
 * See {@link PcapngLayout} for the fields. Every block is checked before it is used: total length at least the
 * type's minimum, a multiple of 4, at most 16 MiB, equal at both ends; packet blocks name a declared interface and
 * fit their captured bytes in their body; options stay inside the block. Packets come from enhanced packet blocks,
 * simple packet blocks (interface 0, no timestamp, captured length = min(original length, body, snapshot length))
 * and the obsolete packet block.
 */
final class PcapngFileReader extends AbstractCaptureReader {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final int INITIAL_INTERFACES = 4;

    private final OptionCursor options = new OptionCursor();
    private boolean bigEndian;
    private PcapngInterface[] interfaces = new PcapngInterface[INITIAL_INTERFACES];
    private int interfaceCount;

    private PcapngInterface packetInterface;
    private int interfaceId;
    private boolean timestampKnown;
    private int commentIndex;
    private int commentLength;
    private String sectionComment;

    /** Reads the first section header block; the window cursor is at offset 0, on its block type. */
    PcapngFileReader(final Path path, final FileChannel channel, final ReadWindow window) throws IOException {
        super(path, channel, window);
        readSectionHeader();
    }

    @Override
    boolean readRecord() throws IOException {
        final ReadWindow window = this.window;
        while (true) {
            if (window.remaining() < BLOCK_HEADER_LENGTH && !window.request(BLOCK_HEADER_LENGTH)) {
                if (window.remaining() == 0) {
                    return false;
                }
                throw damage("truncated block header: " + window.remaining() + " of " + BLOCK_HEADER_LENGTH
                        + " bytes");
            }
            final int type = Endian.i32(window.buffer(), window.cursor() + BLOCK_TYPE_OFFSET, bigEndian);
            switch (type) {
                case ENHANCED_PACKET_BLOCK:
                    readEnhancedPacket(loadBlock(type, EPB_MIN_LENGTH));
                    return true;
                case SIMPLE_PACKET_BLOCK:
                    readSimplePacket(loadBlock(type, SPB_MIN_LENGTH));
                    return true;
                case PACKET_BLOCK:
                    readObsoletePacket(loadBlock(type, EPB_MIN_LENGTH));
                    return true;
                case INTERFACE_DESCRIPTION_BLOCK:
                    readInterface(loadBlock(type, IDB_MIN_LENGTH));
                    break;
                case SECTION_HEADER_BLOCK:
                    readSectionHeader();
                    break;
                default:
                    loadBlock(type, MIN_BLOCK_LENGTH);
                    break;
            }
            window.skip(pending);
            pending = 0;
        }
    }

    /**
     * Checks the block at the cursor (its total length against {@code minLength}, 4-byte alignment and the 16 MiB
     * limit), makes all of it available, checks its trailing length, and marks it to be skipped next.
     *
     * @return the block's total length
     */
    private int loadBlock(final int type, final int minLength) throws IOException {
        final long length = Endian.u32(window.buffer(), window.cursor() + BLOCK_TOTAL_LENGTH_OFFSET, bigEndian);
        if (length < minLength) {
            throw damage(blockName(type) + " length " + length + " is shorter than the minimum of " + minLength
                    + " bytes");
        }
        if (length % 4 != 0) {
            throw damage(blockName(type) + " length " + length + " is not a multiple of 4");
        }
        if (length > MAX_BLOCK_LENGTH) {
            throw damage(blockName(type) + " length " + length + " exceeds the limit of " + MAX_BLOCK_LENGTH
                    + " bytes");
        }
        final int total = (int) length;
        if (window.remaining() < total && !window.request(total)) {
            throw damage("truncated " + blockName(type) + ": " + window.remaining() + " of " + total + " bytes");
        }
        final long trailer = Endian.u32(window.buffer(), window.cursor() + total - BLOCK_TRAILER_LENGTH, bigEndian);
        if (trailer != length) {
            throw damage(blockName(type) + " trailing length " + trailer + " does not match its leading length "
                    + length);
        }
        pending = total;
        return total;
    }

    private void readSectionHeader() throws IOException {
        final int magicEnd = SHB_BYTE_ORDER_MAGIC_OFFSET + 4;
        if (window.remaining() < magicEnd && !window.request(magicEnd)) {
            throw damage("truncated section header block: " + window.remaining() + " of at least " + SHB_MIN_LENGTH
                    + " bytes");
        }
        final int magic = Endian.i32(window.buffer(), window.cursor() + SHB_BYTE_ORDER_MAGIC_OFFSET, true);
        if (magic == BYTE_ORDER_MAGIC) {
            bigEndian = true;
        } else if (magic == Integer.reverseBytes(BYTE_ORDER_MAGIC)) {
            bigEndian = false;
        } else {
            throw damage(String.format("section header byte-order magic 0x%08X is not 0x%08X in either byte order",
                    magic, BYTE_ORDER_MAGIC));
        }
        final int length = loadBlock(SECTION_HEADER_BLOCK, SHB_MIN_LENGTH);
        final ByteBuffer buffer = window.buffer();
        final int block = window.cursor();
        final int major = Endian.u16(buffer, block + SHB_VERSION_MAJOR_OFFSET, bigEndian);
        if (major != SHB_VERSION_MAJOR) {
            throw damage("unsupported pcapng version " + major + "."
                    + Endian.u16(buffer, block + SHB_VERSION_MINOR_OFFSET, bigEndian) + " (only "
                    + SHB_VERSION_MAJOR + ".x is defined)");
        }
        sectionComment = null;
        options.reset(buffer, block + SHB_OPTIONS_OFFSET, block + length - BLOCK_TRAILER_LENGTH, bigEndian);
        while (options.next()) {
            if (options.code() == OPT_COMMENT && sectionComment == null) {
                sectionComment = utf8(buffer, options.valueIndex(), options.valueLength());
            }
        }
        // malformed section options are left alone, as before: the comment is extra, never a reason to refuse a file
        Arrays.fill(interfaces, 0, interfaceCount, null);
        interfaceCount = 0;
    }

    private void readInterface(final int length) throws CaptureFormatException {
        final ByteBuffer buffer = window.buffer();
        final int block = window.cursor();
        final int linkType = Endian.u16(buffer, block + IDB_LINK_TYPE_OFFSET, bigEndian);
        final int snapLength = Endian.i32(buffer, block + IDB_SNAPLEN_OFFSET, bigEndian);
        int tsresol = TimestampScale.DEFAULT_TSRESOL;
        long offsetSeconds = 0;
        String name = null;
        int fcsLength = -1;
        options.reset(buffer, block + IDB_OPTIONS_OFFSET, block + length - BLOCK_TRAILER_LENGTH, bigEndian);
        while (options.next()) {
            final int value = options.valueIndex();
            switch (options.code()) {
                case IF_NAME:
                    name = utf8(buffer, value, options.valueLength());
                    break;
                case IF_TSRESOL:
                    requireOptionLength("if_tsresol", 1);
                    tsresol = Endian.u8(buffer, value);
                    break;
                case IF_TSOFFSET:
                    requireOptionLength("if_tsoffset", 8);
                    offsetSeconds = Endian.i64(buffer, value, bigEndian);
                    break;
                case IF_FCSLEN:
                    requireOptionLength("if_fcslen", 1);
                    fcsLength = Endian.u8(buffer, value);
                    break;
                default:
                    break;
            }
        }
        if (options.malformed()) {
            throw damage(options.problem(blockName(INTERFACE_DESCRIPTION_BLOCK)));
        }
        final long offsetNanos = offsetSeconds * NANOS_PER_SECOND;
        if (offsetNanos / NANOS_PER_SECOND != offsetSeconds) {
            throw damage("if_tsoffset of " + offsetSeconds + " s does not fit in 64-bit nanoseconds");
        }
        if (interfaceCount == interfaces.length) {
            interfaces = Arrays.copyOf(interfaces, 2 * interfaceCount);
        }
        interfaces[interfaceCount++] = new PcapngInterface(linkType, snapLength, TimestampScale.of(tsresol),
                offsetNanos, name, fcsLength);
    }

    private void requireOptionLength(final String option, final int expected) throws CaptureFormatException {
        if (options.valueLength() != expected) {
            throw damage(option + " option has length " + options.valueLength() + ", not " + expected);
        }
    }

    private void readEnhancedPacket(final int length) throws CaptureFormatException {
        final int id = Endian.i32(window.buffer(), window.cursor() + EPB_INTERFACE_ID_OFFSET, bigEndian);
        readTimestampedPacket(ENHANCED_PACKET_BLOCK, length, id);
    }

    private void readObsoletePacket(final int length) throws CaptureFormatException {
        final int id = Endian.u16(window.buffer(), window.cursor() + PB_INTERFACE_ID_OFFSET, bigEndian);
        readTimestampedPacket(PACKET_BLOCK, length, id);
    }

    /** The fields the enhanced and the obsolete packet block share, from the timestamp on. */
    private void readTimestampedPacket(final int type, final int length, final int id)
            throws CaptureFormatException {
        if (Integer.compareUnsigned(id, interfaceCount) >= 0) {
            throw damage(blockName(type) + " names interface " + Integer.toUnsignedString(id)
                    + ", but its section declares " + declaredInterfaces());
        }
        final PcapngInterface iface = interfaces[id];
        final ByteBuffer buffer = window.buffer();
        final int block = window.cursor();
        final long captured = Endian.u32(buffer, block + EPB_CAPTURED_LENGTH_OFFSET, bigEndian);
        final int dataArea = length - EPB_MIN_LENGTH;
        if (captured > dataArea) {
            throw damage("captured length " + captured + " exceeds the " + dataArea + " data bytes of the "
                    + blockName(type));
        }
        final long units = Endian.u32(buffer, block + EPB_TIMESTAMP_HIGH_OFFSET, bigEndian) << 32
                | Endian.u32(buffer, block + EPB_TIMESTAMP_LOW_OFFSET, bigEndian);
        final long nanos = iface.scale().toNanos(units);
        final long shifted = nanos + iface.offsetNanos();
        if (nanos < 0 || iface.offsetNanos() > 0 && shifted < 0) {
            throw damage("timestamp of " + Long.toUnsignedString(units) + " units of " + iface.scale().unit()
                    + " and if_tsoffset of " + iface.offsetNanos() / NANOS_PER_SECOND
                    + " s does not fit in 64-bit nanoseconds");
        }
        final int data = block + EPB_DATA_OFFSET;
        commentIndex = -1;
        final int optionsStart = data + padded((int) captured);
        final int optionsEnd = block + length - BLOCK_TRAILER_LENGTH;
        if (optionsStart < optionsEnd) {
            findComment(type, buffer, optionsStart, optionsEnd);
        }
        deliver(iface, id, true, shifted, (int) captured,
                Endian.u32(buffer, block + EPB_ORIGINAL_LENGTH_OFFSET, bigEndian), data);
    }

    private void readSimplePacket(final int length) throws CaptureFormatException {
        if (interfaceCount == 0) {
            throw damage("simple packet block, but its section declares no interface");
        }
        final PcapngInterface iface = interfaces[0];
        final ByteBuffer buffer = window.buffer();
        final int block = window.cursor();
        final long original = Endian.u32(buffer, block + SPB_ORIGINAL_LENGTH_OFFSET, bigEndian);
        long captured = Math.min(original, length - SPB_MIN_LENGTH);
        if (iface.snapLength() != 0) {
            captured = Math.min(captured, Integer.toUnsignedLong(iface.snapLength()));
        }
        commentIndex = -1;
        deliver(iface, 0, false, 0, (int) captured, original, block + SPB_DATA_OFFSET);
    }

    private void findComment(final int type, final ByteBuffer buffer, final int start, final int end)
            throws CaptureFormatException {
        options.reset(buffer, start, end, bigEndian);
        while (options.next()) {
            if (options.code() == OPT_COMMENT && commentIndex < 0) {
                commentIndex = options.valueIndex();
                commentLength = options.valueLength();
            }
        }
        if (options.malformed()) {
            throw damage(options.problem(blockName(type)));
        }
    }

    private void deliver(final PcapngInterface iface, final int id, final boolean known, final long nanos,
            final int captured, final long original, final int data) {
        packetInterface = iface;
        interfaceId = id;
        timestampKnown = known;
        timestampNanos = nanos;
        capturedLength = captured;
        originalLength = original;
        dataIndex = data;
        byteOffset = window.cursorOffset();
        recordNumber++;
    }

    private String declaredInterfaces() {
        return interfaceCount == 0 ? "none" : interfaceCount == 1 ? "only interface 0"
                : "only interfaces 0 to " + (interfaceCount - 1);
    }

    private static String utf8(final ByteBuffer buffer, final int index, final int length) {
        final byte[] bytes = new byte[length];
        buffer.get(index, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public boolean timestampKnown() {
        checkCurrent();
        return timestampKnown;
    }

    @Override
    public int interfaceId() {
        checkCurrent();
        return interfaceId;
    }

    @Override
    public int linkType() {
        checkCurrent();
        return packetInterface.linkType();
    }

    @Override
    public int snapLength() {
        checkCurrent();
        return packetInterface.snapLength();
    }

    @Override
    public int fcsLength() {
        checkCurrent();
        return packetInterface.fcsLength();
    }

    @Override
    public String interfaceName() {
        checkCurrent();
        return packetInterface.name();
    }

    @Override
    public String sectionComment() {
        return sectionComment;
    }

    @Override
    public String comment() {
        checkCurrent();
        return commentIndex < 0 ? null : utf8(window.buffer(), commentIndex, commentLength);
    }

    @Override
    public CaptureFormat format() {
        return CaptureFormat.PCAPNG;
    }

    @Override
    public boolean bigEndian() {
        return bigEndian;
    }
}

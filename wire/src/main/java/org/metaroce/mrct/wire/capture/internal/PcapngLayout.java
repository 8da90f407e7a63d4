package org.metaroce.mrct.wire.capture.internal;

/**
 * Block types, field offsets (from the start of a block) and option codes of pcapng (IETF
 * draft-ietf-opsawg-pcapng). Multi-byte fields are in the byte order of their section, given by the section header's
 * byte-order magic.
 *
 * <pre>
 * Every block:                               Option (in a block's options area):
 * +---------------------------------------+  +-------------------+-------------------+
 * |              Block type               |  |    Option code    |   Option length   |
 * +---------------------------------------+  +-------------------+-------------------+
 * |          Block total length           |  /   Value, padded to 32 bits            /
 * +---------------------------------------+  +---------------------------------------+
 * /  Block body (type-specific, options)  /  ... ending with code 0 (opt_endofopt) or
 * +---------------------------------------+      the end of the options area
 * |          Block total length           |
 * +---------------------------------------+
 *
 * Section header (0x0A0D0D0A)  Interface description (1)  Enhanced packet (6)        Simple packet (3)
 *  8 byte-order magic           8 link type | reserved     8 interface id              8 original length
 * 12 major | minor             12 snapshot length          12 timestamp (high 32)     12 packet data, padded
 * 16 section length (64 bits)  16 options                  16 timestamp (low 32)
 * 24 options                                               20 captured length         Packet, obsolete (2)
 *                                                          24 original length          8 interface id (16 bits)
 *                                                          28 packet data, padded     10 drops count (16 bits)
 *                                                             then options            12.. as enhanced packet
 * </pre>
 */
final class PcapngLayout {
    static final int SECTION_HEADER_BLOCK = 0x0A0D0D0A;
    static final int INTERFACE_DESCRIPTION_BLOCK = 1;
    static final int PACKET_BLOCK = 2;
    static final int SIMPLE_PACKET_BLOCK = 3;
    static final int NAME_RESOLUTION_BLOCK = 4;
    static final int INTERFACE_STATISTICS_BLOCK = 5;
    static final int ENHANCED_PACKET_BLOCK = 6;
    static final int SYSTEMD_JOURNAL_EXPORT_BLOCK = 9;
    static final int DECRYPTION_SECRETS_BLOCK = 0x0A;
    static final int CUSTOM_BLOCK = 0x0000_0BAD;
    static final int CUSTOM_BLOCK_NO_COPY = 0x4000_0BAD;

    static final int BLOCK_TYPE_OFFSET = 0;
    static final int BLOCK_TOTAL_LENGTH_OFFSET = BLOCK_TYPE_OFFSET + 4;
    static final int BLOCK_BODY_OFFSET = BLOCK_TOTAL_LENGTH_OFFSET + 4;
    static final int BLOCK_HEADER_LENGTH = BLOCK_BODY_OFFSET;
    static final int BLOCK_TRAILER_LENGTH = 4;
    static final int MIN_BLOCK_LENGTH = BLOCK_HEADER_LENGTH + BLOCK_TRAILER_LENGTH;
    /** Largest block accepted, as other readers do: 16 MiB. */
    static final int MAX_BLOCK_LENGTH = 16 * 1024 * 1024;

    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    static final int SHB_BYTE_ORDER_MAGIC_OFFSET = BLOCK_BODY_OFFSET;
    static final int SHB_VERSION_MAJOR_OFFSET = SHB_BYTE_ORDER_MAGIC_OFFSET + 4;
    static final int SHB_VERSION_MINOR_OFFSET = SHB_VERSION_MAJOR_OFFSET + 2;
    static final int SHB_SECTION_LENGTH_OFFSET = SHB_VERSION_MINOR_OFFSET + 2;
    static final int SHB_OPTIONS_OFFSET = SHB_SECTION_LENGTH_OFFSET + 8;
    static final int SHB_MIN_LENGTH = SHB_OPTIONS_OFFSET + BLOCK_TRAILER_LENGTH;
    static final int SHB_VERSION_MAJOR = 1;
    static final int SHB_VERSION_MINOR = 0;
    /** Section length value meaning "not specified". */
    static final long SHB_SECTION_LENGTH_UNSPECIFIED = -1;

    static final int IDB_LINK_TYPE_OFFSET = BLOCK_BODY_OFFSET;
    static final int IDB_RESERVED_OFFSET = IDB_LINK_TYPE_OFFSET + 2;
    static final int IDB_SNAPLEN_OFFSET = IDB_RESERVED_OFFSET + 2;
    static final int IDB_OPTIONS_OFFSET = IDB_SNAPLEN_OFFSET + 4;
    static final int IDB_MIN_LENGTH = IDB_OPTIONS_OFFSET + BLOCK_TRAILER_LENGTH;

    static final int EPB_INTERFACE_ID_OFFSET = BLOCK_BODY_OFFSET;
    static final int EPB_TIMESTAMP_HIGH_OFFSET = EPB_INTERFACE_ID_OFFSET + 4;
    static final int EPB_TIMESTAMP_LOW_OFFSET = EPB_TIMESTAMP_HIGH_OFFSET + 4;
    static final int EPB_CAPTURED_LENGTH_OFFSET = EPB_TIMESTAMP_LOW_OFFSET + 4;
    static final int EPB_ORIGINAL_LENGTH_OFFSET = EPB_CAPTURED_LENGTH_OFFSET + 4;
    static final int EPB_DATA_OFFSET = EPB_ORIGINAL_LENGTH_OFFSET + 4;
    static final int EPB_MIN_LENGTH = EPB_DATA_OFFSET + BLOCK_TRAILER_LENGTH;

    /**
     * The obsolete packet block: a 16-bit interface id and a 16-bit drops count where the enhanced packet block has
     * its 32-bit interface id; from the timestamp on, the same fields at the same offsets.
     */
    static final int PB_INTERFACE_ID_OFFSET = BLOCK_BODY_OFFSET;

    static final int SPB_ORIGINAL_LENGTH_OFFSET = BLOCK_BODY_OFFSET;
    static final int SPB_DATA_OFFSET = SPB_ORIGINAL_LENGTH_OFFSET + 4;
    static final int SPB_MIN_LENGTH = SPB_DATA_OFFSET + BLOCK_TRAILER_LENGTH;

    static final int OPTION_CODE_OFFSET = 0;
    static final int OPTION_LENGTH_OFFSET = OPTION_CODE_OFFSET + 2;
    static final int OPTION_VALUE_OFFSET = OPTION_LENGTH_OFFSET + 2;
    static final int OPTION_HEADER_LENGTH = OPTION_VALUE_OFFSET;
    static final int MAX_OPTION_LENGTH = 0xFFFF;

    static final int OPT_ENDOFOPT = 0;
    static final int OPT_COMMENT = 1;
    static final int SHB_USERAPPL = 4;
    static final int IF_NAME = 2;
    static final int IF_TSRESOL = 9;
    static final int IF_FCSLEN = 13;
    static final int IF_TSOFFSET = 14;

    private PcapngLayout() {
    }

    /** {@code length} rounded up to a multiple of 4, the padding of packet data and option values. */
    static int padded(final int length) {
        return (length + 3) & ~3;
    }

    /** The name of a block type for messages, e.g. {@code "enhanced packet block"}. */
    static String blockName(final int type) {
        switch (type) {
            case SECTION_HEADER_BLOCK:
                return "section header block";
            case INTERFACE_DESCRIPTION_BLOCK:
                return "interface description block";
            case PACKET_BLOCK:
                return "packet block";
            case SIMPLE_PACKET_BLOCK:
                return "simple packet block";
            case NAME_RESOLUTION_BLOCK:
                return "name resolution block";
            case INTERFACE_STATISTICS_BLOCK:
                return "interface statistics block";
            case ENHANCED_PACKET_BLOCK:
                return "enhanced packet block";
            case SYSTEMD_JOURNAL_EXPORT_BLOCK:
                return "systemd journal export block";
            case DECRYPTION_SECRETS_BLOCK:
                return "decryption secrets block";
            case CUSTOM_BLOCK:
            case CUSTOM_BLOCK_NO_COPY:
                return "custom block";
            default:
                return String.format("block of type 0x%08X", type);
        }
    }
}

package org.metaroce.mrct.wire.capture.internal;

/**
 * Field offsets and constants of the classic pcap savefile (tcpdump.org pcap-savefile(5)). All multi-byte fields
 * are in the byte order of the writer, told apart by the magic number.
 *
 * <pre>
 * File header (24 bytes):
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Magic (0xA1B2C3D4 micro, 0xA1B23C4D nano)            |  0
 * +-------------------------------+-------------------------------+
 * |        Major version (2)      |        Minor version (4)      |  4
 * +-------------------------------+-------------------------------+
 * |                  Reserved1 (was thiszone)                     |  8
 * |                  Reserved2 (was sigfigs)                      | 12
 * |                         Snapshot length                       | 16
 * +-------+-+-+-------------------+-------------------------------+
 * |FCS len|R|P|     Reserved3     |        Link-layer type        | 20
 * +-------+-+-+-------------------+-------------------------------+
 * Record header (16 bytes), then the captured bytes:
 * |                  Timestamp (seconds, unsigned)                |  0
 * |          Timestamp (microseconds or nanoseconds)              |  4
 * |                  Captured packet length                       |  8
 * |                  Original packet length                       | 12
 * /                  Packet data (captured length bytes)          / 16
 * </pre>
 *
 * When the P bit is set, "FCS len" is the number of 16-bit words of frame check sequence at the end of every frame.
 */
final class PcapLayout {
    static final int MAGIC_MICROSECONDS = 0xA1B2C3D4;
    static final int MAGIC_NANOSECONDS = 0xA1B23C4D;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_MAJOR_OFFSET = MAGIC_OFFSET + 4;
    static final int VERSION_MINOR_OFFSET = VERSION_MAJOR_OFFSET + 2;
    static final int RESERVED1_OFFSET = VERSION_MINOR_OFFSET + 2;
    static final int RESERVED2_OFFSET = RESERVED1_OFFSET + 4;
    static final int SNAPLEN_OFFSET = RESERVED2_OFFSET + 4;
    static final int LINK_TYPE_OFFSET = SNAPLEN_OFFSET + 4;
    static final int FILE_HEADER_LENGTH = LINK_TYPE_OFFSET + 4;

    static final int TIMESTAMP_SECONDS_OFFSET = 0;
    static final int TIMESTAMP_FRACTION_OFFSET = TIMESTAMP_SECONDS_OFFSET + 4;
    static final int CAPTURED_LENGTH_OFFSET = TIMESTAMP_FRACTION_OFFSET + 4;
    static final int ORIGINAL_LENGTH_OFFSET = CAPTURED_LENGTH_OFFSET + 4;
    static final int RECORD_HEADER_LENGTH = ORIGINAL_LENGTH_OFFSET + 4;

    static final int VERSION_MAJOR = 2;
    static final int VERSION_MINOR = 4;

    /** Link-layer type: the low 16 bits of the link-type field. */
    static final int LINK_TYPE_MASK = 0xFFFF;
    /** P bit: the FCS length field is meaningful. */
    static final int FCS_PRESENT_BIT = 0x0400_0000;
    /** FCS length, in 16-bit words: the top 4 bits. */
    static final int FCS_WORDS_SHIFT = 28;

    /** Captured lengths up to this are accepted even when the snapshot length is 0 or smaller: 256 KiB. */
    static final int LENIENT_CAPTURED_LENGTH = 256 * 1024;
    /** No captured length beyond this is accepted whatever the snapshot length says: 16 MiB. */
    static final int MAX_CAPTURED_LENGTH = 16 * 1024 * 1024;

    private PcapLayout() {
    }
}

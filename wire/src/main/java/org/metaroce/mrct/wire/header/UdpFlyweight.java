package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * UDP header (RFC 768). MetaRoCE uses destination port 4791 and sends the checksum as 0.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |          Source Port          |       Destination Port        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |             Length            |           Checksum            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class UdpFlyweight extends HeaderFlyweight<UdpFlyweight> {
    public static final int SOURCE_PORT_OFFSET = 0;
    public static final int DESTINATION_PORT_OFFSET = SOURCE_PORT_OFFSET + 2;
    public static final int LENGTH_OFFSET = DESTINATION_PORT_OFFSET + 2;
    public static final int CHECKSUM_OFFSET = LENGTH_OFFSET + 2;
    public static final int LENGTH = CHECKSUM_OFFSET + 2;
    /** The IANA-assigned RoCEv2 port. */
    public static final int ROCE_V2_PORT = 4791;

    public int sourcePort() {
        return BigEndian.u16(buffer, offset + SOURCE_PORT_OFFSET);
    }

    public UdpFlyweight sourcePort(final int port) {
        BigEndian.u16(buffer, offset + SOURCE_PORT_OFFSET, port);
        return this;
    }

    public int destinationPort() {
        return BigEndian.u16(buffer, offset + DESTINATION_PORT_OFFSET);
    }

    public UdpFlyweight destinationPort(final int port) {
        BigEndian.u16(buffer, offset + DESTINATION_PORT_OFFSET, port);
        return this;
    }

    /** Length of header plus payload. */
    public int length() {
        return BigEndian.u16(buffer, offset + LENGTH_OFFSET);
    }

    public UdpFlyweight length(final int length) {
        BigEndian.u16(buffer, offset + LENGTH_OFFSET, length);
        return this;
    }

    public int checksum() {
        return BigEndian.u16(buffer, offset + CHECKSUM_OFFSET);
    }

    public UdpFlyweight checksum(final int checksum) {
        BigEndian.u16(buffer, offset + CHECKSUM_OFFSET, checksum);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}

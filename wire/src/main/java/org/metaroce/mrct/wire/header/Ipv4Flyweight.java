package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * IPv4 header (RFC 791). MetaRoCE sends IHL 5, DF set, protocol 17.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |Version|  IHL  |   DSCP    |ECN|          Total Length         |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |         Identification        |0|D|M|      Fragment Offset    |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |      TTL      |   Protocol    |         Header Checksum       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                       Source Address                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    Destination Address                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class Ipv4Flyweight extends HeaderFlyweight<Ipv4Flyweight> {
    public static final int VERSION_IHL_OFFSET = 0;
    public static final int TOS_OFFSET = VERSION_IHL_OFFSET + 1;
    public static final int TOTAL_LENGTH_OFFSET = TOS_OFFSET + 1;
    public static final int IDENTIFICATION_OFFSET = TOTAL_LENGTH_OFFSET + 2;
    public static final int FLAGS_FRAGMENT_OFFSET = IDENTIFICATION_OFFSET + 2;
    public static final int TTL_OFFSET = FLAGS_FRAGMENT_OFFSET + 2;
    public static final int PROTOCOL_OFFSET = TTL_OFFSET + 1;
    public static final int CHECKSUM_OFFSET = PROTOCOL_OFFSET + 1;
    public static final int SOURCE_OFFSET = CHECKSUM_OFFSET + 2;
    public static final int DESTINATION_OFFSET = SOURCE_OFFSET + 4;
    public static final int MIN_LENGTH = DESTINATION_OFFSET + 4;
    public static final int PROTOCOL_UDP = 17;

    public int version() {
        return BigEndian.u8(buffer, offset + VERSION_IHL_OFFSET) >>> 4;
    }

    /** Header length in 32-bit words. */
    public int ihl() {
        return BigEndian.u8(buffer, offset + VERSION_IHL_OFFSET) & 0x0F;
    }

    public Ipv4Flyweight versionAndIhl(final int version, final int ihl) {
        BigEndian.u8(buffer, offset + VERSION_IHL_OFFSET, ((version & 0xF) << 4) | (ihl & 0xF));
        return this;
    }

    public int dscp() {
        return BigEndian.u8(buffer, offset + TOS_OFFSET) >>> 2;
    }

    public int ecn() {
        return BigEndian.u8(buffer, offset + TOS_OFFSET) & 0x3;
    }

    public Ipv4Flyweight tos(final int dscp, final int ecn) {
        BigEndian.u8(buffer, offset + TOS_OFFSET, ((dscp & 0x3F) << 2) | (ecn & 0x3));
        return this;
    }

    public int totalLength() {
        return BigEndian.u16(buffer, offset + TOTAL_LENGTH_OFFSET);
    }

    public Ipv4Flyweight totalLength(final int length) {
        BigEndian.u16(buffer, offset + TOTAL_LENGTH_OFFSET, length);
        return this;
    }

    public int identification() {
        return BigEndian.u16(buffer, offset + IDENTIFICATION_OFFSET);
    }

    public Ipv4Flyweight identification(final int id) {
        BigEndian.u16(buffer, offset + IDENTIFICATION_OFFSET, id);
        return this;
    }

    public boolean dontFragment() {
        return (BigEndian.u16(buffer, offset + FLAGS_FRAGMENT_OFFSET) & 0x4000) != 0;
    }

    public boolean moreFragments() {
        return (BigEndian.u16(buffer, offset + FLAGS_FRAGMENT_OFFSET) & 0x2000) != 0;
    }

    /** Fragment offset in 8-byte units. */
    public int fragmentOffset() {
        return BigEndian.u16(buffer, offset + FLAGS_FRAGMENT_OFFSET) & 0x1FFF;
    }

    public Ipv4Flyweight flagsAndFragment(final boolean df, final boolean mf, final int fragmentOffset) {
        BigEndian.u16(buffer, offset + FLAGS_FRAGMENT_OFFSET,
            (df ? 0x4000 : 0) | (mf ? 0x2000 : 0) | (fragmentOffset & 0x1FFF));
        return this;
    }

    public int ttl() {
        return BigEndian.u8(buffer, offset + TTL_OFFSET);
    }

    public Ipv4Flyweight ttl(final int ttl) {
        BigEndian.u8(buffer, offset + TTL_OFFSET, ttl);
        return this;
    }

    public int protocol() {
        return BigEndian.u8(buffer, offset + PROTOCOL_OFFSET);
    }

    public Ipv4Flyweight protocol(final int protocol) {
        BigEndian.u8(buffer, offset + PROTOCOL_OFFSET, protocol);
        return this;
    }

    public int checksum() {
        return BigEndian.u16(buffer, offset + CHECKSUM_OFFSET);
    }

    public Ipv4Flyweight checksum(final int checksum) {
        BigEndian.u16(buffer, offset + CHECKSUM_OFFSET, checksum);
        return this;
    }

    /** Source address as a 32-bit int (network order value). */
    public int source() {
        return BigEndian.i32(buffer, offset + SOURCE_OFFSET);
    }

    public Ipv4Flyweight source(final int address) {
        BigEndian.i32(buffer, offset + SOURCE_OFFSET, address);
        return this;
    }

    public int destination() {
        return BigEndian.i32(buffer, offset + DESTINATION_OFFSET);
    }

    public Ipv4Flyweight destination(final int address) {
        BigEndian.i32(buffer, offset + DESTINATION_OFFSET, address);
        return this;
    }

    /** The header checksum the header should carry (RFC 1071 over IHL words, checksum field taken as zero). */
    public int computeChecksum() {
        final int length = ihl() * 4;
        int sum = 0;
        for (int i = 0; i < length; i += 2) {
            if (i != CHECKSUM_OFFSET) {
                sum += BigEndian.u16(buffer, offset + i);
            }
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    @Override
    public int headerLength() {
        return ihl() * 4;
    }
}

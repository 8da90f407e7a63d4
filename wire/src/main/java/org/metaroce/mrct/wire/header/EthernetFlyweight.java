package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;

/**
 * Ethernet II header with at most one 802.1Q tag.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    destination MAC (48)                       |
 * +                               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                               |                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               +
 * |                      source MAC (48)                          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     TPID 0x8100 (optional)    | PCP |D|        VID (12)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |           EtherType           |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 */
public final class EthernetFlyweight extends HeaderFlyweight<EthernetFlyweight> {
    public static final int DESTINATION_OFFSET = 0;
    public static final int MAC_LENGTH = 6;
    public static final int SOURCE_OFFSET = DESTINATION_OFFSET + MAC_LENGTH;
    /** Where the TPID of a tag, or the EtherType of an untagged frame, sits. */
    public static final int TYPE_OR_TPID_OFFSET = SOURCE_OFFSET + MAC_LENGTH;
    public static final int TCI_OFFSET = TYPE_OR_TPID_OFFSET + 2;
    public static final int UNTAGGED_LENGTH = TYPE_OR_TPID_OFFSET + 2;
    public static final int TAGGED_LENGTH = UNTAGGED_LENGTH + 4;

    public static final int TPID_8021Q = 0x8100;
    public static final int TPID_8021AD = 0x88A8;
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int ETHERTYPE_ROCE_V1 = 0x8915;

    /** Destination MAC as the low 48 bits of a long. */
    public long destination() {
        return BigEndian.uN(buffer, offset + DESTINATION_OFFSET, MAC_LENGTH);
    }

    public EthernetFlyweight destination(final long mac) {
        BigEndian.uN(buffer, offset + DESTINATION_OFFSET, MAC_LENGTH, mac);
        return this;
    }

    /** Source MAC as the low 48 bits of a long. */
    public long source() {
        return BigEndian.uN(buffer, offset + SOURCE_OFFSET, MAC_LENGTH);
    }

    public EthernetFlyweight source(final long mac) {
        BigEndian.uN(buffer, offset + SOURCE_OFFSET, MAC_LENGTH, mac);
        return this;
    }

    /** True when the frame carries an 802.1Q tag. */
    public boolean hasVlan() {
        return BigEndian.u16(buffer, offset + TYPE_OR_TPID_OFFSET) == TPID_8021Q;
    }

    /** The tag's TCI (PCP, DEI, VID); meaningful only when {@link #hasVlan()}. */
    public int tci() {
        return BigEndian.u16(buffer, offset + TCI_OFFSET);
    }

    public int vlanId() {
        return tci() & 0x0FFF;
    }

    public int vlanPcp() {
        return tci() >>> 13;
    }

    public int vlanDei() {
        return (tci() >>> 12) & 1;
    }

    /** Writes a tag (TPID 0x8100) with this TCI; the caller lays out the rest of the frame for a tagged header. */
    public EthernetFlyweight tag(final int pcp, final int dei, final int vid) {
        BigEndian.u16(buffer, offset + TYPE_OR_TPID_OFFSET, TPID_8021Q);
        BigEndian.u16(buffer, offset + TCI_OFFSET, ((pcp & 0x7) << 13) | ((dei & 1) << 12) | (vid & 0x0FFF));
        return this;
    }

    /** The EtherType after the tag, if any. */
    public int etherType() {
        return BigEndian.u16(buffer, offset + headerLength() - 2);
    }

    /** Writes the EtherType after the tag, if any (write the tag first). */
    public EthernetFlyweight etherType(final int type) {
        BigEndian.u16(buffer, offset + headerLength() - 2, type);
        return this;
    }

    @Override
    public int headerLength() {
        return hasVlan() ? TAGGED_LENGTH : UNTAGGED_LENGTH;
    }
}

package org.metaroce.mrct.wire;

/**
 * Every header mrct decodes or builds, with its fixed length in bytes (0 when variable). The order of the constants
 * is not the order on the wire; see {@link HeaderLayout} for that.
 */
public enum HeaderKind {
    /** Ethernet destination and source MAC (the EtherType is {@link #ETHERTYPE}). */
    ETH(12),
    /** One 802.1Q tag: TPID and TCI. */
    VLAN(4),
    /** The EtherType that selects IPv4, IPv6 or RoCEv1. */
    ETHERTYPE(2),
    /** IPv4 header, 20 bytes without options (options are part of it when IHL &gt; 5). */
    IPV4(0),
    /** IPv6 header; also the RoCEv1 GRH, which has the same layout. */
    IPV6(40),
    UDP(8),
    BTH(12),
    /** MetaRoCE placement extended transport header. */
    PLETH(12),
    RETH(16),
    AETH(4),
    /** MetaRoCE selective acknowledgement extended transport header. */
    SACKETH(12),
    ATOMIC_ETH(28),
    ATOMIC_ACK_ETH(8),
    IMMDT(4),
    IETH(4),
    DETH(8),
    /** FLUSH extended transport header (RoCEv2 FLUSH; unsupported by MetaRoCE v1, decoded for captures). */
    FETH(4),
    /** The 16 reserved bytes of a CNP. */
    CNP_RESERVED(16),
    ICRC(4);

    private final int length;

    HeaderKind(final int length) {
        this.length = length;
    }

    /** Fixed length in bytes, 0 for IPv4 (variable with options). */
    public int length() {
        return length;
    }

    /** Lower-case name used in field names and messages ({@code bth}, {@code atomiceth}, ...). */
    public String label() {
        switch (this) {
            case IPV4:
            case IPV6:
                return "ip";
            case ATOMIC_ETH:
                return "atomiceth";
            case ATOMIC_ACK_ETH:
                return "atomicacketh";
            case CNP_RESERVED:
                return "cnp";
            default:
                return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}

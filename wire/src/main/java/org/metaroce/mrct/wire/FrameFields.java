package org.metaroce.mrct.wire;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of every named frame field. Names are those of the MetaRoCE v1 specification and of the
 * {@code mrct decode} output. A few names exist once per IP version ({@code ip.dscp} sits in a different place in
 * IPv4 and IPv6); {@link #resolve} picks the variant whose header a frame has.
 */
public final class FrameFields {
    private static final Map<String, List<FrameField>> BY_NAME = new LinkedHashMap<>();
    private static final List<FrameField> ALL = new ArrayList<>();

    public static final FrameField ETH_DST = mac("eth.dst", HeaderKind.ETH, 0);
    public static final FrameField ETH_SRC = mac("eth.src", HeaderKind.ETH, 6);
    public static final FrameField VLAN_TPID = hex("vlan.tpid", HeaderKind.VLAN, 0, 2);
    public static final FrameField VLAN_PCP = bits("vlan.pcp", HeaderKind.VLAN, 2, 2, 13, 3);
    public static final FrameField VLAN_DEI = flag("vlan.dei", HeaderKind.VLAN, 2, 2, 12);
    public static final FrameField VLAN_VID = bits("vlan.vid", HeaderKind.VLAN, 2, 2, 0, 12);
    public static final FrameField ETH_TYPE = hex("eth.type", HeaderKind.ETHERTYPE, 0, 2);

    public static final FrameField IPV4_VERSION = bits("ip.version", HeaderKind.IPV4, 0, 1, 4, 4);
    public static final FrameField IPV4_IHL = bits("ip.ihl", HeaderKind.IPV4, 0, 1, 0, 4);
    public static final FrameField IPV4_DSCP = bits("ip.dscp", HeaderKind.IPV4, 1, 1, 2, 6);
    public static final FrameField IPV4_ECN = bits("ip.ecn", HeaderKind.IPV4, 1, 1, 0, 2);
    public static final FrameField IPV4_TOTAL_LENGTH = number("ip.total_length", HeaderKind.IPV4, 2, 2);
    public static final FrameField IPV4_ID = number("ip.id", HeaderKind.IPV4, 4, 2);
    public static final FrameField IPV4_DF = flag("ip.df", HeaderKind.IPV4, 6, 2, 14);
    public static final FrameField IPV4_MF = flag("ip.mf", HeaderKind.IPV4, 6, 2, 13);
    public static final FrameField IPV4_FRAG_OFFSET = bits("ip.frag_offset", HeaderKind.IPV4, 6, 2, 0, 13);
    public static final FrameField IPV4_TTL = number("ip.ttl", HeaderKind.IPV4, 8, 1);
    public static final FrameField IPV4_PROTOCOL = number("ip.protocol", HeaderKind.IPV4, 9, 1);
    public static final FrameField IPV4_CHECKSUM = hex("ip.checksum", HeaderKind.IPV4, 10, 2);
    public static final FrameField IPV4_SRC = address("ip.src", HeaderKind.IPV4, 12, 4);
    public static final FrameField IPV4_DST = address("ip.dst", HeaderKind.IPV4, 16, 4);

    public static final FrameField IPV6_VERSION = bits("ip.version", HeaderKind.IPV6, 0, 4, 28, 4);
    public static final FrameField IPV6_DSCP = bits("ip.dscp", HeaderKind.IPV6, 0, 4, 22, 6);
    public static final FrameField IPV6_ECN = bits("ip.ecn", HeaderKind.IPV6, 0, 4, 20, 2);
    public static final FrameField IPV6_FLOW_LABEL = bits("ip6.flow_label", HeaderKind.IPV6, 0, 4, 0, 20);
    public static final FrameField IPV6_PAYLOAD_LENGTH = number("ip6.payload_length", HeaderKind.IPV6, 4, 2);
    public static final FrameField IPV6_NEXT_HEADER = number("ip.protocol", HeaderKind.IPV6, 6, 1);
    public static final FrameField IPV6_HOP_LIMIT = number("ip.ttl", HeaderKind.IPV6, 7, 1);
    public static final FrameField IPV6_SRC = address("ip.src", HeaderKind.IPV6, 8, 16);
    public static final FrameField IPV6_DST = address("ip.dst", HeaderKind.IPV6, 24, 16);

    public static final FrameField UDP_SPORT = number("udp.sport", HeaderKind.UDP, 0, 2);
    public static final FrameField UDP_DPORT = number("udp.dport", HeaderKind.UDP, 2, 2);
    public static final FrameField UDP_LENGTH = number("udp.length", HeaderKind.UDP, 4, 2);
    public static final FrameField UDP_CHECKSUM = hex("udp.checksum", HeaderKind.UDP, 6, 2);

    public static final FrameField BTH_OPCODE = number("bth.opcode", HeaderKind.BTH, 0, 1);
    public static final FrameField BTH_SE = flag("bth.se", HeaderKind.BTH, 1, 1, 7);
    public static final FrameField BTH_M = flag("bth.m", HeaderKind.BTH, 1, 1, 6);
    public static final FrameField BTH_PADCNT = bits("bth.padcnt", HeaderKind.BTH, 1, 1, 4, 2);
    public static final FrameField BTH_TVER = bits("bth.tver", HeaderKind.BTH, 1, 1, 0, 4);
    public static final FrameField BTH_PKEY = hex("bth.pkey", HeaderKind.BTH, 2, 2);
    public static final FrameField BTH_FECN = flag("bth.fecn", HeaderKind.BTH, 4, 1, 7);
    public static final FrameField BTH_BECN = flag("bth.becn", HeaderKind.BTH, 4, 1, 6);
    public static final FrameField BTH_RESV6A = bits("bth.resv6a", HeaderKind.BTH, 4, 1, 0, 6);
    public static final FrameField BTH_DQPN = number("bth.dqpn", HeaderKind.BTH, 5, 3);
    public static final FrameField BTH_ACKREQ = flag("bth.ackreq", HeaderKind.BTH, 8, 1, 7);
    public static final FrameField BTH_RESV7 = bits("bth.resv7", HeaderKind.BTH, 8, 1, 0, 7);
    public static final FrameField BTH_PSN = number("bth.psn", HeaderKind.BTH, 9, 3);

    public static final FrameField PLETH_MSN = number("pleth.msn", HeaderKind.PLETH, 0, 3);
    public static final FrameField PLETH_FLAGS = hex("pleth.flags", HeaderKind.PLETH, 3, 1);
    public static final FrameField PLETH_FIRST = flag("pleth.first", HeaderKind.PLETH, 3, 1, 7);
    public static final FrameField PLETH_LAST = flag("pleth.last", HeaderKind.PLETH, 3, 1, 6);
    public static final FrameField PLETH_FLAGS_RESV = bits("pleth.flags_resv", HeaderKind.PLETH, 3, 1, 0, 6);
    public static final FrameField PLETH_OFFSET = number("pleth.offset", HeaderKind.PLETH, 4, 4);
    public static final FrameField PLETH_RSN = number("pleth.rsn", HeaderKind.PLETH, 8, 3);
    public static final FrameField PLETH_RESV = number("pleth.resv", HeaderKind.PLETH, 11, 1);

    public static final FrameField RETH_VA = hex("reth.va", HeaderKind.RETH, 0, 8);
    public static final FrameField RETH_RKEY = hex("reth.rkey", HeaderKind.RETH, 8, 4);
    public static final FrameField RETH_DMALEN = number("reth.dmalen", HeaderKind.RETH, 12, 4);

    public static final FrameField AETH_SYNDROME = hex("aeth.syndrome", HeaderKind.AETH, 0, 1);
    public static final FrameField AETH_MSN = number("aeth.msn", HeaderKind.AETH, 1, 3);

    public static final FrameField SACKETH_RESV = number("sacketh.resv", HeaderKind.SACKETH, 0, 1);
    public static final FrameField SACKETH_BASE = number("sacketh.base", HeaderKind.SACKETH, 1, 3);
    public static final FrameField SACKETH_BITMAP = hex("sacketh.bitmap", HeaderKind.SACKETH, 4, 8);

    public static final FrameField ATOMICETH_VA = hex("atomiceth.va", HeaderKind.ATOMIC_ETH, 0, 8);
    public static final FrameField ATOMICETH_RKEY = hex("atomiceth.rkey", HeaderKind.ATOMIC_ETH, 8, 4);
    public static final FrameField ATOMICETH_SWAP = hex("atomiceth.swap", HeaderKind.ATOMIC_ETH, 12, 8);
    public static final FrameField ATOMICETH_COMPARE = hex("atomiceth.compare", HeaderKind.ATOMIC_ETH, 20, 8);
    public static final FrameField ATOMICACKETH_ORIG = hex("atomicacketh.orig", HeaderKind.ATOMIC_ACK_ETH, 0, 8);

    public static final FrameField IMMDT = hex("immdt", HeaderKind.IMMDT, 0, 4);
    public static final FrameField IETH_RKEY = hex("ieth.rkey", HeaderKind.IETH, 0, 4);
    public static final FrameField DETH_QKEY = hex("deth.qkey", HeaderKind.DETH, 0, 4);
    public static final FrameField DETH_RESV = number("deth.resv", HeaderKind.DETH, 4, 1);
    public static final FrameField DETH_SRCQP = number("deth.srcqp", HeaderKind.DETH, 5, 3);
    public static final FrameField FETH = hex("feth", HeaderKind.FETH, 0, 4);

    /** The ICRC as a CRC-32 value; on the wire it is sent least significant byte first. */
    public static final FrameField ICRC = register(new FrameField("icrc", HeaderKind.ICRC, 0, 4, 0, 32, true,
        FrameField.Format.HEX));

    private FrameFields() {
    }

    /** Every field, IPv4 and IPv6 variants both, in registry order. */
    public static List<FrameField> all() {
        return Collections.unmodifiableList(ALL);
    }

    /** Every distinct field name, in registry order. */
    public static List<String> names() {
        return List.copyOf(BY_NAME.keySet());
    }

    /** True when some field has this name. */
    public static boolean exists(final String name) {
        return BY_NAME.containsKey(name);
    }

    /** The variants of a name (one, or one per IP version); empty when the name is unknown. */
    public static List<FrameField> variants(final String name) {
        return BY_NAME.getOrDefault(name, List.of());
    }

    /**
     * The variant of {@code name} whose header is one of {@code present}, or null when the name is unknown or the
     * frame has none of its headers.
     */
    public static FrameField resolve(final String name, final java.util.function.Predicate<HeaderKind> present) {
        for (final FrameField field : variants(name)) {
            if (present.test(field.header())) {
                return field;
            }
        }
        return null;
    }

    private static FrameField register(final FrameField field) {
        ALL.add(field);
        BY_NAME.computeIfAbsent(field.name(), key -> new ArrayList<>(2)).add(field);
        return field;
    }

    private static FrameField number(final String name, final HeaderKind header, final int offset, final int bytes) {
        return register(new FrameField(name, header, offset, bytes, 0, bytes * 8, false, FrameField.Format.DECIMAL));
    }

    private static FrameField hex(final String name, final HeaderKind header, final int offset, final int bytes) {
        return register(new FrameField(name, header, offset, bytes, 0, bytes * 8, false, FrameField.Format.HEX));
    }

    private static FrameField mac(final String name, final HeaderKind header, final int offset) {
        return register(new FrameField(name, header, offset, 6, 0, 48, false, FrameField.Format.MAC));
    }

    private static FrameField bits(final String name, final HeaderKind header, final int offset, final int bytes,
                                   final int shift, final int width) {
        return register(new FrameField(name, header, offset, bytes, shift, width, false, FrameField.Format.DECIMAL));
    }

    private static FrameField flag(final String name, final HeaderKind header, final int offset, final int bytes,
                                   final int shift) {
        return register(new FrameField(name, header, offset, bytes, shift, 1, false, FrameField.Format.FLAG));
    }

    private static FrameField address(final String name, final HeaderKind header, final int offset,
                                      final int bytes) {
        return register(new FrameField(name, header, offset, bytes, 0, bytes * 8, false,
            bytes == 4 ? FrameField.Format.IPV4 : FrameField.Format.IPV6));
    }
}

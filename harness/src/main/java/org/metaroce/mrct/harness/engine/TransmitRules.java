package org.metaroce.mrct.harness.engine;

import java.util.Map;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameFields;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.header.EthernetFlyweight;

/**
 * The transmit rules every frame from the device must meet, whatever the case is about (MetaRoCE v1 sections 1, 2, 5
 * and 14): framing, IP and UDP fields, BTH fixed values, pad, ICRC, PLETH and AETH encodings, ECN marks, addressing
 * to the configured peer from the port's own MAC address, the monotonic cumulative ACK, and the UDP source ports of a
 * QP's data packets (one fixed port without spraying, at least 2 ports in any 16 packets with it). The engine applies them to every frame it receives, so a
 * device that breaks one fails the case during which it did, with the rule named.
 */
final class TransmitRules {
    /** A broken transmit rule. */
    record Violation(String rule, FieldDiff diff) {
    }

    private TransmitRules() {
    }

    /**
     * The first violation in {@code f}, or null. {@code connection} is the connection the frame belongs to (by its
     * bth.dqpn), or null; {@code highestBase} tracks the cumulative ACK per connection for MR-ACK-010;
     * {@code deviceMac} is the port's own MAC address.
     */
    static Violation check(final DecodedFrame f, final Connection connection, final long harnessMac,
                           final long deviceMac, final Map<Connection, Integer> highestBase) {
        if (!f.isRoce()) {
            return new Violation("MR-WIRE-001", new FieldDiff("frame", "a well-formed MetaRoCE frame",
                f.status() + (f.failure() != null ? ": " + f.failure() : "")));
        }
        final int etherType = f.eth().etherType();
        if (etherType != EthernetFlyweight.ETHERTYPE_IPV4 && etherType != EthernetFlyweight.ETHERTYPE_IPV6) {
            return diff("MR-WIRE-001", "eth.type", "0x0800 or 0x86DD", "0x" + Integer.toHexString(etherType));
        }
        if (f.eth().destination() != harnessMac) {
            return diff("MR-MP-007", "eth.dst", FrameFields.ETH_DST.describe(harnessMac),
                FrameFields.ETH_DST.describe(f.eth().destination()));
        }
        if (f.eth().source() != deviceMac) {
            return diff("MR-WIRE-001", "eth.src", FrameFields.ETH_SRC.describe(deviceMac) + " (the port's MAC)",
                FrameFields.ETH_SRC.describe(f.eth().source()));
        }
        if (f.has(HeaderKind.VLAN) && f.eth().vlanDei() != 0) {
            return diff("MR-WIRE-001", "vlan.dei", "0", Integer.toString(f.eth().vlanDei()));
        }
        final Violation ip = f.has(HeaderKind.IPV4) ? ipv4(f) : ipv6(f);
        if (ip != null) {
            return ip;
        }
        if (f.udp().checksum() != 0) {
            return diff("MR-WIRE-009", "udp.checksum", "0", "0x" + Integer.toHexString(f.udp().checksum()));
        }
        final Opcode opcode = f.opcode();
        final boolean data = opcode.kind().isRequest() || opcode.kind() == OpKind.RDMA_READ_RESPONSE;
        if (data && f.udp().sourcePort() < 0xC000) {
            return diff("MR-WIRE-010", "udp.sport", "0xC000-0xFFFF", "0x" + Integer.toHexString(f.udp()
                .sourcePort()));
        }
        if (!f.icrcValid()) {
            return diff("MR-WIRE-014", "icrc", FrameCheck.hex(Integer.toUnsignedLong(f.computeIcrc())),
                FrameCheck.hex(Integer.toUnsignedLong(f.icrcOnWire())));
        }
        final Violation bth = bth(f, opcode, connection);
        if (bth != null) {
            return bth;
        }
        final int pad = (-f.payloadLength()) & 3;
        if (f.padLength() != pad) {
            return diff("MR-WIRE-019", "bth.padcnt", Integer.toString(pad), Integer.toString(f.padLength()));
        }
        for (int i = 0; i < f.padLength(); i++) {
            if (f.buffer().get(f.payloadOffset() + f.payloadLength() + i) != 0) {
                return diff("MR-WIRE-019", "pad", "zero bytes", "a non-zero pad byte at offset " + i);
            }
        }
        final Violation headers = headers(f, opcode);
        if (headers != null) {
            return headers;
        }
        if (f.ecn() == 3) {
            return diff("MR-CC-002", "ip.ecn", "not CE", "3 (CE)");
        }
        if (data && f.ecn() != 1 && f.ecn() != 2) {
            return diff("MR-CC-001", "ip.ecn", "ECT(0) or ECT(1)", Integer.toString(f.ecn()));
        }
        if (opcode == Opcode.ACKNOWLEDGE && f.tver() == 1 && connection != null) {
            if (f.aeth().syndromeValue() == AethSyndrome.NAK_PSN_SEQUENCE_ERROR.value()) {
                return diff("MR-ACK-013", "aeth.syndrome", "not 0x60 on a TVer 1 QP", "0x60");
            }
            final int base = relative(f.sacketh().basePsn(), connection.psnBase());
            final Integer highest = highestBase.get(connection);
            if (highest != null && base < highest) {
                return diff("MR-ACK-010", "sacketh.base", "at least " + highest + " (the highest reported so far)",
                    Integer.toString(base));
            }
            highestBase.put(connection, highest == null ? base : Math.max(highest, base));
            if ((f.sacketh().bitmap() & Long.MIN_VALUE) != 0) {
                return diff("MR-ACK-002", "sacketh.bitmap", "bit 0 clear (ePSN is never recorded)",
                    String.format("0x%016X", f.sacketh().bitmap()));
            }
            if (f.aeth().syndrome().type() == AethSyndrome.Type.ACK
                && relative(f.bth().psn() + 1, connection.psnBase()) != base) {
                return diff("MR-ACK-001", "bth.psn", "sacketh.base - 1 = " + (base - 1),
                    Integer.toString(relative(f.bth().psn(), connection.psnBase())));
            }
        }
        if (data && connection != null) {
            return sourcePort(f, opcode, connection);
        }
        return null;
    }

    /**
     * Section 15.1: without spraying every data packet of a QP carries one and the same udp.sport, its udp_sport
     * attribute when set (MR-MP-001); with spraying any 16 consecutive data packets carry at least 2 values (MR-MP-002
     * for requests, MR-MP-004 for read responses). The ports are tracked per connection since its last modification.
     */
    private static Violation sourcePort(final DecodedFrame f, final Opcode opcode, final Connection connection) {
        final int port = f.udp().sourcePort();
        final SourcePorts ports = connection.ports();
        if (!ports.spray()) {
            if (ports.fixed() != null && port != ports.fixed()) {
                return diff("MR-MP-001", "udp.sport", "0x" + Integer.toHexString(ports.fixed())
                    + " (the udp_sport attribute)", "0x" + Integer.toHexString(port));
            }
            final int first = ports.firstDataPort(port);
            if (port != first) {
                return diff("MR-MP-001", "udp.sport", "0x" + Integer.toHexString(first)
                    + " (the port of the QP's earlier data packets; spray is off)", "0x" + Integer.toHexString(port));
            }
            return null;
        }
        if (ports.sprayedOnOnePort(port)) {
            return diff(opcode.kind().isRequest() ? "MR-MP-002" : "MR-MP-004", "udp.sport",
                "at least 2 values in 16 consecutive data packets (spray is on)",
                "0x" + Integer.toHexString(port) + " in all 16");
        }
        return null;
    }

    private static Violation ipv4(final DecodedFrame f) {
        final var ip = f.ipv4();
        if (ip.ihl() != 5) {
            return diff("MR-WIRE-004", "ip.ihl", "5", Integer.toString(ip.ihl()));
        }
        if (!ip.dontFragment() || ip.moreFragments() || ip.fragmentOffset() != 0) {
            return diff("MR-WIRE-004", "ip.df", "DF 1, MF 0, offset 0", "DF " + (ip.dontFragment() ? 1 : 0) + ", MF "
                + (ip.moreFragments() ? 1 : 0) + ", offset " + ip.fragmentOffset());
        }
        if (!f.ipChecksumValid()) {
            return diff("MR-WIRE-004", "ip.checksum", "0x" + Integer.toHexString(ip.computeChecksum()),
                "0x" + Integer.toHexString(ip.checksum()));
        }
        if (ip.ttl() == 0) {
            return diff("MR-WIRE-004", "ip.ttl", "1 to 255", "0");
        }
        final int datagram = f.packetEnd() - f.offset(HeaderKind.IPV4);
        if (ip.totalLength() != datagram || f.frameOffset() + f.frameLength() != f.packetEnd()
            && f.frameLength() > 60 + (f.has(HeaderKind.VLAN) ? 4 : 0)) {
            return diff("MR-WIRE-004", "ip.total_length", Integer.toString(datagram), Integer.toString(ip
                .totalLength()));
        }
        return null;
    }

    private static Violation ipv6(final DecodedFrame f) {
        final var ip = f.ipv6();
        if (ip.hopLimit() == 0) {
            return diff("MR-WIRE-007", "ip.ttl", "1 to 255", "0");
        }
        if (f.frameOffset() + f.frameLength() != f.packetEnd()) {
            return diff("MR-WIRE-007", "ip6.payload_length", Integer.toString(f.frameLength()
                - (f.offset(HeaderKind.UDP) - f.frameOffset())), Integer.toString(ip.payloadLength()));
        }
        return null;
    }

    private static Violation bth(final DecodedFrame f, final Opcode opcode, final Connection connection) {
        final var bth = f.bth();
        final boolean cnp = opcode == Opcode.CNP;
        if (bth.migReq() || bth.fecn() || bth.resv6a() != 0 || bth.resv7() != 0 || bth.becn() != cnp) {
            return diff(cnp ? "MR-HDR-012" : "MR-WIRE-013", "bth.m/fecn/becn/resv6a/resv7",
                "0, 0, " + (cnp ? 1 : 0) + ", 0, 0", (bth.migReq() ? 1 : 0) + ", " + (bth.fecn() ? 1 : 0) + ", "
                    + (bth.becn() ? 1 : 0) + ", " + bth.resv6a() + ", " + bth.resv7());
        }
        if (connection != null && bth.pkey() != connection.pkey) {
            return diff(cnp ? "MR-HDR-012" : "MR-WIRE-013", "bth.pkey", "0x" + Integer.toHexString(connection.pkey),
                "0x" + Integer.toHexString(bth.pkey()));
        }
        if (cnp && (bth.tver() != 0 || bth.psn() != 0 || bth.ackReq() || bth.solicitedEvent() || bth.padCount() != 0
            || !zero(f, f.offset(HeaderKind.CNP_RESERVED), 16))) {
            return diff("MR-HDR-012", "cnp", "TVer 0, PSN 0, AckReq 0, SE 0, 16 zero bytes",
                "TVer " + bth.tver() + ", PSN " + bth.psn() + ", AckReq " + (bth.ackReq() ? 1 : 0));
        }
        if (!cnp && !opcode.kind().isRequest() && (bth.ackReq() || bth.solicitedEvent())) {
            return diff("MR-WIRE-013", "bth.ackreq", "0 on responses", "1");
        }
        return null;
    }

    private static Violation headers(final DecodedFrame f, final Opcode opcode) {
        if (!org.metaroce.mrct.wire.HeaderLayout.carriesPayload(opcode) && f.payloadLength() != 0) {
            return diff("MR-HDR-001", "payload_len", "0 for " + opcode.name(), Integer.toString(f.payloadLength()));
        }
        if (f.has(HeaderKind.PLETH)) {
            final Position position = opcode.position();
            final boolean first = position.isFirst() || position == Position.NONE;
            final boolean last = position.isLast() || position == Position.NONE;
            if (f.pleth().first() != first || f.pleth().last() != last) {
                return diff("MR-HDR-002", "pleth.first/last", (first ? 1 : 0) + "/" + (last ? 1 : 0),
                    (f.pleth().first() ? 1 : 0) + "/" + (f.pleth().last() ? 1 : 0));
            }
            if ((f.pleth().flags() & 0x3F) != 0 || f.pleth().reserved() != 0) {
                return diff("MR-HDR-003", "pleth.flags_resv/pleth.resv", "0/0", (f.pleth().flags() & 0x3F) + "/"
                    + f.pleth().reserved());
            }
            if (opcode.kind() == OpKind.RDMA_READ_RESPONSE && f.pleth().rsn() != 0) {
                return diff("MR-RD-004", "pleth.rsn", "0", Integer.toString(f.pleth().rsn()));
            }
        }
        if (f.has(HeaderKind.AETH)) {
            final int syndrome = f.aeth().syndromeValue();
            final AethSyndrome.Type type = f.aeth().syndrome().type();
            if ((syndrome & 0x80) != 0 || type == AethSyndrome.Type.RESERVED
                || type == AethSyndrome.Type.ACK && syndrome != 0x1F
                || type == AethSyndrome.Type.NAK && (syndrome < 0x60 || syndrome > 0x63)) {
                return diff("MR-HDR-008", "aeth.syndrome", "a value of Table D-1 that a device sends",
                    "0x" + Integer.toHexString(syndrome));
            }
            if ((opcode.kind() == OpKind.RDMA_READ_RESPONSE || opcode == Opcode.ATOMIC_ACKNOWLEDGE)
                && syndrome != 0x1F) {
                return diff("MR-HDR-008", "aeth.syndrome", "0x1f", "0x" + Integer.toHexString(syndrome));
            }
        }
        return null;
    }

    private static boolean zero(final DecodedFrame f, final int from, final int length) {
        if (from < 0) {
            return true;
        }
        for (int i = 0; i < length; i += 4) {
            if (BigEndian.i32(f.buffer(), from + i) != 0) {
                return false;
            }
        }
        return true;
    }

    private static Violation diff(final String rule, final String field, final String expected, final String actual) {
        return new Violation(rule, new FieldDiff(field, expected, actual));
    }

    private static int relative(final int absolute, final int base) {
        return org.metaroce.mrct.wire.Psn.diff(absolute & org.metaroce.mrct.wire.Psn.MASK, base);
    }
}

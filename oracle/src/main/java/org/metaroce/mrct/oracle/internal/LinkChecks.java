package org.metaroce.mrct.oracle.internal;

import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.FrameRule;
import org.metaroce.mrct.oracle.Vantage;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameFields;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.header.EthernetFlyweight;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;

/**
 * The rules of the link, network and UDP layers and of the ICRC (sections 1.3 to 1.6 and 1.10, 14.1, 15): one method
 * per rule. The fields switches may rewrite, and that the ICRC therefore masks (ECN, TTL), are judged only where a
 * network cannot have changed them: a data packet without ECT was sent so (RFC 3168 forbids clearing ECT), but a CE
 * mark is a network's unless the frames were taken at the device.
 */
public final class LinkChecks {
    private static final Basis DEVICE_MAC = Basis.configured("the port's own MAC address");
    private static final Basis PEER_MAC = Basis.configured("the QP's dest_mac");

    private LinkChecks() {
    }

    /** True for the data packets of the rules: requests and read responses. */
    public static boolean isData(final Opcode opcode) {
        return opcode.kind().isRequest() || opcode.kind() == OpKind.RDMA_READ_RESPONSE;
    }

    /** MR-WIRE-001: EtherType, the port's own eth.src (when known), VLAN DEI 0. */
    public static void wire001(final DecodedFrame f, final Vantage v, final Collector out) {
        out.examined(FrameRule.WIRE_001);
        final int etherType = f.eth().etherType();
        if (etherType != EthernetFlyweight.ETHERTYPE_IPV4 && etherType != EthernetFlyweight.ETHERTYPE_IPV6) {
            out.add(FrameRule.WIRE_001, "eth.type", "0x0800 or 0x86DD", Text.hex(etherType));
        }
        if (v.senderMac() != null && f.eth().source() != v.senderMac()) {
            out.add(FrameRule.WIRE_001, "eth.src", FrameFields.ETH_SRC.describe(v.senderMac()) + " (the port's MAC)",
                FrameFields.ETH_SRC.describe(f.eth().source()), DEVICE_MAC);
        }
        if (f.has(HeaderKind.VLAN) && f.eth().vlanDei() != 0) {
            out.add(FrameRule.WIRE_001, "vlan.dei", "0", Integer.toString(f.eth().vlanDei()));
        }
    }

    /** MR-MP-007: eth.dst is the QP's configured peer (judged when the caller knows it). */
    public static void mp007(final DecodedFrame f, final Vantage v, final Collector out) {
        if (v.peerMac() == null) {
            return;
        }
        out.examined(FrameRule.MP_007);
        if (f.eth().destination() != v.peerMac()) {
            out.add(FrameRule.MP_007, "eth.dst", FrameFields.ETH_DST.describe(v.peerMac()),
                FrameFields.ETH_DST.describe(f.eth().destination()), PEER_MAC);
        }
    }

    /**
     * How many bytes follow the IP packet in the frame without being explained: 0 when none do, or they are the
     * padding of a minimum-size frame, or the FCS the source keeps, or the frame was cut by the capture.
     */
    private static int unexplainedTrailer(final DecodedFrame f, final Vantage v, final boolean truncated) {
        final int trailing = f.frameOffset() + f.frameLength() - f.packetEnd();
        final int minimum = 60 + (f.has(HeaderKind.VLAN) ? 4 : 0);
        final boolean explained = trailing == 0 || f.frameLength() <= minimum || trailing == v.fcsLength()
            || v.fcsLength() < 0 && trailing == 4 || truncated;
        return explained ? 0 : trailing;
    }

    /** MR-WIRE-004: IHL 5, DF 1, MF 0, offset 0, a correct checksum, TTL 1-255, the total length of the datagram. */
    public static void wire004(final DecodedFrame f, final Vantage v, final boolean truncated, final Collector out) {
        if (!f.has(HeaderKind.IPV4)) {
            return;
        }
        out.examined(FrameRule.WIRE_004);
        final Ipv4Flyweight ip = f.ipv4();
        if (ip.ihl() != 5) {
            out.add(FrameRule.WIRE_004, "ip.ihl", "5", Integer.toString(ip.ihl()));
        }
        if (!ip.dontFragment() || ip.moreFragments() || ip.fragmentOffset() != 0) {
            out.add(FrameRule.WIRE_004, "ip.df", "DF 1, MF 0, offset 0", "DF " + Text.bit(ip.dontFragment())
                + ", MF " + Text.bit(ip.moreFragments()) + ", offset " + ip.fragmentOffset());
        }
        if (!f.ipChecksumValid()) {
            out.add(FrameRule.WIRE_004, "ip.checksum", Text.hex(ip.computeChecksum()), Text.hex(ip.checksum()));
        }
        if (ip.ttl() == 0) {
            out.add(FrameRule.WIRE_004, "ip.ttl", "1 to 255", "0");
        }
        final int trailer = unexplainedTrailer(f, v, truncated);
        if (trailer != 0) {
            out.add(FrameRule.WIRE_004, "ip.total_length", Integer.toString(ip.totalLength() + trailer) + " ("
                + trailer + " bytes follow the ICRC in a frame that needs no Ethernet padding)",
                Integer.toString(ip.totalLength()));
        }
    }

    /** MR-WIRE-007: hop limit 1-255, a payload length that covers the frame. */
    public static void wire007(final DecodedFrame f, final Vantage v, final boolean truncated, final Collector out) {
        if (!f.has(HeaderKind.IPV6)) {
            return;
        }
        out.examined(FrameRule.WIRE_007);
        if (f.ipv6().hopLimit() == 0) {
            out.add(FrameRule.WIRE_007, "ip.ttl", "1 to 255", "0");
        }
        final int trailer = unexplainedTrailer(f, v, truncated);
        if (trailer != 0) {
            out.add(FrameRule.WIRE_007, "ip6.payload_length", Integer.toString(f.ipv6().payloadLength() + trailer),
                Integer.toString(f.ipv6().payloadLength()));
        }
    }

    /** MR-WIRE-009: udp.checksum 0 (the decoder already refuses a udp.length that disagrees with IP's). */
    public static void wire009(final DecodedFrame f, final Collector out) {
        out.examined(FrameRule.WIRE_009);
        if (f.udp().checksum() != 0) {
            out.add(FrameRule.WIRE_009, "udp.checksum", "0", Text.hex(f.udp().checksum()));
        }
    }

    /** MR-WIRE-010: a data packet's udp.sport in 0xC000-0xFFFF. */
    public static void wire010(final DecodedFrame f, final Collector out) {
        if (!isData(f.opcode())) {
            return;
        }
        out.examined(FrameRule.WIRE_010);
        final int port = f.udp().sourcePort();
        if (port < 0xC000) {
            out.add(FrameRule.WIRE_010, "udp.sport", "0xC000-0xFFFF", Text.number(port));
        }
    }

    /** MR-WIRE-014: the ICRC (not judged on a frame the capture cut). */
    public static void wire014(final DecodedFrame f, final boolean truncated, final Collector out) {
        if (truncated) {
            return;
        }
        out.examined(FrameRule.WIRE_014);
        if (!f.icrcValid()) {
            out.add(FrameRule.WIRE_014, "icrc", Text.hex32(f.computeIcrc()), Text.hex32(f.icrcOnWire()));
        }
    }

    /** MR-CC-002: no frame with CE, judged only where the frames were taken at the device (a network sets CE). */
    public static void cc002(final DecodedFrame f, final Vantage v, final Collector out) {
        if (!v.atSender()) {
            return;
        }
        out.examined(FrameRule.CC_002);
        if (f.ecn() == 3) {
            out.add(FrameRule.CC_002, "ip.ecn", "not CE", "3 (CE)");
        }
    }

    /**
     * MR-CC-001: a data packet is ECN-capable. Not-ECT is proof wherever the frame was taken, a network never clears
     * ECT; CE is judged by {@link #cc002}. The rule binds every QP of a MetaRoCE device, TVer 0 ones too (it is not in
     * Table 16-2), so a TVer 0 packet (plain RoCEv2 framing) is judged when the sender is known to be a MetaRoCE
     * device: plain RoCEv2 traffic of other devices is not bound by section 14 ({@link FrameRule#CC_001}'s TVer 0
     * binding, applied by the {@link Collector}).
     */
    public static void cc001(final DecodedFrame f, final Vantage v, final Collector out) {
        if (!isData(f.opcode())) {
            return;
        }
        out.examined(FrameRule.CC_001);
        if (f.ecn() == 0) {
            out.add(FrameRule.CC_001, "ip.ecn", "ECT(0) or ECT(1)", "0 (Not-ECT)");
        }
    }
}

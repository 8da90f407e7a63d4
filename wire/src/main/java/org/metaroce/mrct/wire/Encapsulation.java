package org.metaroce.mrct.wire;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.metaroce.mrct.wire.header.EthernetFlyweight;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;
import org.metaroce.mrct.wire.header.Ipv6Flyweight;
import org.metaroce.mrct.wire.header.UdpFlyweight;

/**
 * The headers below the BTH of a RoCE frame, as an immutable value: Ethernet (with an optional 802.1Q tag), then
 * IPv4 + UDP, IPv6 + UDP, or a RoCEv1 GRH. {@link #write} lays them out for a transport packet of a given length
 * with every length and the IPv4 header checksum right and the UDP checksum 0 (MetaRoCE v1 section WIRE), without
 * allocating. {@link #sealIcrc} then computes the ICRC. Both the reference NIC's hot path and {@link FrameBuilder} use
 * this class, so there is one encoder of the lower layers.
 */
public final class Encapsulation {
    /** Network layer of the frame. */
    public enum Network { IPV4, IPV6, ROCE_V1 }

    /** No 802.1Q tag. */
    public static final int NO_VLAN = -1;

    private final long sourceMac;
    private final long destinationMac;
    private final int vlanId;
    private final int vlanPcp;
    private final Network network;
    private final byte[] sourceIp;
    private final byte[] destinationIp;
    private final int dscp;
    private final int ttl;
    private final int flowLabel;
    private final int udpSourcePort;

    private Encapsulation(final long sourceMac, final long destinationMac, final int vlanId, final int vlanPcp,
                          final Network network, final byte[] sourceIp, final byte[] destinationIp, final int dscp,
                          final int ttl, final int flowLabel, final int udpSourcePort) {
        this.sourceMac = sourceMac & 0xFFFF_FFFF_FFFFL;
        this.destinationMac = destinationMac & 0xFFFF_FFFF_FFFFL;
        this.vlanId = vlanId;
        this.vlanPcp = vlanPcp;
        this.network = Objects.requireNonNull(network, "network");
        final int addressLength = network == Network.IPV4 ? 4 : 16;
        if (sourceIp.length != addressLength || destinationIp.length != addressLength) {
            throw new IllegalArgumentException(network + " needs " + addressLength + "-byte addresses");
        }
        this.sourceIp = sourceIp.clone();
        this.destinationIp = destinationIp.clone();
        this.dscp = dscp & 0x3F;
        this.ttl = ttl & 0xFF;
        this.flowLabel = flowLabel & 0xFFFFF;
        this.udpSourcePort = udpSourcePort & 0xFFFF;
    }

    /** IPv4 encapsulation between two addresses, untagged, DSCP 26, TTL 64, UDP source port 0xC000. */
    public static Encapsulation ipv4(final String source, final String destination) {
        return new Encapsulation(0x02_00_00_00_00_01L, 0x02_00_00_00_00_02L, NO_VLAN, 0, Network.IPV4,
            address(source, 4), address(destination, 4), 26, 64, 0, 0xC000);
    }

    /** IPv6 encapsulation between two addresses, untagged, DSCP 26, hop limit 64, UDP source port 0xC000. */
    public static Encapsulation ipv6(final String source, final String destination) {
        return new Encapsulation(0x02_00_00_00_00_01L, 0x02_00_00_00_00_02L, NO_VLAN, 0, Network.IPV6,
            address(source, 16), address(destination, 16), 26, 64, 0, 0xC000);
    }

    /** RoCEv1 (GRH) encapsulation between two GIDs given as IPv6 text. */
    public static Encapsulation roceV1(final String sourceGid, final String destinationGid) {
        return new Encapsulation(0x02_00_00_00_00_01L, 0x02_00_00_00_00_02L, NO_VLAN, 0, Network.ROCE_V1,
            address(sourceGid, 16), address(destinationGid, 16), 0, 64, 0, 0);
    }

    private static byte[] address(final String text, final int length) {
        try {
            final byte[] bytes = InetAddress.getByName(text).getAddress();
            if (bytes.length == length) {
                return bytes;
            }
            if (length == 16 && bytes.length == 4) {
                final byte[] mapped = new byte[16];
                mapped[10] = (byte) 0xFF;
                mapped[11] = (byte) 0xFF;
                System.arraycopy(bytes, 0, mapped, 12, 4);
                return mapped;
            }
            throw new IllegalArgumentException("'" + text + "' is not an IPv" + (length == 4 ? 4 : 6) + " address");
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + text + "' is not an IP address", e);
        }
    }

    /** Same encapsulation with other MACs. */
    public Encapsulation withMacs(final long source, final long destination) {
        return new Encapsulation(source, destination, vlanId, vlanPcp, network, sourceIp, destinationIp, dscp, ttl,
            flowLabel, udpSourcePort);
    }

    /** Same encapsulation with an 802.1Q tag ({@link #NO_VLAN} removes it). */
    public Encapsulation withVlan(final int id, final int pcp) {
        return new Encapsulation(sourceMac, destinationMac, id, pcp, network, sourceIp, destinationIp, dscp, ttl,
            flowLabel, udpSourcePort);
    }

    /** Same encapsulation with another DSCP. */
    public Encapsulation withDscp(final int value) {
        return new Encapsulation(sourceMac, destinationMac, vlanId, vlanPcp, network, sourceIp, destinationIp, value,
            ttl, flowLabel, udpSourcePort);
    }

    /** Same encapsulation with another TTL or hop limit. */
    public Encapsulation withTtl(final int value) {
        return new Encapsulation(sourceMac, destinationMac, vlanId, vlanPcp, network, sourceIp, destinationIp, dscp,
            value, flowLabel, udpSourcePort);
    }

    /** Same encapsulation with another IPv6 flow label. */
    public Encapsulation withFlowLabel(final int value) {
        return new Encapsulation(sourceMac, destinationMac, vlanId, vlanPcp, network, sourceIp, destinationIp, dscp,
            ttl, value, udpSourcePort);
    }

    /** Same encapsulation with another UDP source port. */
    public Encapsulation withUdpSourcePort(final int port) {
        return new Encapsulation(sourceMac, destinationMac, vlanId, vlanPcp, network, sourceIp, destinationIp, dscp,
            ttl, flowLabel, port);
    }

    /** The same path in the other direction: MACs and addresses swapped. */
    public Encapsulation reversed() {
        return new Encapsulation(destinationMac, sourceMac, vlanId, vlanPcp, network, destinationIp, sourceIp, dscp,
            ttl, flowLabel, udpSourcePort);
    }

    public long sourceMac() {
        return sourceMac;
    }

    public long destinationMac() {
        return destinationMac;
    }

    public int vlanId() {
        return vlanId;
    }

    public int vlanPcp() {
        return vlanPcp;
    }

    public boolean hasVlan() {
        return vlanId != NO_VLAN;
    }

    public Network network() {
        return network;
    }

    public byte[] sourceIp() {
        return sourceIp.clone();
    }

    public byte[] destinationIp() {
        return destinationIp.clone();
    }

    public int dscp() {
        return dscp;
    }

    public int ttl() {
        return ttl;
    }

    public int flowLabel() {
        return flowLabel;
    }

    public int udpSourcePort() {
        return udpSourcePort;
    }

    /** Bytes of Ethernet, tag and EtherType. */
    public int linkLength() {
        return hasVlan() ? EthernetFlyweight.TAGGED_LENGTH : EthernetFlyweight.UNTAGGED_LENGTH;
    }

    /** Bytes of the IP header or GRH. */
    public int ipLength() {
        return network == Network.IPV4 ? Ipv4Flyweight.MIN_LENGTH : Ipv6Flyweight.LENGTH;
    }

    /** Bytes of the UDP header (0 for RoCEv1). */
    public int udpLength() {
        return network == Network.ROCE_V1 ? 0 : UdpFlyweight.LENGTH;
    }

    /** Bytes before the BTH. */
    public int headerLength() {
        return linkLength() + ipLength() + udpLength();
    }

    /**
     * Writes the headers at absolute index {@code frameOffset} for a transport packet (BTH through ICRC) of
     * {@code transportLength} bytes, with IP ECN field {@code ecn} and the given UDP source port. Returns the absolute
     * index of the BTH.
     */
    public int write(final ByteBuffer buffer, final int frameOffset, final int transportLength, final int ecn,
                     final int sourcePort) {
        BigEndian.uN(buffer, frameOffset + EthernetFlyweight.DESTINATION_OFFSET, 6, destinationMac);
        BigEndian.uN(buffer, frameOffset + EthernetFlyweight.SOURCE_OFFSET, 6, sourceMac);
        int at = frameOffset + EthernetFlyweight.TYPE_OR_TPID_OFFSET;
        if (hasVlan()) {
            BigEndian.u16(buffer, at, EthernetFlyweight.TPID_8021Q);
            BigEndian.u16(buffer, at + 2, ((vlanPcp & 0x7) << 13) | (vlanId & 0x0FFF));
            at += 4;
        }
        final int ip = at + 2;
        switch (network) {
            case IPV4: {
                BigEndian.u16(buffer, at, EthernetFlyweight.ETHERTYPE_IPV4);
                final int total = Ipv4Flyweight.MIN_LENGTH + UdpFlyweight.LENGTH + transportLength;
                BigEndian.u8(buffer, ip, 0x45);
                BigEndian.u8(buffer, ip + Ipv4Flyweight.TOS_OFFSET, (dscp << 2) | (ecn & 0x3));
                BigEndian.u16(buffer, ip + Ipv4Flyweight.TOTAL_LENGTH_OFFSET, total);
                BigEndian.u16(buffer, ip + Ipv4Flyweight.IDENTIFICATION_OFFSET, 0);
                BigEndian.u16(buffer, ip + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET, 0x4000);
                BigEndian.u8(buffer, ip + Ipv4Flyweight.TTL_OFFSET, ttl);
                BigEndian.u8(buffer, ip + Ipv4Flyweight.PROTOCOL_OFFSET, Ipv4Flyweight.PROTOCOL_UDP);
                BigEndian.u16(buffer, ip + Ipv4Flyweight.CHECKSUM_OFFSET, 0);
                buffer.put(ip + Ipv4Flyweight.SOURCE_OFFSET, sourceIp);
                buffer.put(ip + Ipv4Flyweight.DESTINATION_OFFSET, destinationIp);
                BigEndian.u16(buffer, ip + Ipv4Flyweight.CHECKSUM_OFFSET, Checksums.ipv4Header(buffer, ip));
                writeUdp(buffer, ip + Ipv4Flyweight.MIN_LENGTH, transportLength, sourcePort);
                return ip + Ipv4Flyweight.MIN_LENGTH + UdpFlyweight.LENGTH;
            }
            case IPV6:
                BigEndian.u16(buffer, at, EthernetFlyweight.ETHERTYPE_IPV6);
                writeIpv6(buffer, ip, UdpFlyweight.LENGTH + transportLength, Ipv6Flyweight.NEXT_HEADER_UDP, ecn);
                writeUdp(buffer, ip + Ipv6Flyweight.LENGTH, transportLength, sourcePort);
                return ip + Ipv6Flyweight.LENGTH + UdpFlyweight.LENGTH;
            default:
                BigEndian.u16(buffer, at, EthernetFlyweight.ETHERTYPE_ROCE_V1);
                writeIpv6(buffer, ip, transportLength, Ipv6Flyweight.NEXT_HEADER_BTH, ecn);
                return ip + Ipv6Flyweight.LENGTH;
        }
    }

    /** {@link #write} with this encapsulation's own UDP source port. */
    public int write(final ByteBuffer buffer, final int frameOffset, final int transportLength, final int ecn) {
        return write(buffer, frameOffset, transportLength, ecn, udpSourcePort);
    }

    private void writeIpv6(final ByteBuffer buffer, final int ip, final int payloadLength, final int nextHeader,
                           final int ecn) {
        BigEndian.i32(buffer, ip, (6 << 28) | (dscp << 22) | ((ecn & 0x3) << 20) | flowLabel);
        BigEndian.u16(buffer, ip + Ipv6Flyweight.PAYLOAD_LENGTH_OFFSET, payloadLength);
        BigEndian.u8(buffer, ip + Ipv6Flyweight.NEXT_HEADER_OFFSET, nextHeader);
        BigEndian.u8(buffer, ip + Ipv6Flyweight.HOP_LIMIT_OFFSET, ttl);
        buffer.put(ip + Ipv6Flyweight.SOURCE_OFFSET, sourceIp);
        buffer.put(ip + Ipv6Flyweight.DESTINATION_OFFSET, destinationIp);
    }

    private static void writeUdp(final ByteBuffer buffer, final int udp, final int transportLength,
                                 final int sourcePort) {
        BigEndian.u16(buffer, udp + UdpFlyweight.SOURCE_PORT_OFFSET, sourcePort);
        BigEndian.u16(buffer, udp + UdpFlyweight.DESTINATION_PORT_OFFSET, UdpFlyweight.ROCE_V2_PORT);
        BigEndian.u16(buffer, udp + UdpFlyweight.LENGTH_OFFSET, UdpFlyweight.LENGTH + transportLength);
        BigEndian.u16(buffer, udp + UdpFlyweight.CHECKSUM_OFFSET, 0);
    }

    /**
     * Computes and stores the ICRC of a frame written with {@link #write} at {@code frameOffset} whose transport
     * packet is {@code transportLength} bytes long. Returns the ICRC value.
     */
    public int sealIcrc(final Icrc icrc, final ByteBuffer buffer, final int frameOffset, final int transportLength) {
        final int ip = frameOffset + linkLength();
        final int bth = ip + ipLength() + udpLength();
        final int icrcAt = bth + transportLength - 4;
        final int value = icrc.compute(buffer, ip, ipLength(), network != Network.IPV4,
            network == Network.ROCE_V1 ? -1 : ip + ipLength(), bth, icrcAt);
        LittleEndian.i32(buffer, icrcAt, value);
        return value;
    }

    @Override
    public boolean equals(final Object other) {
        if (!(other instanceof Encapsulation)) {
            return false;
        }
        final Encapsulation that = (Encapsulation) other;
        return sourceMac == that.sourceMac && destinationMac == that.destinationMac && vlanId == that.vlanId
            && vlanPcp == that.vlanPcp && network == that.network && Arrays.equals(sourceIp, that.sourceIp)
            && Arrays.equals(destinationIp, that.destinationIp) && dscp == that.dscp && ttl == that.ttl
            && flowLabel == that.flowLabel && udpSourcePort == that.udpSourcePort;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sourceMac, destinationMac, vlanId, network, Arrays.hashCode(sourceIp),
            Arrays.hashCode(destinationIp), udpSourcePort);
    }

    @Override
    public String toString() {
        return network + " " + DecodedFrame.formatAddress(sourceIp) + " -> " + DecodedFrame.formatAddress(destinationIp)
            + (hasVlan() ? " vlan " + vlanId : "") + " sport " + udpSourcePort;
    }
}

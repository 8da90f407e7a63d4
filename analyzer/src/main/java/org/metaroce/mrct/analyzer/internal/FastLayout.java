package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.header.EthernetFlyweight;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;
import org.metaroce.mrct.wire.header.Ipv6Flyweight;
import org.metaroce.mrct.wire.header.UdpFlyweight;

/**
 * What {@link Shards}' dispatcher needs of a frame, without decoding it: its two IP addresses (to route it) and where
 * its ICRC's covered bytes are (for the ICRC workers), for the common frame only, an untagged Ethernet RoCEv2 frame
 * over IPv4 or IPv6 whose IP and UDP lengths agree with each other and leave room for a BTH and an ICRC. Anything else
 * (VLAN tags, a bad length, a fragment, RoCEv1, not RoCE at all) is {@link #locate}'s false, and the dispatcher
 * decodes it as before.
 *
 * <p>Why not the decoder: the dispatcher decoded every frame with {@link FrameDecoder} only to read these few fields,
 * and the shard that judges the frame decodes it again; on a capture of one connection (10 million frames) that first
 * decode was a third of the dispatcher's CPU, on the path that bounds the analysis' wall time on 2 cores. The
 * conditions below are the decoder's own, in its order, for the frames they accept: where {@code locate} says true, the
 * decoder finds the same IP header (so its status is not NOT_ROCE and its IP version the same), the same UDP header and
 * BTH, and its ICRC at the same place ({@code FastLayoutTest} checks that on generated and damaged frames). Whether
 * the extension headers and the pad fit is left to the shard's decode: a frame that fails there has its ICRC computed
 * ahead for nothing, and the shard, which uses an ICRC computed ahead only for a frame it decodes as RoCE, ignores it.
 *
 * <p>Positions are absolute indexes in the buffer given to {@link #locate}. Not thread-safe (one per dispatcher).
 */
final class FastLayout {
    /** Where the BTH starts from the UDP header, and the BTH and ICRC the shortest RoCE packet holds after it. */
    private static final int BTH_AND_ICRC = 12 + 4;

    /** True for IPv6. */
    boolean ipv6;
    /** The IP header's index and length. */
    int ip;
    int ipLength;
    /** The UDP header's, the BTH's and the ICRC's indexes. */
    int udp;
    int bth;
    int icrc;

    /**
     * Lays out the {@code length} bytes at {@code offset} of {@code buffer} (a whole frame as captured, Ethernet link
     * layer); false when it is not a frame this class knows, and then nothing it holds is meaningful.
     */
    boolean locate(final ByteBuffer buffer, final int offset, final int length) {
        if (offset < 0 || length < EthernetFlyweight.UNTAGGED_LENGTH || offset + length > buffer.limit()) {
            return false;
        }
        final int end = offset + length;
        final int l3 = offset + EthernetFlyweight.UNTAGGED_LENGTH;
        final int etherType = BigEndian.u16(buffer, offset + EthernetFlyweight.TYPE_OR_TPID_OFFSET);
        if (etherType == EthernetFlyweight.ETHERTYPE_IPV4) {
            return ipv4(buffer, l3, end);
        }
        return etherType == EthernetFlyweight.ETHERTYPE_IPV6 && ipv6(buffer, l3, end);
    }

    private boolean ipv4(final ByteBuffer b, final int at, final int end) {
        if (at + Ipv4Flyweight.MIN_LENGTH > end) {
            return false;
        }
        final int versionIhl = BigEndian.u8(b, at);
        final int headerLength = (versionIhl & 0xF) * 4;
        final int fragment = BigEndian.u16(b, at + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET);
        if (versionIhl >>> 4 != 4 || headerLength < Ipv4Flyweight.MIN_LENGTH || (fragment & 0x3FFF) != 0
            || BigEndian.u8(b, at + Ipv4Flyweight.PROTOCOL_OFFSET) != Ipv4Flyweight.PROTOCOL_UDP) {
            return false; // version, IHL, MF or a fragment offset: the decoder's to say
        }
        final int totalLength = BigEndian.u16(b, at + Ipv4Flyweight.TOTAL_LENGTH_OFFSET);
        final int udpAt = at + headerLength;
        if (udpAt + 4 > end || totalLength < headerLength + UdpFlyweight.LENGTH || at + totalLength > end) {
            return false;
        }
        return udp(b, udpAt, totalLength - headerLength, at + totalLength, false, at, headerLength);
    }

    private boolean ipv6(final ByteBuffer b, final int at, final int end) {
        if (at + Ipv6Flyweight.LENGTH > end || BigEndian.u8(b, at) >>> 4 != 6
            || BigEndian.u8(b, at + Ipv6Flyweight.NEXT_HEADER_OFFSET) != Ipv6Flyweight.NEXT_HEADER_UDP) {
            return false;
        }
        final int udpAt = at + Ipv6Flyweight.LENGTH;
        final int payloadLength = BigEndian.u16(b, at + Ipv6Flyweight.PAYLOAD_LENGTH_OFFSET);
        if (udpAt + 4 > end || payloadLength < UdpFlyweight.LENGTH || udpAt + payloadLength > end) {
            return false;
        }
        return udp(b, udpAt, payloadLength, udpAt + payloadLength, true, at, Ipv6Flyweight.LENGTH);
    }

    private boolean udp(final ByteBuffer b, final int udpAt, final int ipPayload, final int packetEnd,
                        final boolean v6, final int ipAt, final int headerLength) {
        if (BigEndian.u16(b, udpAt + UdpFlyweight.DESTINATION_PORT_OFFSET) != UdpFlyweight.ROCE_V2_PORT
            || BigEndian.u16(b, udpAt + UdpFlyweight.LENGTH_OFFSET) != ipPayload) {
            return false;
        }
        final int bthAt = udpAt + UdpFlyweight.LENGTH;
        if (bthAt + BTH_AND_ICRC > packetEnd) {
            return false;
        }
        ipv6 = v6;
        ip = ipAt;
        ipLength = headerLength;
        udp = udpAt;
        bth = bthAt;
        icrc = packetEnd - 4;
        return true;
    }
}

package org.metaroce.mrct.wire;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.header.EthernetFlyweight;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;
import org.metaroce.mrct.wire.header.Ipv6Flyweight;
import org.metaroce.mrct.wire.header.UdpFlyweight;

/**
 * Decodes Ethernet frames into {@link DecodedFrame} views: Ethernet with at most one 802.1Q tag, IPv4 or IPv6 with
 * UDP to port 4791 (RoCEv2), or EtherType 0x8915 with a GRH (RoCEv1); then the BTH and the extension headers its
 * opcode and TVer call for ({@link HeaderLayout}), the payload, the pad and the ICRC.
 *
 * <p>Validate, then parse: every length is checked against the bytes present before any header is wrapped, and a
 * frame that cannot be decoded is reported as a value ({@link DecodeStatus#MALFORMED} with a {@link DecodeFailure}
 * naming the reason, the field and the byte offset). Decoding never throws on any input and never allocates on the
 * success path. A decoder and its result are not thread-safe; use one per thread.
 */
public final class FrameDecoder {
    private static final int MIN_ROCE_AFTER_BTH_START = 12 + 4;

    private final DecodedFrame frame = new DecodedFrame();

    /**
     * Unsigned byte at absolute {@code index}: from the backing array when the frame has one (a plain array load,
     * where the buffer's own access re-checks read-only state and limit on every call), else from the buffer. Every
     * caller has checked {@code index} against the frame's end, which never exceeds the buffer's limit.
     */
    private static int u8(final DecodedFrame f, final int index) {
        final byte[] array = f.array;
        return array != null ? BigEndian.u8(array, f.arrayBase + index) : BigEndian.u8(f.buffer, index);
    }

    /** Unsigned big-endian 16 bits at absolute {@code index}, as {@link #u8(DecodedFrame, int)}. */
    private static int u16(final DecodedFrame f, final int index) {
        final byte[] array = f.array;
        return array != null ? BigEndian.u16(array, f.arrayBase + index) : BigEndian.u16(f.buffer, index);
    }

    /**
     * Decodes the {@code length} bytes at absolute index {@code offset} of {@code buffer}. Returns this decoder's
     * reusable result, valid until the next call.
     */
    public DecodedFrame decode(final ByteBuffer buffer, final int offset, final int length) {
        return decode(buffer, offset, length, frame);
    }

    /**
     * Decodes as {@link #decode(ByteBuffer, int, int)} does, for a frame whose ICRC was already computed over the same
     * bytes (by another decoder, e.g. on another thread): {@link DecodedFrame#computeIcrc()} and
     * {@link DecodedFrame#icrcValid()} use {@code computedIcrc} instead of computing it again. The caller vouches that
     * the bytes are unchanged since; a frame without an ICRC ignores it.
     */
    public DecodedFrame decode(final ByteBuffer buffer, final int offset, final int length, final int computedIcrc) {
        final DecodedFrame f = decode(buffer, offset, length, frame);
        if (f.isRoce() && f.has(HeaderKind.ICRC)) {
            f.icrcComputedBefore(computedIcrc);
        }
        return f;
    }

    /**
     * Decodes as {@link #decode(ByteBuffer, int, int, int)} does, for a frame whose ICRC was computed, whose carried
     * ICRC was read and whose IPv4 header checksum was judged before (e.g. on another thread):
     * {@link DecodedFrame#icrcOnWire()} returns {@code carriedIcrc} instead of reading the frame's last bytes again,
     * and {@link DecodedFrame#ipChecksumValid()} returns {@code ipChecksumRight} (true for a frame without IPv4). The
     * caller vouches that the bytes are unchanged since.
     */
    public DecodedFrame decode(final ByteBuffer buffer, final int offset, final int length, final int computedIcrc,
                               final int carriedIcrc, final boolean ipChecksumRight) {
        final DecodedFrame f = decode(buffer, offset, length, frame);
        if (f.isRoce() && f.has(HeaderKind.ICRC)) {
            f.icrcComputedBefore(computedIcrc);
            f.icrcReadBefore(carriedIcrc, ipChecksumRight);
        }
        return f;
    }

    private DecodedFrame decode(final ByteBuffer buffer, final int offset, final int length, final DecodedFrame f) {
        if (offset < 0 || offset > buffer.limit()) {
            // never throws, even for a caller's bad offset: the failure says where the frame was looked for
            f.reset(buffer, 0, 0);
            return f.fail(DecodeError.TRUNCATED, "eth", 0, "offset " + offset + " is outside the buffer (0.."
                + buffer.limit() + ")");
        }
        f.reset(buffer, offset, Math.max(0, Math.min(length, buffer.limit() - offset)));
        final int end = offset + f.frameLength;
        if (f.frameLength < EthernetFlyweight.UNTAGGED_LENGTH) {
            return shorterThanEthernet(f, offset);
        }
        f.at(HeaderKind.ETH, offset);
        final int typeAt = offset + EthernetFlyweight.TYPE_OR_TPID_OFFSET;
        final int etherType = u16(f, typeAt);
        if (etherType == EthernetFlyweight.TPID_8021Q || etherType == EthernetFlyweight.TPID_8021AD) {
            return decodeTagged(f, typeAt, etherType, end);
        }
        f.at(HeaderKind.ETHERTYPE, typeAt);
        return decodeNetwork(f, etherType, typeAt + 2, end);
    }

    /** The 802.1Q (or 802.1ad) tags from {@code firstTagAt}, then the network layer after them. */
    private static DecodedFrame decodeTagged(final DecodedFrame f, final int firstTagAt, final int tpid,
                                             final int end) {
        int typeAt = firstTagAt;
        int etherType = tpid;
        int stackedAt = -1;
        if (typeAt + 6 > end) {
            return f.fail(DecodeError.TRUNCATED, "vlan", typeAt, "frame ends inside the 802.1Q tag");
        }
        if (etherType == EthernetFlyweight.TPID_8021Q) {
            f.at(HeaderKind.VLAN, typeAt);
        } else {
            stackedAt = typeAt;
        }
        typeAt += 4;
        etherType = u16(f, typeAt);
        while ((etherType == EthernetFlyweight.TPID_8021Q || etherType == EthernetFlyweight.TPID_8021AD)
            && typeAt + 6 <= end) {
            if (stackedAt < 0) {
                stackedAt = typeAt;
            }
            typeAt += 4;
            etherType = u16(f, typeAt);
        }
        f.at(HeaderKind.ETHERTYPE, typeAt);
        final DecodedFrame result = decodeNetwork(f, etherType, typeAt + 2, end);
        if (stackedAt >= 0 && result.status == DecodedFrame.STATUS_ROCE) {
            return f.fail(DecodeError.STACKED_VLAN, "vlan", stackedAt,
                "a RoCE frame may carry at most one 802.1Q tag");
        }
        return result;
    }

    /** What the EtherType selects, starting at {@code l3}; any other EtherType is not RoCE. */
    private static DecodedFrame decodeNetwork(final DecodedFrame f, final int etherType, final int l3, final int end) {
        switch (etherType) {
            case EthernetFlyweight.ETHERTYPE_IPV4:
                return decodeIpv4(f, l3, end);
            case EthernetFlyweight.ETHERTYPE_IPV6:
                return decodeIpv6(f, l3, end);
            case EthernetFlyweight.ETHERTYPE_ROCE_V1:
                return decodeGrh(f, l3, end);
            default:
                return f;
        }
    }

    private static DecodedFrame decodeIpv4(final DecodedFrame f, final int ip, final int end) {
        if (ip + Ipv4Flyweight.MIN_LENGTH > end) {
            return f; // too short to tell whether it is RoCE at all
        }
        if (u8(f, ip + Ipv4Flyweight.PROTOCOL_OFFSET) != Ipv4Flyweight.PROTOCOL_UDP) {
            return f;
        }
        final int versionIhl = u8(f, ip);
        final int headerLength = (versionIhl & 0xF) * 4;
        final int fragment = u16(f, ip + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET);
        if ((fragment & 0x1FFF) != 0) {
            return f; // a later fragment carries no UDP header: nothing to say about it
        }
        final int udp = ip + Math.max(headerLength, Ipv4Flyweight.MIN_LENGTH);
        if (udp + 4 > end || u16(f, udp + UdpFlyweight.DESTINATION_PORT_OFFSET) != UdpFlyweight.ROCE_V2_PORT) {
            return f;
        }
        f.version = DecodedFrame.VERSION_V2;
        f.at(HeaderKind.IPV4, ip);
        if ((versionIhl >>> 4) != 4) {
            return wrongIpVersion(f, ip, versionIhl >>> 4, "0x0800");
        }
        if (headerLength < Ipv4Flyweight.MIN_LENGTH) {
            return ihlBelowFive(f, ip, headerLength);
        }
        if ((fragment & 0x2000) != 0) {
            return f.fail(DecodeError.IP_FRAGMENT, "ip.mf", ip + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET,
                "RoCE packet sent as an IPv4 fragment");
        }
        f.ipHeaderLength = headerLength;
        final int totalLength = u16(f, ip + Ipv4Flyweight.TOTAL_LENGTH_OFFSET);
        if (totalLength < headerLength + UdpFlyweight.LENGTH) {
            return totalLengthTooShort(f, ip, totalLength, headerLength);
        }
        if (ip + totalLength > end) {
            return totalLengthBeyondFrame(f, ip, totalLength, end);
        }
        return decodeUdp(f, udp, totalLength - headerLength, ip + totalLength);
    }

    private static DecodedFrame decodeIpv6(final DecodedFrame f, final int ip, final int end) {
        if (ip + Ipv6Flyweight.LENGTH > end) {
            return f;
        }
        if (u8(f, ip + Ipv6Flyweight.NEXT_HEADER_OFFSET) != Ipv6Flyweight.NEXT_HEADER_UDP) {
            return f;
        }
        final int udp = ip + Ipv6Flyweight.LENGTH;
        if (udp + 4 > end || u16(f, udp + UdpFlyweight.DESTINATION_PORT_OFFSET) != UdpFlyweight.ROCE_V2_PORT) {
            return f;
        }
        f.version = DecodedFrame.VERSION_V2;
        f.at(HeaderKind.IPV6, ip);
        f.ipHeaderLength = Ipv6Flyweight.LENGTH;
        if ((u8(f, ip) >>> 4) != 6) {
            return wrongIpVersion(f, ip, u8(f, ip) >>> 4, "0x86DD");
        }
        final int payloadLength = u16(f, ip + Ipv6Flyweight.PAYLOAD_LENGTH_OFFSET);
        if (payloadLength < UdpFlyweight.LENGTH) {
            return f.fail(DecodeError.LENGTH_MISMATCH, "ip6.payload_length", ip + Ipv6Flyweight.PAYLOAD_LENGTH_OFFSET,
                "IPv6 payload length " + payloadLength + " is shorter than a UDP header");
        }
        if (udp + payloadLength > end) {
            return f.fail(DecodeError.TRUNCATED, "ip6.payload_length", ip + Ipv6Flyweight.PAYLOAD_LENGTH_OFFSET,
                "IPv6 payload length " + payloadLength + " but only " + (end - udp) + " bytes follow the header");
        }
        return decodeUdp(f, udp, payloadLength, udp + payloadLength);
    }

    private static DecodedFrame decodeUdp(final DecodedFrame f, final int udp, final int ipPayload, final int ipEnd) {
        if (ipPayload < UdpFlyweight.LENGTH) {
            return f.fail(DecodeError.TRUNCATED, "udp", udp, "no room for the UDP header");
        }
        f.at(HeaderKind.UDP, udp);
        final int udpLength = u16(f, udp + UdpFlyweight.LENGTH_OFFSET);
        if (udpLength != ipPayload) {
            return udpLengthDisagrees(f, udp, udpLength, ipPayload);
        }
        return decodeTransport(f, udp + UdpFlyweight.LENGTH, ipEnd);
    }

    private static DecodedFrame decodeGrh(final DecodedFrame f, final int grh, final int end) {
        f.version = DecodedFrame.VERSION_V1;
        if (grh + Ipv6Flyweight.LENGTH > end) {
            return f.fail(DecodeError.TRUNCATED, "grh", grh, "frame ends inside the GRH");
        }
        f.at(HeaderKind.IPV6, grh);
        f.ipHeaderLength = Ipv6Flyweight.LENGTH;
        if (u8(f, grh + Ipv6Flyweight.NEXT_HEADER_OFFSET) != Ipv6Flyweight.NEXT_HEADER_BTH) {
            return f.fail(DecodeError.BAD_IP_HEADER, "ip.protocol", grh + Ipv6Flyweight.NEXT_HEADER_OFFSET,
                "GRH next header 0x" + Integer.toHexString(u8(f, grh + Ipv6Flyweight.NEXT_HEADER_OFFSET))
                    + " is not a BTH (0x1b)");
        }
        final int payloadLength = u16(f, grh + Ipv6Flyweight.PAYLOAD_LENGTH_OFFSET);
        final int bth = grh + Ipv6Flyweight.LENGTH;
        if (bth + payloadLength > end) {
            return f.fail(DecodeError.TRUNCATED, "ip6.payload_length", grh + Ipv6Flyweight.PAYLOAD_LENGTH_OFFSET,
                "GRH payload length " + payloadLength + " but only " + (end - bth) + " bytes follow it");
        }
        return decodeTransport(f, bth, bth + payloadLength);
    }

    private static DecodedFrame decodeTransport(final DecodedFrame f, final int bth, final int packetEnd) {
        if (bth + MIN_ROCE_AFTER_BTH_START > packetEnd) {
            return noRoomForBthAndIcrc(f, bth, packetEnd);
        }
        f.at(HeaderKind.BTH, bth);
        f.packetEnd = packetEnd;
        final int icrc = packetEnd - 4;
        f.at(HeaderKind.ICRC, icrc);
        final int flags = u8(f, bth + 1);
        final Opcode opcode = Opcode.valueOf(u8(f, bth));
        final HeaderKind[] layout = HeaderLayout.extensionHeaders(opcode, flags & 0x0F);
        f.transport(opcode, flags & 0x0F, layout);
        int at = bth + 12;
        if (layout != null) {
            for (final HeaderKind kind : layout) {
                if (at + kind.length() > icrc) {
                    return extensionHeaderCut(f, kind, at, icrc);
                }
                f.at(kind, at);
                at += kind.length();
            }
        }
        final int payloadAndPad = icrc - at;
        final int pad = (flags >>> 4) & 0x3;
        f.payloadOffset = at;
        if (layout != null && pad > payloadAndPad) {
            return padExceedsPayload(f, bth, pad, payloadAndPad);
        }
        f.payloadOffset = at;
        f.padLength = layout != null ? pad : 0;
        f.payloadLength = payloadAndPad - f.padLength;
        f.status = DecodedFrame.STATUS_ROCE;
        return f;
    }

    // The failures with numbers in their message are built here, out of the decoding methods: kept apart, those stay
    // small enough for the JIT to inline them into each other and into their callers.

    private static DecodedFrame shorterThanEthernet(final DecodedFrame f, final int offset) {
        return f.fail(DecodeError.TRUNCATED, "eth", offset,
            "frame of " + f.frameLength + " bytes is shorter than an Ethernet header (14)");
    }

    private static DecodedFrame wrongIpVersion(final DecodedFrame f, final int ip, final int version,
                                               final String etherType) {
        return f.fail(DecodeError.BAD_IP_HEADER, "ip.version", ip,
            "IP version " + version + " under EtherType " + etherType);
    }

    private static DecodedFrame ihlBelowFive(final DecodedFrame f, final int ip, final int headerLength) {
        return f.fail(DecodeError.BAD_IP_HEADER, "ip.ihl", ip, "IHL " + (headerLength / 4) + " is below 5");
    }

    private static DecodedFrame totalLengthTooShort(final DecodedFrame f, final int ip, final int totalLength,
                                                    final int headerLength) {
        return f.fail(DecodeError.LENGTH_MISMATCH, "ip.total_length", ip + Ipv4Flyweight.TOTAL_LENGTH_OFFSET,
            "IPv4 total length " + totalLength + " is shorter than the IP and UDP headers ("
                + (headerLength + UdpFlyweight.LENGTH) + ")");
    }

    private static DecodedFrame totalLengthBeyondFrame(final DecodedFrame f, final int ip, final int totalLength,
                                                       final int end) {
        return f.fail(DecodeError.TRUNCATED, "ip.total_length", ip + Ipv4Flyweight.TOTAL_LENGTH_OFFSET,
            "IPv4 total length " + totalLength + " but only " + (end - ip) + " bytes follow the Ethernet header");
    }

    private static DecodedFrame udpLengthDisagrees(final DecodedFrame f, final int udp, final int udpLength,
                                                   final int ipPayload) {
        return f.fail(DecodeError.LENGTH_MISMATCH, "udp.length", udp + UdpFlyweight.LENGTH_OFFSET,
            "UDP length " + udpLength + " disagrees with the IP payload length " + ipPayload);
    }

    private static DecodedFrame noRoomForBthAndIcrc(final DecodedFrame f, final int bth, final int packetEnd) {
        return f.fail(DecodeError.TRUNCATED, bth + 12 > packetEnd ? "bth" : "icrc", bth,
            "only " + (packetEnd - bth) + " bytes for the BTH and ICRC (16)");
    }

    private static DecodedFrame extensionHeaderCut(final DecodedFrame f, final HeaderKind kind, final int at,
                                                   final int icrc) {
        return f.fail(DecodeError.TRUNCATED, kind.label(), at,
            kind.label() + " needs " + kind.length() + " bytes but " + Math.max(0, icrc - at)
                + " remain before the ICRC");
    }

    private static DecodedFrame padExceedsPayload(final DecodedFrame f, final int bth, final int pad,
                                                  final int payloadAndPad) {
        return f.fail(DecodeError.PAD_EXCEEDS_PAYLOAD, "bth.padcnt", bth + 1,
            "PadCnt " + pad + " but only " + payloadAndPad + " bytes of payload and pad");
    }
}

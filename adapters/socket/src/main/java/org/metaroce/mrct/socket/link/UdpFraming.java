package org.metaroce.mrct.socket.link;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.Checksums;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.Icrc;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.header.EthernetFlyweight;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;
import org.metaroce.mrct.wire.header.UdpFlyweight;

/**
 * Frames and the UDP datagrams of the UDP mode (PROTOCOL.md, "UDP mode"). A datagram carries the transport packet of
 * a frame, BTH through ICRC. Its ICRC covers the headers the datagram really travels with, written the way mrct writes
 * them: IPv4 with the datagram's source and destination addresses, identification 0, DF set; UDP with the datagram's
 * real source port and destination port 4791 (the RoCEv2 port, whatever port the socket uses), checksum 0. TOS, TTL
 * and the checksums are masked out of the ICRC anyway.
 *
 * <p>{@link #payload} turns a frame into such a payload, moving the ICRC to those headers while keeping whatever was
 * wrong with it (a frame crafted with a bad ICRC stays exactly as bad). {@link #frame} wraps a received payload back
 * into the Ethernet/IPv4/UDP frame it stands for. What a datagram cannot carry is not observable in this mode: the
 * wrapped frame's DSCP is 0, its TTL 64, and its ECN field holds the codepoint MR-CC-001 asks for (ECT(0) on data
 * packets, Not-ECT on the rest), which is why the UDP mode declares neither ECN_READ nor ECN_WRITE.
 */
public final class UdpFraming {
    private static final int IP = EthernetFlyweight.UNTAGGED_LENGTH;
    private static final int UDP = IP + Ipv4Flyweight.MIN_LENGTH;
    private static final int BTH = UDP + UdpFlyweight.LENGTH;

    private UdpFraming() {
    }

    /** A frame that the UDP mode cannot carry, and why. */
    public static final class Unrepresentable extends UnsupportedOperationException {
        private static final long serialVersionUID = 1L;

        Unrepresentable(final String message) {
            super("the UDP mode cannot send this frame: " + message + " (only the UDP payload travels; cases that "
                + "shape lower headers need a raw interface, --iface)");
        }
    }

    /**
     * The datagram payload for {@code frame}, sent from {@code from} to {@code to}.
     *
     * @throws Unrepresentable when the frame's lower headers are not what the datagram will carry (VLAN tag, IPv6,
     *                         other addresses, a broken IP or UDP header, another destination port, CE)
     */
    public static byte[] payload(final byte[] frame, final InetSocketAddress from, final InetSocketAddress to) {
        final ByteBuffer in = ByteBuffer.wrap(frame);
        if (frame.length < BTH) {
            throw new Unrepresentable("it has " + frame.length + " bytes, less than Ethernet, IPv4 and UDP headers");
        }
        final int etherType = BigEndian.u16(in, EthernetFlyweight.TYPE_OR_TPID_OFFSET);
        if (etherType != EthernetFlyweight.ETHERTYPE_IPV4) {
            throw new Unrepresentable(etherType == EthernetFlyweight.TPID_8021Q || etherType
                == EthernetFlyweight.TPID_8021AD ? "it carries a VLAN tag" : "its EtherType is 0x"
                + Integer.toHexString(etherType) + ", not IPv4");
        }
        if (BigEndian.u8(in, IP) != 0x45) {
            throw new Unrepresentable("its IPv4 version/IHL byte is 0x" + Integer.toHexString(BigEndian.u8(in, IP)));
        }
        final int total = BigEndian.u16(in, IP + Ipv4Flyweight.TOTAL_LENGTH_OFFSET);
        final int udpLength = BigEndian.u16(in, UDP + UdpFlyweight.LENGTH_OFFSET);
        if (total != frame.length - IP || udpLength != total - Ipv4Flyweight.MIN_LENGTH) {
            throw new Unrepresentable("its lengths disagree (frame " + frame.length + ", ip.total_length " + total
                + ", udp.length " + udpLength + ")");
        }
        if (BigEndian.u16(in, IP + Ipv4Flyweight.FLAGS_FRAGMENT_OFFSET) != 0x4000
            || BigEndian.u8(in, IP + Ipv4Flyweight.PROTOCOL_OFFSET) != Ipv4Flyweight.PROTOCOL_UDP
            || Checksums.ipv4Header(in, IP) != 0) {
            throw new Unrepresentable("its IPv4 header is not a plain DF/UDP header with a valid checksum");
        }
        if ((BigEndian.u8(in, IP + Ipv4Flyweight.TOS_OFFSET) & 3) == 3) {
            throw new Unrepresentable("it is marked CE, and a UDP socket sends no ECN marks");
        }
        if (BigEndian.u16(in, UDP + UdpFlyweight.CHECKSUM_OFFSET) != 0) {
            throw new Unrepresentable("its UDP checksum is not 0");
        }
        if (BigEndian.u16(in, UDP + UdpFlyweight.DESTINATION_PORT_OFFSET) != UdpFlyweight.ROCE_V2_PORT) {
            throw new Unrepresentable("its UDP destination port is not 4791");
        }
        final byte[] source = new byte[4];
        final byte[] destination = new byte[4];
        in.get(IP + Ipv4Flyweight.SOURCE_OFFSET, source);
        in.get(IP + Ipv4Flyweight.DESTINATION_OFFSET, destination);
        if (!Arrays.equals(source, ipv4(from)) || !Arrays.equals(destination, ipv4(to))) {
            throw new Unrepresentable("its IP addresses are not those of the datagram ("
                + from.getAddress().getHostAddress() + " to " + to.getAddress().getHostAddress() + ")");
        }
        final int transport = frame.length - BTH;
        final byte[] out = Arrays.copyOfRange(frame, BTH, frame.length);
        if (transport >= 12 + 4) {
            final Icrc icrc = new Icrc();
            final int carried = LittleEndian.i32(in, frame.length - 4);
            final int asCrafted = icrc.compute(in, IP, Ipv4Flyweight.MIN_LENGTH, false, UDP, BTH, frame.length - 4);
            final byte[] pseudo = wrap(out, from, to, 0, 0, 0);
            final ByteBuffer p = ByteBuffer.wrap(pseudo);
            final int asSent = icrc.compute(p, IP, Ipv4Flyweight.MIN_LENGTH, false, UDP, BTH, pseudo.length - 4);
            LittleEndian.i32(ByteBuffer.wrap(out), transport - 4, asSent ^ (carried ^ asCrafted));
        }
        return out;
    }

    /**
     * The frame a received payload stands for: {@code from} and {@code to} are the datagram's addresses, the MACs
     * those of the two ends.
     */
    public static byte[] frame(final byte[] payload, final int length, final InetSocketAddress from,
                               final InetSocketAddress to, final long sourceMac, final long destinationMac) {
        return wrap(Arrays.copyOf(payload, length), from, to, sourceMac, destinationMac, ecnFor(payload, length));
    }

    /** ECT(0) for data packets (requests and read responses), Not-ECT for the rest (MR-CC-001). */
    private static int ecnFor(final byte[] payload, final int length) {
        if (length < 1) {
            return 0;
        }
        final Opcode opcode = Opcode.valueOf(payload[0] & 0xFF);
        return opcode.kind().isRequest() || opcode.kind() == OpKind.RDMA_READ_RESPONSE ? 2 : 0;
    }

    /** The headers of one path: both addresses and both MACs. */
    private record Path(java.net.InetAddress from, java.net.InetAddress to, long sourceMac, long destinationMac) {
    }

    /** A link has a path or two; built once each (the text of the addresses is parsed to build one). */
    private static final java.util.Map<Path, Encapsulation> PATHS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int PATHS_KEPT = 64;

    private static Encapsulation encapsulation(final Path path) {
        final Encapsulation known = PATHS.get(path);
        if (known != null) {
            return known;
        }
        if (PATHS.size() >= PATHS_KEPT) {
            PATHS.clear();
        }
        final Encapsulation built = Encapsulation.ipv4(path.from().getHostAddress(), path.to().getHostAddress())
            .withMacs(path.sourceMac(), path.destinationMac()).withDscp(0).withTtl(64);
        PATHS.put(path, built);
        return built;
    }

    private static byte[] wrap(final byte[] transport, final InetSocketAddress from, final InetSocketAddress to,
                               final long sourceMac, final long destinationMac, final int ecn) {
        final Encapsulation encapsulation = encapsulation(new Path(from.getAddress(), to.getAddress(), sourceMac,
            destinationMac));
        final byte[] frame = new byte[BTH + transport.length];
        final ByteBuffer buffer = ByteBuffer.wrap(frame);
        encapsulation.write(buffer, 0, transport.length, ecn, from.getPort());
        System.arraycopy(transport, 0, frame, BTH, transport.length);
        return frame;
    }

    private static byte[] ipv4(final InetSocketAddress address) {
        if (!(address.getAddress() instanceof Inet4Address)) {
            throw new Unrepresentable(address.getAddress().getHostAddress() + " is not an IPv4 address");
        }
        return address.getAddress().getAddress();
    }
}

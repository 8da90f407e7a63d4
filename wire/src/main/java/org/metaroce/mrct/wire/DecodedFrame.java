package org.metaroce.mrct.wire;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.header.AethFlyweight;
import org.metaroce.mrct.wire.header.AtomicAckEthFlyweight;
import org.metaroce.mrct.wire.header.AtomicEthFlyweight;
import org.metaroce.mrct.wire.header.BthFlyweight;
import org.metaroce.mrct.wire.header.DethFlyweight;
import org.metaroce.mrct.wire.header.EthernetFlyweight;
import org.metaroce.mrct.wire.header.IethFlyweight;
import org.metaroce.mrct.wire.header.ImmDtFlyweight;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;
import org.metaroce.mrct.wire.header.Ipv6Flyweight;
import org.metaroce.mrct.wire.header.PlethFlyweight;
import org.metaroce.mrct.wire.header.RethFlyweight;
import org.metaroce.mrct.wire.header.SackethFlyweight;
import org.metaroce.mrct.wire.header.UdpFlyweight;

/**
 * The result of {@link FrameDecoder#decode}: a view of one frame in its buffer with the position of every header
 * found, flyweights wrapped on them, and the decode outcome. The same instance is reused by its decoder for every
 * frame, so it is valid only until the next {@code decode} call; {@link #copy()} detaches one.
 */
public final class DecodedFrame {
    static {
        // The headers found are a bit set in an int (see present).
        if (HeaderKind.values().length > Integer.SIZE) {
            throw new ExceptionInInitializerError("more than 32 header kinds");
        }
    }

    /** Offsets of the headers found; an entry counts only when its bit is set in {@link #present}. */
    private final int[] offsets = new int[HeaderKind.values().length];
    private final EthernetFlyweight eth = new EthernetFlyweight();
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private final Ipv6Flyweight ipv6 = new Ipv6Flyweight();
    private final UdpFlyweight udp = new UdpFlyweight();
    private final BthFlyweight bth = new BthFlyweight();
    private final PlethFlyweight pleth = new PlethFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final SackethFlyweight sacketh = new SackethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final AtomicAckEthFlyweight atomicAckEth = new AtomicAckEthFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final Icrc icrc = new Icrc();

    ByteBuffer buffer;
    /**
     * The buffer's backing array when it has an accessible one and the frame starts at a valid index, else null; the
     * decoder reads headers from it (plain array loads are cheaper than the buffer's checked accesses), having bounded
     * every index by the frame's end itself.
     */
    byte[] array;
    /** Index in {@link #array} of the buffer's index 0 ({@link ByteBuffer#arrayOffset()}). */
    int arrayBase;
    /**
     * Bit {@code kind.ordinal()} is set for each header position recorded for this frame: one store forgets them all
     * for the next frame, where filling {@link #offsets} with -1 was a measurable part of decoding.
     */
    private int present;
    int frameOffset;
    int frameLength;
    static final int STATUS_NOT_ROCE = 0;
    static final int STATUS_ROCE = 1;
    static final int STATUS_MALFORMED = 2;
    static final int VERSION_NONE = 0;
    static final int VERSION_V1 = 1;
    static final int VERSION_V2 = 2;

    /** {@link DecodeStatus} as a number ({@code STATUS_...}), a primitive so that setting it needs no barrier. */
    int status;
    /** {@link RoceVersion} as a number ({@code VERSION_...}). */
    int version;
    DecodeError error;
    String errorField;
    int errorOffset;
    String errorDetail;
    int ipHeaderLength;
    int packetEnd;
    int payloadOffset;
    int payloadLength;
    int padLength;
    Opcode opcode;
    int tver;
    HeaderKind[] layout;

    DecodedFrame() {
        reset(null, 0, 0);
    }

    void reset(final ByteBuffer buffer, final int offset, final int length) {
        // Reference fields are stored only when they change: with G1 every store of a reference into this long-lived
        // object runs a write barrier with a memory fence, which was a measurable part of decoding a frame.
        if (this.buffer != buffer) {
            this.buffer = buffer;
        }
        final byte[] backing = buffer != null && buffer.hasArray() && offset >= 0 ? buffer.array() : null;
        if (array != backing) {
            array = backing;
        }
        arrayBase = backing != null ? buffer.arrayOffset() : 0;
        this.frameOffset = offset;
        this.frameLength = length;
        present = 0;
        status = STATUS_NOT_ROCE;
        version = VERSION_NONE;
        if (error != null) {
            error = null;
            errorField = null;
            errorDetail = null;
        }
        errorOffset = -1;
        ipHeaderLength = 0;
        packetEnd = offset + length;
        payloadOffset = -1;
        payloadLength = 0;
        padLength = 0;
        tver = -1; // opcode and layout count only while tver >= 0 (they keep the previous frame's values otherwise)
        icrcKnown = false;
        carriedKnown = false;
        ipChecksum = 0;
    }

    /**
     * Set by {@link FrameDecoder#decode(ByteBuffer, int, int, int)} (the ICRC was computed before, elsewhere) or by the
     * first {@link #computeIcrc()} of this decode: the ICRC is computed once per decode, however many checks ask.
     */
    private boolean icrcKnown;
    /** The IPv4 header checksum judged by this decode: 0 not yet, 1 right, 2 wrong. */
    private int ipChecksum;
    private int knownIcrc;

    /**
     * Set by {@link FrameDecoder#decode(ByteBuffer, int, int, int, int, boolean)}: the carried ICRC was read and the
     * IPv4 header checksum judged before.
     */
    private boolean carriedKnown;
    private int carriedIcrc;

    /**
     * Makes {@link #icrcOnWire()} return {@code value}, read before from this frame's bytes, and
     * {@link #ipChecksumValid()} return {@code ipChecksumRight}, judged before.
     */
    void icrcReadBefore(final int value, final boolean ipChecksumRight) {
        carriedKnown = true;
        carriedIcrc = value;
        ipChecksum = ipChecksumRight ? 1 : 2;
    }

    /** Makes {@link #computeIcrc()} return {@code value}, computed before over this frame's bytes. */
    void icrcComputedBefore(final int value) {
        icrcKnown = true;
        knownIcrc = value;
    }

    /** Records the opcode, TVer and layout of the BTH, storing the references only when they change. */
    void transport(final Opcode decodedOpcode, final int decodedTver, final HeaderKind[] decodedLayout) {
        if (opcode != decodedOpcode) {
            opcode = decodedOpcode;
        }
        if (layout != decodedLayout) {
            layout = decodedLayout;
        }
        tver = decodedTver;
    }

    void at(final HeaderKind kind, final int absoluteOffset) {
        final int ordinal = kind.ordinal();
        offsets[ordinal] = absoluteOffset;
        present |= 1 << ordinal;
    }

    DecodedFrame fail(final DecodeError reason, final String field, final int absoluteOffset, final String detail) {
        status = STATUS_MALFORMED;
        error = reason;
        errorField = field;
        errorOffset = absoluteOffset - frameOffset;
        errorDetail = detail;
        return this;
    }

    /** ROCE, NOT_ROCE or MALFORMED. */
    public DecodeStatus status() {
        return status == STATUS_ROCE ? DecodeStatus.ROCE
            : status == STATUS_MALFORMED ? DecodeStatus.MALFORMED : DecodeStatus.NOT_ROCE;
    }

    /** True when the frame decoded as RoCE. */
    public boolean isRoce() {
        return status == STATUS_ROCE;
    }

    /** RoCEv1, RoCEv2, or NONE for frames that are not RoCE. */
    public RoceVersion version() {
        return version == VERSION_V2 ? RoceVersion.V2 : version == VERSION_V1 ? RoceVersion.V1 : RoceVersion.NONE;
    }

    /** The failure of a MALFORMED frame, or null (allocates: call it on the failure path only). */
    public DecodeFailure failure() {
        return status == STATUS_MALFORMED ? new DecodeFailure(error, errorField, errorOffset, errorDetail) : null;
    }

    /** The failure reason of a MALFORMED frame, else null (no allocation). */
    public DecodeError error() {
        return error;
    }

    /** The buffer holding the frame. */
    public ByteBuffer buffer() {
        return buffer;
    }

    /** Absolute index of the frame's first byte in {@link #buffer()}. */
    public int frameOffset() {
        return frameOffset;
    }

    /** Length of the frame as captured or received. */
    public int frameLength() {
        return frameLength;
    }

    /** True when the frame has this header. */
    public boolean has(final HeaderKind kind) {
        final int ordinal = kind.ordinal();
        return (present & (1 << ordinal)) != 0 && offsets[ordinal] >= 0;
    }

    /** Absolute index of a header in {@link #buffer()}, or -1 when absent. */
    public int offset(final HeaderKind kind) {
        final int ordinal = kind.ordinal();
        return (present & (1 << ordinal)) != 0 ? offsets[ordinal] : -1;
    }

    /** True when the frame has the header of {@code field}. */
    public boolean has(final FrameField field) {
        return has(field.header());
    }

    /** Reads a numeric field; the frame must have its header ({@link #has(FrameField)}). */
    public long get(final FrameField field) {
        final int at = offset(field.header());
        if (at < 0) {
            throw new IllegalStateException("frame has no " + field.header().label() + " header for " + field.name());
        }
        return field.read(buffer, at);
    }

    /** The variant of a named field this frame has, or null. */
    public FrameField field(final String name) {
        return FrameFields.resolve(name, this::has);
    }

    /** 4 for IPv4, 6 for IPv6 and the RoCEv1 GRH, 0 when neither was found. */
    public int ipVersion() {
        return has(HeaderKind.IPV4) ? 4 : has(HeaderKind.IPV6) ? 6 : 0;
    }

    /** The IP (or GRH) header length in bytes. */
    public int ipHeaderLength() {
        return ipHeaderLength;
    }

    /** DSCP of the IP header (or GRH traffic class). */
    public int dscp() {
        return has(HeaderKind.IPV4) ? ipv4().dscp() : ipv6().dscp();
    }

    /** ECN codepoint: 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE. */
    public int ecn() {
        return has(HeaderKind.IPV4) ? ipv4().ecn() : ipv6().ecn();
    }

    /** True when the frame carries the CE codepoint. */
    public boolean isCongestionExperienced() {
        return ecn() == 3;
    }

    /** Source IP address bytes (4 or 16; allocates). */
    public byte[] ipSource() {
        return (has(HeaderKind.IPV4) ? FrameFields.IPV4_SRC : FrameFields.IPV6_SRC)
            .readBytes(buffer, offset(ipHeaderKind()));
    }

    /** True when the source IP address is {@code address} (4 or 16 bytes; null never matches), without allocating. */
    public boolean ipSourceEquals(final byte[] address) {
        return addressEquals(has(HeaderKind.IPV4) ? FrameFields.IPV4_SRC : FrameFields.IPV6_SRC, address);
    }

    /** True when the destination IP address is {@code address} (4 or 16 bytes; null never matches), no allocation. */
    public boolean ipDestinationEquals(final byte[] address) {
        return addressEquals(has(HeaderKind.IPV4) ? FrameFields.IPV4_DST : FrameFields.IPV6_DST, address);
    }

    private boolean addressEquals(final FrameField field, final byte[] address) {
        if (address == null || address.length != field.containerBytes()) {
            return false;
        }
        final int at = offset(ipHeaderKind()) + field.byteOffset();
        for (int i = 0; i < address.length; i++) {
            if (buffer.get(at + i) != address[i]) {
                return false;
            }
        }
        return true;
    }

    /** Destination IP address bytes (4 or 16; allocates). */
    public byte[] ipDestination() {
        return (has(HeaderKind.IPV4) ? FrameFields.IPV4_DST : FrameFields.IPV6_DST)
            .readBytes(buffer, offset(ipHeaderKind()));
    }

    /**
     * Text form of an address: dotted decimal for IPv4, the RFC 5952 canonical form for IPv6 ({@code 2001:db8::1}:
     * lower-case hex, no leading zeros, the longest run of two or more zero groups as {@code ::}).
     */
    public static String formatAddress(final byte[] address) {
        if (address.length == 4) {
            return (address[0] & 0xFF) + "." + (address[1] & 0xFF) + "." + (address[2] & 0xFF) + "."
                + (address[3] & 0xFF);
        }
        if (address.length != 16) {
            throw new IllegalArgumentException("not an IP address: " + address.length + " bytes");
        }
        final int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((address[2 * i] & 0xFF) << 8) | (address[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = Math.max(i, j);
        }
        final StringBuilder text = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                text.append("::");
                i += bestLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(groups[i]));
        }
        return text.toString();
    }

    private HeaderKind ipHeaderKind() {
        return has(HeaderKind.IPV4) ? HeaderKind.IPV4 : HeaderKind.IPV6;
    }

    /** The opcode of a RoCE frame (null otherwise). */
    public Opcode opcode() {
        return tver >= 0 ? opcode : null;
    }

    /** BTH.TVer of a RoCE frame, -1 otherwise. */
    public int tver() {
        return tver;
    }

    /** Extension headers in wire order, or null when the opcode/TVer pair has no known layout. */
    public HeaderKind[] layout() {
        return tver >= 0 ? layout : null;
    }

    /** True when the opcode and TVer have a known header layout. */
    public boolean layoutKnown() {
        return tver >= 0 && layout != null;
    }

    /** Absolute index of the payload (after the last extension header). */
    public int payloadOffset() {
        return payloadOffset;
    }

    /**
     * Bytes between the last extension header and the ICRC (payload plus pad), also for a frame whose pad count is
     * wrong; -1 when the headers could not be laid out.
     */
    public int dataRegionLength() {
        return payloadOffset < 0 || !has(HeaderKind.ICRC) ? -1 : offset(HeaderKind.ICRC) - payloadOffset;
    }

    /** Payload length without pad. */
    public int payloadLength() {
        return payloadLength;
    }

    /** Number of pad bytes (BTH.PadCnt of a decoded frame). */
    public int padLength() {
        return padLength;
    }

    /** Absolute index one past the ICRC: the end of the RoCE packet (bytes after it are Ethernet padding). */
    public int packetEnd() {
        return packetEnd;
    }

    /** The ICRC value as carried (little-endian on the wire). */
    public int icrcOnWire() {
        if (carriedKnown) {
            return carriedIcrc;
        }
        return LittleEndian.i32(buffer, offset(HeaderKind.ICRC));
    }

    /**
     * The ICRC this frame should carry, computed over the bytes as they were at the first call after the decode (later
     * calls of the same decode give the same value: decode again after changing the frame's bytes).
     */
    public int computeIcrc() {
        if (icrcKnown) {
            return knownIcrc;
        }
        final boolean v6 = has(HeaderKind.IPV6);
        knownIcrc = icrc.compute(array, arrayBase, buffer, offset(v6 ? HeaderKind.IPV6 : HeaderKind.IPV4),
            ipHeaderLength, v6, offset(HeaderKind.UDP), offset(HeaderKind.BTH), offset(HeaderKind.ICRC));
        icrcKnown = true;
        return knownIcrc;
    }

    /** True when the carried ICRC equals the computed one. */
    public boolean icrcValid() {
        return icrcOnWire() == computeIcrc();
    }

    /**
     * True when the IPv4 header checksum is right (always true for IPv6 and GRH, which have none), judged once per
     * decode as {@link #computeIcrc()} is.
     */
    public boolean ipChecksumValid() {
        if (ipChecksum == 0) {
            ipChecksum = !has(HeaderKind.IPV4) || ipv4().checksum() == ipv4().computeChecksum() ? 1 : 2;
        }
        return ipChecksum == 1;
    }

    /** True when the UDP checksum is 0 (not used) or valid. */
    public boolean udpChecksumValid() {
        if (!has(HeaderKind.UDP) || udp().checksum() == 0) {
            return true;
        }
        return Checksums.udp(buffer, offset(ipHeaderKind()), has(HeaderKind.IPV6), offset(HeaderKind.UDP))
            == 0;
    }

    public EthernetFlyweight eth() {
        return eth.wrap(buffer, offset(HeaderKind.ETH));
    }

    public Ipv4Flyweight ipv4() {
        return ipv4.wrap(buffer, offset(HeaderKind.IPV4));
    }

    /** The IPv6 header, or the GRH of a RoCEv1 frame. */
    public Ipv6Flyweight ipv6() {
        return ipv6.wrap(buffer, offset(HeaderKind.IPV6));
    }

    public UdpFlyweight udp() {
        return udp.wrap(buffer, offset(HeaderKind.UDP));
    }

    public BthFlyweight bth() {
        return bth.wrap(buffer, offset(HeaderKind.BTH));
    }

    public PlethFlyweight pleth() {
        return pleth.wrap(buffer, offset(HeaderKind.PLETH));
    }

    public RethFlyweight reth() {
        return reth.wrap(buffer, offset(HeaderKind.RETH));
    }

    public AethFlyweight aeth() {
        return aeth.wrap(buffer, offset(HeaderKind.AETH));
    }

    public SackethFlyweight sacketh() {
        return sacketh.wrap(buffer, offset(HeaderKind.SACKETH));
    }

    public AtomicEthFlyweight atomicEth() {
        return atomicEth.wrap(buffer, offset(HeaderKind.ATOMIC_ETH));
    }

    public AtomicAckEthFlyweight atomicAckEth() {
        return atomicAckEth.wrap(buffer, offset(HeaderKind.ATOMIC_ACK_ETH));
    }

    public ImmDtFlyweight immDt() {
        return immDt.wrap(buffer, offset(HeaderKind.IMMDT));
    }

    public IethFlyweight ieth() {
        return ieth.wrap(buffer, offset(HeaderKind.IETH));
    }

    public DethFlyweight deth() {
        return deth.wrap(buffer, offset(HeaderKind.DETH));
    }

    /** The frame's bytes as a new array. */
    public byte[] bytes() {
        final byte[] copy = new byte[frameLength];
        buffer.get(frameOffset, copy, 0, frameLength);
        return copy;
    }

    /** The payload bytes as a new array. */
    public byte[] payload() {
        final byte[] copy = new byte[payloadLength];
        if (payloadLength > 0) {
            buffer.get(payloadOffset, copy, 0, payloadLength);
        }
        return copy;
    }

    /** A detached decoded copy of this frame over its own heap buffer. */
    public DecodedFrame copy() {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes()), 0, frameLength);
    }
}

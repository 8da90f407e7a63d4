package org.metaroce.mrct.wire;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Crafts one RoCE frame. Immutable: every {@code with...} returns a new builder, so a template can be shared and
 * varied. By default {@link #build()} produces a correct frame: the headers the opcode and TVer call for
 * ({@link HeaderLayout}), every length, PadCnt, zero pad bytes, the IPv4 header checksum and the ICRC right, and the
 * UDP checksum 0.
 *
 * <p>For robustness cases every part can be made wrong on purpose: any field can be set to any value by name
 * ({@link #with(String, long)}; reserved bits, lengths, PadCnt and the ICRC included; an assigned value is never
 * recomputed), the extension headers can be replaced ({@link #headers}), the pad can be given another length or
 * non-zero bytes, the computed checksums and ICRC can be switched off, and the built frame can be cut short or given
 * trailing bytes.
 */
public final class FrameBuilder {
    private final Encapsulation encapsulation;
    private final Opcode opcode;
    private final int tver;
    private final HeaderKind[] headers;
    private final byte[] payload;
    private final int padLength;
    private final int padFill;
    private final int ecn;
    private final Map<String, Object> assignments;
    private final boolean correctLengths;
    private final boolean correctIpChecksum;
    private final boolean correctIcrc;
    private final boolean validUdpChecksum;
    private final int truncateTo;
    private final byte[] trailer;

    private FrameBuilder(final Encapsulation encapsulation, final Opcode opcode, final int tver,
                         final HeaderKind[] headers, final byte[] payload, final int padLength, final int padFill,
                         final int ecn, final Map<String, Object> assignments, final boolean correctLengths,
                         final boolean correctIpChecksum, final boolean correctIcrc, final boolean validUdpChecksum,
                         final int truncateTo, final byte[] trailer) {
        this.encapsulation = encapsulation;
        this.opcode = opcode;
        this.tver = tver;
        this.headers = headers;
        this.payload = payload;
        this.padLength = padLength;
        this.padFill = padFill;
        this.ecn = ecn;
        this.assignments = assignments;
        this.correctLengths = correctLengths;
        this.correctIpChecksum = correctIpChecksum;
        this.correctIcrc = correctIcrc;
        this.validUdpChecksum = validUdpChecksum;
        this.truncateTo = truncateTo;
        this.trailer = trailer;
    }

    /**
     * A builder for {@code opcode} over {@code encapsulation} with TVer 1 (MetaRoCE v1), no payload, ECT(0), every
     * field at its default (P_Key 0xFFFF, PLETH flags from the opcode's position, AETH syndrome 0x1F, CNP BECN 1).
     */
    public static FrameBuilder of(final Encapsulation encapsulation, final Opcode opcode) {
        return new FrameBuilder(encapsulation, opcode, opcode == Opcode.CNP ? 0 : HeaderLayout.TVER_METAROCE_V1, null,
            new byte[0], -1, 0, 2, Map.of(), true, true, true, false, -1, new byte[0]);
    }

    private FrameBuilder copy(final Encapsulation e, final Opcode o, final int t, final HeaderKind[] h,
                              final byte[] p, final int pl, final int pf, final int ec, final Map<String, Object> a,
                              final boolean cl, final boolean cc, final boolean ci, final boolean vu, final int tt,
                              final byte[] tr) {
        return new FrameBuilder(e, o, t, h, p, pl, pf, ec, a, cl, cc, ci, vu, tt, tr);
    }

    public FrameBuilder encapsulation(final Encapsulation value) {
        return copy(value, opcode, tver, headers, payload, padLength, padFill, ecn, assignments, correctLengths,
            correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    public FrameBuilder opcode(final Opcode value) {
        return copy(encapsulation, value, tver, headers, payload, padLength, padFill, ecn, assignments, correctLengths,
            correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** The BTH.TVer, which also selects the default header layout (0 RoCEv2, 1 MetaRoCE v1). */
    public FrameBuilder tver(final int value) {
        return copy(encapsulation, opcode, value, headers, payload, padLength, padFill, ecn, assignments,
            correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** Replaces the extension headers (in wire order) that the opcode and TVer would call for. */
    public FrameBuilder headers(final HeaderKind... kinds) {
        return copy(encapsulation, opcode, tver, kinds.clone(), payload, padLength, padFill, ecn, assignments,
            correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    public FrameBuilder payload(final byte[] bytes) {
        return copy(encapsulation, opcode, tver, headers, bytes.clone(), padLength, padFill, ecn, assignments,
            correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** Number of pad bytes actually written (default: (-payload) mod 4); BTH.PadCnt follows unless assigned. */
    public FrameBuilder padLength(final int bytes) {
        return copy(encapsulation, opcode, tver, headers, payload, bytes, padFill, ecn, assignments, correctLengths,
            correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** The value of every pad byte (default 0). */
    public FrameBuilder padFill(final int value) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, value, ecn, assignments, correctLengths,
            correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** IP ECN codepoint: 0 Not-ECT, 1 ECT(1), 2 ECT(0) (default), 3 CE. */
    public FrameBuilder ecn(final int value) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, value, assignments,
            correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** Sets a numeric field by name (see {@link FrameFields}); the value is written as given, never recomputed. */
    public FrameBuilder with(final String field, final long value) {
        requireField(field);
        final Map<String, Object> next = new LinkedHashMap<>(assignments);
        next.remove(field);
        next.put(field, value);
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn,
            Collections.unmodifiableMap(next), correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum,
            truncateTo, trailer);
    }

    /** Sets an address field ({@code ip.src}, {@code ip.dst}) to raw bytes. */
    public FrameBuilder withBytes(final String field, final byte[] value) {
        requireField(field);
        final Map<String, Object> next = new LinkedHashMap<>(assignments);
        next.remove(field);
        next.put(field, value.clone());
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn,
            Collections.unmodifiableMap(next), correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum,
            truncateTo, trailer);
    }

    private static void requireField(final String field) {
        if (!FrameFields.exists(field)) {
            throw new IllegalArgumentException("unknown frame field '" + field + "'; known fields: "
                + String.join(", ", FrameFields.names()));
        }
    }

    /** When false, the IP and UDP length fields keep the values assigned to them (0 when none). Default true. */
    public FrameBuilder correctLengths(final boolean value) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn, assignments, value,
            correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** When false, the IPv4 header checksum is left as written before assignments. Default true. */
    public FrameBuilder correctIpChecksum(final boolean value) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn, assignments,
            correctLengths, value, correctIcrc, validUdpChecksum, truncateTo, trailer);
    }

    /** When false, the ICRC is left zero (or as assigned). Default true. */
    public FrameBuilder correctIcrc(final boolean value) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn, assignments,
            correctLengths, correctIpChecksum, value, validUdpChecksum, truncateTo, trailer);
    }

    /** When true, the UDP checksum is computed instead of sent as 0. Default false. */
    public FrameBuilder validUdpChecksum(final boolean value) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn, assignments,
            correctLengths, correctIpChecksum, correctIcrc, value, truncateTo, trailer);
    }

    /** Cuts the built frame to its first {@code bytes} bytes. */
    public FrameBuilder truncateTo(final int bytes) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn, assignments,
            correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum, bytes, trailer);
    }

    /** Appends bytes after the ICRC (as Ethernet padding would be). */
    public FrameBuilder trailer(final byte[] bytes) {
        return copy(encapsulation, opcode, tver, headers, payload, padLength, padFill, ecn, assignments,
            correctLengths, correctIpChecksum, correctIcrc, validUdpChecksum, truncateTo, bytes.clone());
    }

    /** Convenience: BTH.PSN. */
    public FrameBuilder psn(final int psn) {
        return with("bth.psn", psn & Psn.MASK);
    }

    /** Convenience: BTH.DestQP. */
    public FrameBuilder destQp(final int qpn) {
        return with("bth.dqpn", qpn);
    }

    /** Convenience: BTH.AckReq. */
    public FrameBuilder ackReq(final boolean value) {
        return with("bth.ackreq", value ? 1 : 0);
    }

    public Encapsulation encapsulation() {
        return encapsulation;
    }

    public Opcode opcode() {
        return opcode;
    }

    public int tver() {
        return tver;
    }

    /** The extension headers the built frame will carry. */
    public List<HeaderKind> extensionHeaders() {
        if (headers != null) {
            return List.of(headers);
        }
        return HeaderLayout.extensionHeaderList(opcode, tver);
    }

    /** The assigned field values, in assignment order (numbers as Long, addresses as byte[]). */
    public Map<String, Object> assignments() {
        return assignments;
    }

    public byte[] payload() {
        return payload.clone();
    }

    /** Builds the frame. Throws {@link IllegalArgumentException} when an assigned field's header is not in it. */
    public byte[] build() {
        final List<HeaderKind> ext = extensionHeaders();
        final int pad = padLength >= 0 ? padLength : (-payload.length) & 3;
        int extLength = 0;
        for (final HeaderKind kind : ext) {
            extLength += kind.length();
        }
        final int transport = 12 + extLength + payload.length + pad + 4;
        final int total = encapsulation.headerLength() + transport;
        final ByteBuffer buffer = ByteBuffer.wrap(new byte[total + trailer.length]);
        final int bth = encapsulation.write(buffer, 0, transport, ecn);

        final Map<HeaderKind, Integer> at = new LinkedHashMap<>();
        final Set<HeaderKind> present = EnumSet.of(HeaderKind.ETH, HeaderKind.ETHERTYPE, HeaderKind.BTH,
            HeaderKind.ICRC);
        at.put(HeaderKind.ETH, 0);
        if (encapsulation.hasVlan()) {
            present.add(HeaderKind.VLAN);
            at.put(HeaderKind.VLAN, 12);
        }
        at.put(HeaderKind.ETHERTYPE, encapsulation.linkLength() - 2);
        final int ip = encapsulation.linkLength();
        final HeaderKind ipKind = encapsulation.network() == Encapsulation.Network.IPV4 ? HeaderKind.IPV4
            : HeaderKind.IPV6;
        present.add(ipKind);
        at.put(ipKind, ip);
        if (encapsulation.udpLength() > 0) {
            present.add(HeaderKind.UDP);
            at.put(HeaderKind.UDP, ip + encapsulation.ipLength());
        }
        at.put(HeaderKind.BTH, bth);

        BigEndian.u8(buffer, bth, opcode.code());
        BigEndian.u8(buffer, bth + 1, ((pad & 0x3) << 4) | (tver & 0xF));
        BigEndian.u16(buffer, bth + 2, 0xFFFF);
        BigEndian.u8(buffer, bth + 4, opcode == Opcode.CNP ? 0x40 : 0);
        int cursor = bth + 12;
        for (final HeaderKind kind : ext) {
            present.add(kind);
            at.put(kind, cursor);
            writeDefaults(buffer, kind, cursor);
            cursor += kind.length();
        }
        buffer.put(cursor, payload);
        cursor += payload.length;
        for (int i = 0; i < pad; i++) {
            buffer.put(cursor++, (byte) padFill);
        }
        at.put(HeaderKind.ICRC, cursor);

        if (!correctLengths) {
            zeroLengths(buffer, at, ipKind);
        }
        for (final Map.Entry<String, Object> assignment : assignments.entrySet()) {
            final FrameField field = FrameFields.resolve(assignment.getKey(), present::contains);
            if (field == null) {
                throw new IllegalArgumentException("field " + assignment.getKey() + " is not in a " + opcode
                    + " frame with headers " + present);
            }
            if (assignment.getValue() instanceof byte[]) {
                field.writeBytes(buffer, at.get(field.header()), (byte[]) assignment.getValue());
            } else {
                field.write(buffer, at.get(field.header()), (Long) assignment.getValue());
            }
        }
        if (ipKind == HeaderKind.IPV4 && correctIpChecksum && !assignments.containsKey("ip.checksum")) {
            BigEndian.u16(buffer, ip + 10, 0);
            BigEndian.u16(buffer, ip + 10, Checksums.ipv4Header(buffer, ip));
        }
        if (correctIcrc && !assignments.containsKey("icrc")) {
            final int value = new Icrc().compute(buffer, ip, encapsulation.ipLength(), ipKind == HeaderKind.IPV6,
                present.contains(HeaderKind.UDP) ? at.get(HeaderKind.UDP) : -1, bth, cursor);
            LittleEndian.i32(buffer, cursor, value);
        }
        if (validUdpChecksum && present.contains(HeaderKind.UDP) && !assignments.containsKey("udp.checksum")) {
            final int udp = at.get(HeaderKind.UDP);
            BigEndian.u16(buffer, udp + 6, 0);
            final int sum = Checksums.udp(buffer, ip, ipKind == HeaderKind.IPV6, udp);
            BigEndian.u16(buffer, udp + 6, sum == 0 ? 0xFFFF : sum);
        }
        buffer.put(total, trailer);
        final byte[] frame = buffer.array();
        return truncateTo >= 0 && truncateTo < frame.length ? Arrays.copyOf(frame, truncateTo) : frame;
    }

    private void writeDefaults(final ByteBuffer buffer, final HeaderKind kind, final int offset) {
        switch (kind) {
            case PLETH: {
                final Position position = opcode.position();
                final int flags = (position == Position.FIRST ? 0x80 : 0) | (position == Position.LAST ? 0x40 : 0)
                    | (position == Position.ONLY || position == Position.NONE ? 0xC0 : 0);
                BigEndian.u8(buffer, offset + 3, flags);
                break;
            }
            case AETH:
                BigEndian.u8(buffer, offset, AethSyndrome.ACK.value());
                break;
            default:
                break;
        }
    }

    private static void zeroLengths(final ByteBuffer buffer, final Map<HeaderKind, Integer> at,
                                    final HeaderKind ipKind) {
        final int ip = at.get(ipKind);
        if (ipKind == HeaderKind.IPV4) {
            BigEndian.u16(buffer, ip + 2, 0);
        } else {
            BigEndian.u16(buffer, ip + 4, 0);
        }
        if (at.containsKey(HeaderKind.UDP)) {
            BigEndian.u16(buffer, at.get(HeaderKind.UDP) + 4, 0);
        }
    }

    /** Field names assigned so far, for messages. */
    public List<String> assignedFields() {
        return new ArrayList<>(assignments.keySet());
    }
}

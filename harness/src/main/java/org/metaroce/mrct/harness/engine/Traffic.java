package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.MessageOp;
import org.metaroce.mrct.harness.cases.MessageSpec;
import org.metaroce.mrct.harness.cases.PacketSpec;
import org.metaroce.mrct.harness.cases.Pattern;
import org.metaroce.mrct.harness.cases.PayloadSpec;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.Checksums;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.Icrc;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.Position;

/**
 * Builds the frames the harness sends: single packets from {@code send} steps (every field defaulted from the
 * connection's requester state unless the case sets it) and whole messages from {@code message} steps (segmented by
 * PMTU, then reordered, dropped, duplicated and CE-marked as the case says), keeping the connection's PSN, MSN and RSN
 * counters and its responder model up to date.
 */
final class Traffic {
    /** A frame to send and what it is. */
    record Outgoing(byte[] bytes, int relativePsn, String note, boolean sent) {
    }

    private final long caseSeed;

    Traffic(final long caseSeed) {
        this.caseSeed = caseSeed;
    }

    /** The default payload pattern of message {@code msn} on a connection: seeded random bytes. */
    Pattern defaultPattern(final Connection connection, final int msn) {
        return new Pattern(Pattern.Kind.RANDOM, Expr.of(caseSeed ^ ((long) connection.peerQpn << 24) ^ msn * 0x9E37L),
            null);
    }

    /** bth.tver of a frame whose step gives none: the connection's, except for a CNP, whose TVer is always 0. */
    static int defaultTver(final Opcode opcode, final int connectionTver) {
        return opcode == Opcode.CNP ? 0 : connectionTver;
    }

    /** One frame of a {@code send} step. */
    Outgoing packet(final PacketSpec spec, final Connection c, final Map<String, Region> regions,
                    final Function<String, Long> names) {
        final Opcode opcode = spec.opcode();
        final int tver = spec.tver() != null ? (int) spec.tver().eval(names) : defaultTver(opcode, c.tver);
        final Position position = opcode.position();
        final boolean starts = position.isFirst() || position == Position.NONE;
        final boolean ends = position.isLast() || position == Position.NONE;
        final int msn = spec.msn() != null ? (int) spec.msn().eval(names) : c.numbering().msn(starts);
        final boolean consumesWqe = opcode.kind() == OpKind.SEND
            || opcode == Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE || opcode == Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE;
        final int rsn = spec.rsn() != null ? (int) spec.rsn().eval(names)
            : opcode.kind() == OpKind.SEND || opcode.kind() == OpKind.RDMA_WRITE
                ? c.numbering().rsn(starts) : 0;
        final long messageOffset = spec.messageOffset() != null ? spec.messageOffset().eval(names)
            : c.numbering().messageOffset(starts);
        final PayloadSpec payloadSpec = spec.payload();
        final int payloadLength = payloadSpec == null || payloadSpec.length() == null ? 0
            : (int) payloadSpec.length().eval(names);
        final Pattern pattern = payloadSpec != null && payloadSpec.pattern() != null ? payloadSpec.pattern()
            : defaultPattern(c, msn);
        final long patternOffset = payloadSpec != null && payloadSpec.offset() != null
            ? payloadSpec.offset().eval(names) : messageOffset;
        final byte[] payload = pattern.bytes(patternOffset, payloadLength, names);
        final Region region = spec.region() == null ? null : regions.get(spec.region());
        final long regionOffset = spec.regionOffset() == null ? 0 : spec.regionOffset().eval(names);
        final long dmaLength = spec.dmaLength() != null ? spec.dmaLength().eval(names) : payloadLength;
        final int span = opcode == Opcode.RDMA_READ_REQUEST ? readSpan(dmaLength, messageOffset, c.pmtu) : 1;
        final int psn = spec.psn() != null ? (int) spec.psn().eval(names) : c.numbering().nextPsn();
        // the harness answering the device's requests (requester cases): responses count in the device's space
        final boolean response = opcode.kind() == OpKind.ACKNOWLEDGE || opcode.kind() == OpKind.RDMA_READ_RESPONSE
            || opcode.kind() == OpKind.ATOMIC_ACKNOWLEDGE || opcode == Opcode.CNP;

        FrameBuilder frame = FrameBuilder.of(encapsulation(spec, c, names), opcode).tver(tver).payload(payload)
            .ecn(spec.ecn() != null ? (int) spec.ecn().eval(names) : 2)
            .with("bth.dqpn", c.deviceQpn).with("bth.pkey", opcode == Opcode.CNP ? 0xFFFF : c.pkey) // Table 2-11
            .with("bth.ackreq", (spec.ackReq() != null ? spec.ackReq() : ends && !response) ? 1 : 0);
        if (opcode != Opcode.CNP) {
            frame = frame.with("bth.psn", absolute(c, psn, response));
        }
        if (spec.headers() != null) {
            final HeaderKind[] kinds = spec.headers().toArray(HeaderKind[]::new);
            frame = frame.headers(kinds);
        }
        final List<HeaderKind> headers = frame.extensionHeaders();
        if (headers.contains(HeaderKind.PLETH)) {
            frame = frame.with("pleth.msn", msn).with("pleth.offset", messageOffset).with("pleth.rsn", rsn);
            if (spec.first() != null) {
                frame = frame.with("pleth.first", spec.first() ? 1 : 0);
            }
            if (spec.last() != null) {
                frame = frame.with("pleth.last", spec.last() ? 1 : 0);
            }
        }
        if (headers.contains(HeaderKind.RETH) && region != null) {
            frame = frame.with("reth.va", region.mr.va() + regionOffset).with("reth.rkey",
                Integer.toUnsignedLong(region.mr.rkey()));
        }
        if (headers.contains(HeaderKind.RETH)) {
            frame = frame.with("reth.dmalen", dmaLength);
        }
        if (headers.contains(HeaderKind.IMMDT) && spec.immediate() != null) {
            frame = frame.with("immdt", spec.immediate().eval(names));
        }
        if (headers.contains(HeaderKind.IETH) && spec.invalidate() != null) {
            frame = frame.with("ieth.rkey", Integer.toUnsignedLong(regions.get(spec.invalidate()).mr.rkey()));
        }
        if (headers.contains(HeaderKind.ATOMIC_ETH)) {
            if (region != null) {
                frame = frame.with("atomiceth.va", region.mr.va() + regionOffset).with("atomiceth.rkey",
                    Integer.toUnsignedLong(region.mr.rkey()));
            }
            if (spec.swapAdd() != null) {
                frame = frame.with("atomiceth.swap", spec.swapAdd().eval(names));
            }
            if (spec.compare() != null) {
                frame = frame.with("atomiceth.compare", spec.compare().eval(names));
            }
        }
        for (final Map.Entry<String, Expr> field : spec.fields().entrySet()) {
            final long value = field.getValue().eval(names);
            frame = frame.with(field.getKey(), FrameCheck.isPsnField(field.getKey()) ? absolute(c, value, response)
                : value);
        }
        if (spec.padLength() != null) {
            frame = frame.padLength((int) spec.padLength().eval(names));
        }
        if (spec.padFill() != null) {
            frame = frame.padFill((int) spec.padFill().eval(names));
        }
        if (spec.trailer() != null) {
            frame = frame.trailer(new byte[(int) spec.trailer().eval(names)]);
        }
        if (spec.validUdpChecksum() || spec.badUdpChecksum()) {
            frame = frame.validUdpChecksum(true);
        }
        if (spec.badIcrc()) {
            frame = frame.with("icrc", Integer.toUnsignedLong(icrcOf(frame.build())) ^ 1L);
        }
        if (spec.truncate() != null) {
            frame = frame.truncateTo((int) spec.truncate().eval(names));
        }

        // requester state
        c.numbering().packetBuilt(starts, ends, opcode.kind().isRequest(), consumesWqe,
            msn, rsn, messageOffset + payloadLength, psn, span);
        byte[] bytes = frame.build();
        final int ip = encapsulation(spec, c, names).linkLength();
        if (spec.ipOptions() != null) {
            bytes = withIpOptions(bytes, ip, spec.ipOptions(), spec.fields().keySet());
        }
        if (spec.badUdpChecksum()) {
            spoilUdpChecksum(bytes, ip);
        }
        return new Outgoing(bytes, psn, "sent", true);
    }

    /**
     * Inserts IPv4 options after the 20-byte header of {@code frame} (IPv4 at {@code ip}): IHL, total length and the
     * header checksum follow unless the case set them, and the ICRC, which covers the options unchanged (section
     * 1.10), is computed again (still wrong by its low bit when it was wrong before).
     */
    private static byte[] withIpOptions(final byte[] frame, final int ip, final byte[] options,
                                        final Set<String> assigned) {
        final DecodedFrame before = new FrameDecoder().decode(ByteBuffer.wrap(frame), 0, frame.length);
        if (!before.has(HeaderKind.IPV4) || before.ipHeaderLength() != 20) {
            throw new IllegalArgumentException("ip_options needs an IPv4 frame with a 20-byte header");
        }
        final boolean icrcWasValid = before.isRoce() && before.icrcValid();
        final boolean icrcComputable = before.isRoce() && !assigned.contains("icrc");
        final byte[] out = new byte[frame.length + options.length];
        System.arraycopy(frame, 0, out, 0, ip + 20);
        System.arraycopy(options, 0, out, ip + 20, options.length);
        System.arraycopy(frame, ip + 20, out, ip + 20 + options.length, frame.length - ip - 20);
        final ByteBuffer b = ByteBuffer.wrap(out);
        if (!assigned.contains("ip.ihl")) {
            BigEndian.u8(b, ip, 0x40 | (5 + options.length / 4));
        }
        if (!assigned.contains("ip.total_length")) {
            BigEndian.u16(b, ip + 2, BigEndian.u16(b, ip + 2) + options.length);
        }
        if (icrcComputable) {
            final int headerLength = 20 + options.length;
            final int udp = ip + headerLength;
            final int icrcAt = ip + BigEndian.u16(b, ip + 2) - 4;
            if (icrcAt >= udp + 8 + 12 && icrcAt + 4 <= out.length) {
                final int icrc = new Icrc().compute(b, ip, headerLength, false, udp, udp + 8, icrcAt);
                LittleEndian.i32(b, icrcAt, icrcWasValid ? icrc : icrc ^ 1);
            }
        }
        if (!assigned.contains("ip.checksum")) {
            BigEndian.u16(b, ip + 10, 0);
            BigEndian.u16(b, ip + 10, Checksums.ipv4Header(b, ip));
        }
        return out;
    }

    /** Turns the frame's correct UDP checksum into a wrong non-zero one (section 1.6, MR-WIRE-012). */
    private static void spoilUdpChecksum(final byte[] frame, final int ip) {
        final ByteBuffer b = ByteBuffer.wrap(frame);
        final int ipHeader = (frame[ip] >>> 4 & 0xF) == 6 ? 40 : (frame[ip] & 0xF) * 4;
        final int at = ip + ipHeader + 6;
        final int right = BigEndian.u16(b, at);
        BigEndian.u16(b, at, (right ^ 1) != 0 ? right ^ 1 : right ^ 2);
    }

    /**
     * The PSNs a READ REQUEST occupies from its own PSN: the read's span n = max(1, ceil(dmalen / PMTU)), less the
     * packets before pleth.offset for a re-request (sections 8.4 and 13.6: a re-request at PSN x asks for the
     * responses x to p + n - 1 only), and at least one.
     */
    static int readSpan(final long dmaLength, final long offset, final int pmtu) {
        final long n = Math.max(1, (dmaLength + pmtu - 1) / pmtu);
        return (int) Math.max(1, n - Math.max(0, offset) / pmtu);
    }

    /** The absolute PSN of a relative one: responses count from the device's sq_psn, requests from its rq_psn. */
    private static int absolute(final Connection c, final long relative, final boolean response) {
        return response ? Psn.add(c.devicePsnBase(), (int) relative) : c.absolute(relative);
    }

    private static int icrcOf(final byte[] bytes) {
        final DecodedFrame decoded = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        return decoded.isRoce() ? decoded.computeIcrc() : 0;
    }

    private static Encapsulation encapsulation(final PacketSpec spec, final Connection c,
                                               final Function<String, Long> names) {
        Encapsulation e = c.toDevice;
        if (spec.vlan() != null) {
            final long vlan = spec.vlan().eval(names);
            e = e.withVlan(vlan < 0 ? Encapsulation.NO_VLAN : (int) vlan, 0);
        }
        return e;
    }

    /** A message ready to be sent packet by packet. */
    final class Prepared {
        final MessageOp op;
        final int packets;
        final int span;
        final int firstPsn;
        final int rsn;
        final long length;
        final Region region;
        final long regionOffset;
        final int pmtu;
        final FrameBuilder[] frames;
        final byte[][] payloads;

        Prepared(final MessageOp op, final int packets, final int span, final int firstPsn, final int rsn,
                 final long length, final Region region, final long regionOffset, final int pmtu) {
            this.op = op;
            this.packets = packets;
            this.span = span;
            this.firstPsn = firstPsn;
            this.rsn = rsn;
            this.length = length;
            this.region = region;
            this.regionOffset = regionOffset;
            this.pmtu = pmtu;
            this.frames = new FrameBuilder[packets];
            this.payloads = new byte[packets][];
        }

        /**
         * Packet {@code index} as sent now (CE-marked or not, with or without AckReq), the model updated for a
         * conforming responder that receives it.
         */
        Outgoing emit(final Connection c, final int index, final boolean ce, final boolean ackReq, final String note) {
            if (index < 0 || index >= packets) {
                throw new IllegalArgumentException("packet index " + index + " is outside 0.." + (packets - 1)
                    + " of this " + packets + "-packet message");
            }
            final byte[] bytes = frames[index].ecn(ce ? 3 : 2).with("bth.ackreq", ackReq ? 1 : 0).build();
            final int psn = firstPsn + index;
            deliver(c, op, psn, index == 0 ? span : 1, rsn, index == packets - 1, region,
                regionOffset + (long) index * pmtu, (long) index * pmtu, payloads[index]);
            return new Outgoing(bytes, psn, note, true);
        }

        /** Packet {@code index} as it would have been sent, for evidence of a dropped packet. */
        Outgoing dropped(final int index) {
            if (index < 0 || index >= packets) {
                throw new IllegalArgumentException("packet index " + index + " is outside 0.." + (packets - 1)
                    + " of this " + packets + "-packet message");
            }
            return new Outgoing(frames[index].ecn(2).build(), firstPsn + index, "dropped by the harness", false);
        }

        boolean isLast(final int index) {
            return index == packets - 1;
        }
    }

    /** Segments a message, takes its PSNs, MSN and RSN from the connection, and registers it with the model. */
    Prepared prepare(final MessageSpec spec, final Connection c, final Map<String, Region> regions,
                     final Function<String, Long> names) {
        final MessageOp op = spec.op();
        final long length = spec.length().eval(names);
        final int pmtu = spec.pmtu() != null ? (int) spec.pmtu().eval(names) : c.pmtu;
        final Region region = spec.region() == null ? null : regions.get(spec.region());
        final long regionOffset = spec.regionOffset() == null ? 0 : spec.regionOffset().eval(names);
        final int msn = c.numbering().takeMsn();
        final boolean consumesWqe = op.isSend() || op == MessageOp.WRITE_IMM;
        final int rsn = consumesWqe ? c.numbering().takeRsn() : 0;
        final boolean singlePacket = op == MessageOp.READ || op.isAtomic();
        final int packets = singlePacket ? 1 : (int) Math.max(1, (length + pmtu - 1) / pmtu);
        final int span = op == MessageOp.READ ? (int) Math.max(1, (length + pmtu - 1) / pmtu) : packets;
        final int firstPsn = c.numbering().takePsns(span);
        final Pattern pattern = spec.payload() != null && spec.payload().pattern() != null ? spec.payload().pattern()
            : defaultPattern(c, msn);
        final Integer immediate = spec.immediate() != null ? (int) spec.immediate().eval(names) : null;
        final Region invalidated = spec.invalidate() == null ? null : regions.get(spec.invalidate());
        final int rkey = spec.rkey() != null ? (int) spec.rkey().eval(names) : region != null ? region.mr.rkey() : 0;
        c.model().message(new ResponderModel.Message(msn, op, firstPsn, span, length, immediate,
            invalidated == null ? null : invalidated.mr.rkey()));
        final Prepared prepared = new Prepared(op, packets, span, firstPsn, rsn, length, region, regionOffset, pmtu);
        for (int index = 0; index < packets; index++) {
            final long offset = singlePacket ? 0 : (long) index * pmtu;
            final int size = singlePacket ? 0 : (int) Math.min(pmtu, length - offset);
            final Opcode opcode = opcodeOf(op, index, packets);
            final byte[] payload = pattern.bytes(offset, Math.max(0, size), names);
            FrameBuilder frame = FrameBuilder.of(c.toDevice, opcode).tver(c.tver).payload(payload)
                .with("bth.psn", c.absolute(firstPsn + index)).with("bth.dqpn", c.deviceQpn)
                .with("bth.pkey", c.pkey);
            final List<HeaderKind> headers = HeaderLayout.extensionHeaderList(opcode, c.tver);
            if (headers.contains(HeaderKind.PLETH)) {
                frame = frame.with("pleth.msn", msn).with("pleth.offset", offset).with("pleth.rsn", rsn);
            }
            if (headers.contains(HeaderKind.RETH)) {
                frame = frame.with("reth.va", region.mr.va() + regionOffset).with("reth.rkey",
                    Integer.toUnsignedLong(rkey)).with("reth.dmalen", length);
            }
            if (headers.contains(HeaderKind.IMMDT) && immediate != null) {
                frame = frame.with("immdt", Integer.toUnsignedLong(immediate));
            }
            if (headers.contains(HeaderKind.IETH) && invalidated != null) {
                frame = frame.with("ieth.rkey", Integer.toUnsignedLong(invalidated.mr.rkey()));
            }
            if (headers.contains(HeaderKind.ATOMIC_ETH)) {
                frame = frame.with("atomiceth.va", region.mr.va() + regionOffset)
                    .with("atomiceth.rkey", Integer.toUnsignedLong(rkey))
                    .with("atomiceth.swap", spec.swapAdd() == null ? 0 : spec.swapAdd().eval(names))
                    .with("atomiceth.compare", spec.compare() == null ? 0 : spec.compare().eval(names));
            }
            for (final Map.Entry<String, Expr> field : spec.fields().entrySet()) {
                final long value = field.getValue().eval(names);
                frame = frame.with(field.getKey(), FrameCheck.isPsnField(field.getKey()) ? c.absolute(value) : value);
            }
            prepared.frames[index] = frame;
            prepared.payloads[index] = payload;
        }
        return prepared;
    }

    /** The frames of a {@code message} step, in sending order, with the model updated. */
    List<Outgoing> message(final MessageSpec spec, final Connection c, final Map<String, Region> regions,
                           final Function<String, Long> names) {
        final Prepared prepared = prepare(spec, c, regions, names);
        final Set<Long> drop = evalSet(spec.drop(), names);
        final Set<Long> duplicate = evalSet(spec.duplicate(), names);
        final Set<Long> ce = evalSet(spec.ce(), names);
        final Set<Long> ackIndices = evalSet(spec.ackReqIndices(), names);
        final List<Long> order = new ArrayList<>();
        if (spec.order().isEmpty()) {
            for (long k = 0; k < prepared.packets; k++) {
                order.add(k);
            }
        } else {
            for (final Expr index : spec.order()) {
                order.add(index.eval(names));
            }
        }
        final List<Outgoing> out = new ArrayList<>();
        for (final long k : order) {
            final int index = (int) k;
            final boolean ackReq = switch (spec.ackReq()) {
                case ALL -> true;
                case NONE -> false;
                case INDICES -> ackIndices.contains(k);
                default -> prepared.isLast(index);
            };
            if (drop.contains(k)) {
                out.add(prepared.dropped(index));
                continue;
            }
            out.add(prepared.emit(c, index, ce.contains(k), ackReq, "sent"));
            if (duplicate.contains(k)) {
                out.add(prepared.emit(c, index, ce.contains(k), ackReq, "sent (duplicate)"));
            }
        }
        return out;
    }

    private static void deliver(final Connection c, final MessageOp op, final int psn, final int span, final int rsn,
                                final boolean last, final Region region, final long regionOffset,
                                final long messageOffset, final byte[] payload) {
        final boolean usesWqe = op.isSend() || op == MessageOp.WRITE_IMM && last;
        if (usesWqe && rsn >= c.receives().size()) {
            return; // no receive WQE: a conforming responder sends an RNR NAK and records nothing (check V12)
        }
        if (!c.model().deliver(psn, op == MessageOp.READ ? span : 1)) {
            return;
        }
        if (op.isWrite() && region != null) {
            region.place(region.mr.va() + regionOffset, payload);
        } else if (op.isSend()) {
            final Connection.Receive receive = c.receives().get(rsn);
            if (messageOffset + payload.length <= receive.length()) {
                receive.region().place(receive.va() + messageOffset, payload);
            }
        }
    }

    private static Set<Long> evalSet(final List<Expr> exprs, final Function<String, Long> names) {
        final Set<Long> out = new HashSet<>();
        for (final Expr expr : exprs) {
            out.add(expr.eval(names));
        }
        return out;
    }

    /** The opcode of packet {@code index} of {@code packets} of a message. */
    static Opcode opcodeOf(final MessageOp op, final int index, final int packets) {
        final boolean first = index == 0;
        final boolean last = index == packets - 1;
        switch (op) {
            case READ:
                return Opcode.RDMA_READ_REQUEST;
            case CMP_SWAP:
                return Opcode.COMPARE_SWAP;
            case FETCH_ADD:
                return Opcode.FETCH_ADD;
            case WRITE:
            case WRITE_IMM:
                if (first && last) {
                    return op == MessageOp.WRITE ? Opcode.RDMA_WRITE_ONLY : Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE;
                }
                if (first) {
                    return Opcode.RDMA_WRITE_FIRST;
                }
                if (last) {
                    return op == MessageOp.WRITE ? Opcode.RDMA_WRITE_LAST : Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE;
                }
                return Opcode.RDMA_WRITE_MIDDLE;
            default:
                if (first && last) {
                    return op == MessageOp.SEND ? Opcode.SEND_ONLY : op == MessageOp.SEND_IMM
                        ? Opcode.SEND_ONLY_WITH_IMMEDIATE : Opcode.SEND_ONLY_WITH_INVALIDATE;
                }
                if (first) {
                    return Opcode.SEND_FIRST;
                }
                if (last) {
                    return op == MessageOp.SEND ? Opcode.SEND_LAST : op == MessageOp.SEND_IMM
                        ? Opcode.SEND_LAST_WITH_IMMEDIATE : Opcode.SEND_LAST_WITH_INVALIDATE;
                }
                return Opcode.SEND_MIDDLE;
        }
    }
}

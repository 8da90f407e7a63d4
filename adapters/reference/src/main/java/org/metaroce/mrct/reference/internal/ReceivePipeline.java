package org.metaroce.mrct.reference.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodeError;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.RoceVersion;
import org.metaroce.mrct.wire.Transport;

/**
 * The receive checks of MetaRoCE v1 Table 11-1, in order: the first failing check decides the outcome and the one
 * drop counter incremented (rules MR-ROB-001, MR-ROB-002); a frame passing them all is dispatched to the responder,
 * the requester or the notification point.
 */
final class ReceivePipeline {
    private final Device device;
    private final FrameDecoder decoder = new FrameDecoder();

    ReceivePipeline(final Device device) {
        this.device = device;
    }

    void process(final byte[] bytes) {
        final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        // step 1: is it a MetaRoCE frame at all?
        if (!isMetaRoce(f)) {
            if (isLaterFragment(bytes)) {
                drop(Counter.DROP_BAD_IP_HEADER, null); // step 2
            }
            return;
        }
        // step 2: IPv4 header
        if (f.error() == DecodeError.IP_FRAGMENT || f.has(HeaderKind.IPV4) && !f.ipChecksumValid()) {
            drop(Counter.DROP_BAD_IP_HEADER, null);
            return;
        }
        // step 3: lengths
        if (f.error() == DecodeError.LENGTH_MISMATCH
            || f.error() == DecodeError.TRUNCATED && f.failure().field().startsWith("ip")
            || paddedBeyondMinimum(f)) {
            drop(Counter.DROP_LENGTH_MISMATCH, null);
            return;
        }
        // step 4: UDP checksum
        if (f.has(HeaderKind.UDP) && (!f.udpChecksumValid()
            && !(device.has(Fault.UDP_CHECKSUM_IPV6_ONLY) && f.has(HeaderKind.IPV4))
            || device.has(Fault.NONZERO_UDP_CHECKSUM_DROPPED) && f.udp().checksum() != 0)) {
            drop(Counter.DROP_BAD_UDP_CHECKSUM, null);
            return;
        }
        // step 5: BTH and ICRC present
        if (!f.has(HeaderKind.BTH)) {
            drop(Counter.DROP_TRUNCATED, null);
            return;
        }
        // step 6: ICRC
        if (!device.has(Fault.ICRC_NOT_CHECKED) && !f.icrcValid()) {
            drop(Counter.DROP_BAD_ICRC, null);
            return;
        }
        final int tver = device.has(Fault.TVER_LOW_BIT_ONLY) ? f.bth().tver() & 1 : f.bth().tver();
        final Opcode opcode = f.bth().opcode();
        // step 7, 8
        if (tver > 1) {
            drop(Counter.DROP_UNKNOWN_TVER, null);
            return;
        }
        if (tver == 0 && opcode != Opcode.CNP && !device.config.claims("legacy-rocev2")) {
            drop(Counter.DROP_LEGACY_DISABLED, null);
            return;
        }
        // step 9
        if (!supported(opcode, tver)) {
            drop(Counter.DROP_UNSUPPORTED_OPCODE, null);
            return;
        }
        // step 10: fixed length of the opcode
        if (f.error() == DecodeError.TRUNCATED) {
            drop(Counter.DROP_TRUNCATED, null);
            return;
        }
        // step 11: opcodes without payload
        final int region = f.dataRegionLength();
        if (!HeaderLayout.carriesPayload(opcode) && region != 0) {
            drop(Counter.DROP_LENGTH_MISMATCH, null);
            return;
        }
        // step 12: pad
        if (f.error() == DecodeError.PAD_EXCEEDS_PAYLOAD || f.status() != DecodeStatus.ROCE
            || region % 4 != 0 && !device.has(Fault.PAD_REGION_UNCHECKED)
            || device.has(Fault.NONZERO_PAD_DROPPED) && padNonZero(f)) {
            drop(Counter.DROP_BAD_PAD, null);
            return;
        }
        // step 13..17: the QP
        final QueuePair qp = device.qps.get(f.bth().destQp() & (device.has(Fault.QPN_LOW_16_BITS) ? 0xFFFF : -1));
        if (qp == null) {
            drop(Counter.DROP_UNKNOWN_QP, null);
            return;
        }
        // a CNP is not P_Key checked (section 10.2, v1.1): RoCEv2 NICs send it with P_Key 0xFFFF whatever the QP's
        if (opcode != Opcode.CNP && !device.has(Fault.PKEY_NOT_CHECKED) && !pkeyMatches(f.bth().pkey(), qp.pkey)) {
            drop(Counter.DROP_PKEY_MISMATCH, qp);
            return;
        }
        if (qp.destIp != null && !f.ipSourceEquals(qp.destIp)) {
            drop(Counter.DROP_WRONG_PEER, qp);
            return;
        }
        if (!qp.isActive()) {
            if (device.has(Fault.ERROR_QP_STILL_PLACES) && qp.state == QpState.ERROR) {
                placeInError(f, qp);
            }
            if (device.has(Fault.CNP_FROM_ERROR_QP) && qp.state == QpState.ERROR && opcode.kind().isRequest()
                && f.isCongestionExperienced()) {
                device.congestionIndication(qp); // the bug: the notification point ahead of the QP state check
            }
            drop(Counter.DROP_QP_STATE, qp);
            return;
        }
        if (opcode != Opcode.CNP && tver != qp.tver && !(device.has(Fault.TVER_MISMATCH_ONE_WAY) && tver == 1)) {
            drop(tver == 0 ? Counter.DROP_LEGACY_DISABLED : Counter.DROP_TVER_MISMATCH, qp);
            return;
        }
        // step 18: PLETH flags against the opcode
        if (tver == 1 && f.has(HeaderKind.PLETH) && !flagsAgree(opcode, f.pleth().first(),
            device.has(Fault.PLETH_LAST_UNCHECKED) ? expectsLast(opcode) : f.pleth().last())) {
            drop(Counter.DROP_INVALID_SEQUENCE, qp);
            return;
        }
        if (device.has(Fault.ZERO_LENGTH_ONLY_DROPPED) && f.payloadLength() == 0
            && (opcode == Opcode.SEND_ONLY || opcode == Opcode.RDMA_WRITE_ONLY)) {
            drop(Counter.DROP_LENGTH_MISMATCH, qp); // the bug: an empty message taken for a truncated packet
            return;
        }
        if (device.has(Fault.LOW_SPORT_DROPPED) && opcode.kind().isRequest() && f.has(HeaderKind.UDP)
            && f.udp().sourcePort() < 0xC000) {
            drop(Counter.DROP_WRONG_PEER, qp); // the bug: MR-WIRE-010, a rule on sending, applied on receive
            return;
        }
        // step 19: dispatch
        final boolean ce = f.isCongestionExperienced();
        if (opcode == Opcode.CNP) {
            if (ce && !device.has(Fault.CE_ON_CNP_NOT_COUNTED)) {
                device.count(Counter.CE_RECEIVED, qp);
            }
            device.count(Counter.CNP_RECEIVED, qp);
            if (qp.state == QpState.RTS) {
                device.dcqcn(qp).onCnp(device.scheduler.now());
            }
            if (device.has(Fault.CNP_APPLIED_TO_PEER_QPS)) {
                // the bug: the reaction point looked up by the CNP's source address instead of its bth.dqpn
                for (final QueuePair other : device.qps.values()) {
                    if (other != qp && other.state == QpState.RTS && Arrays.equals(other.destIp, qp.destIp)) {
                        device.dcqcn(other).onCnp(device.scheduler.now());
                    }
                }
            }
            return;
        }
        if (opcode.kind().isRequest()) {
            if (ce) {
                device.count(Counter.CE_RECEIVED, qp);
                device.congestionIndication(qp);
            }
            if (qp.tver == 0) {
                device.responder.legacy(f, qp);
            } else {
                device.responder.request(f, qp);
            }
            return;
        }
        // responses: the requester's part (Table 11-4), which counts a CE mark only on a response it does not drop
        // silently (rule MR-CC-009)
        if (qp.state != QpState.RTS || qp.requester == null) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        switch (opcode.kind()) {
            case ACKNOWLEDGE -> qp.requester.responses().acknowledge(f);
            case RDMA_READ_RESPONSE -> {
                qp.requester.responses().readResponse(f);
                if (device.has(Fault.ACK_FOR_READ_RESPONSE)) {
                    device.sendAck(qp);
                }
            }
            case ATOMIC_ACKNOWLEDGE -> qp.requester.responses().atomicAck(f);
            default -> device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
        }
    }

    private void drop(final Counter counter, final QueuePair qp) {
        device.count(counter, qp);
    }

    /** Section 1.2: MetaRoCE frames are RoCEv2 over IPv4 or IPv6 with one tag at most, sent to the port. */
    private boolean isMetaRoce(final DecodedFrame f) {
        if (f.status() == DecodeStatus.NOT_ROCE || f.version() != RoceVersion.V2) {
            return false;
        }
        if (f.error() == DecodeError.STACKED_VLAN || f.error() == DecodeError.BAD_IP_HEADER) {
            return false;
        }
        if (!f.has(HeaderKind.IPV4) && !f.has(HeaderKind.IPV6)) {
            return false;
        }
        return f.ipDestinationEquals(device.config.ipv4()) || f.ipDestinationEquals(device.config.ipv6());
    }

    /**
     * An IPv4 frame with a non-zero fragment offset that section 1.2 makes a MetaRoCE frame (protocol 17, port 4791
     * where the UDP header would be, sent to the port's address), which the decoder does not take for RoCE because a
     * later fragment carries no UDP header. Step 2 of Table 11-1 drops it in drop_bad_ip_header.
     */
    private boolean isLaterFragment(final byte[] bytes) {
        final ByteBuffer b = ByteBuffer.wrap(bytes);
        int ip = 14;
        if (bytes.length >= 18 && BigEndian.u16(b, 12) == 0x8100 && !device.has(Fault.TAGGED_FRAGMENT_UNCOUNTED)) {
            ip = 18;
        }
        if (bytes.length < ip + 20 || BigEndian.u16(b, ip - 2) != 0x0800) {
            return false;
        }
        final int versionIhl = BigEndian.u8(b, ip);
        final int headerLength = (versionIhl & 0xF) * 4;
        if (versionIhl >>> 4 != 4 || headerLength < 20 || BigEndian.u8(b, ip + 9) != 17
            || (BigEndian.u16(b, ip + 6) & 0x1FFF) == 0 || bytes.length < ip + headerLength + 8
            || BigEndian.u16(b, ip + headerLength + 2) != 4791) {
            return false;
        }
        return Arrays.equals(Arrays.copyOfRange(bytes, ip + 16, ip + 20), device.config.ipv4());
    }

    /** Bytes after the IP datagram are allowed only as Ethernet padding of a minimum-size frame. */
    private static boolean paddedBeyondMinimum(final DecodedFrame f) {
        if (f.status() != DecodeStatus.ROCE) {
            return false;
        }
        final int excess = f.frameOffset() + f.frameLength() - f.packetEnd();
        if (excess == 0) {
            return false;
        }
        final int minimum = f.has(HeaderKind.VLAN) ? 64 : 60;
        return f.has(HeaderKind.IPV6) || f.frameLength() != minimum;
    }

    /** Table 11-3. */
    private boolean supported(final Opcode opcode, final int tver) {
        if (opcode == Opcode.CNP) {
            return tver == 0;
        }
        if (!opcode.isKnown() || opcode.transport() != Transport.RC || opcode.kind() == OpKind.FLUSH
            || opcode.kind() == OpKind.ATOMIC_WRITE) {
            return false;
        }
        if ((opcode.kind().isAtomic() || opcode.kind() == OpKind.ATOMIC_ACKNOWLEDGE)
            && !device.config.claims("atomics")) {
            return false;
        }
        return !opcode.hasInvalidate() || device.config.claims("send-with-invalidate");
    }

    /** Section 10.2: low 15 bits equal and non-zero, and one of the two with full membership. */
    static boolean pkeyMatches(final int received, final int own) {
        return (received & 0x7FFF) == (own & 0x7FFF) && (received & 0x7FFF) != 0
            && ((received | own) & 0x8000) != 0;
    }

    /**
     * Fault ERROR_QP_STILL_PLACES: the data path writes an RDMA WRITE packet's payload to the region its RETH names
     * (key, PD and bounds checked) before the QP state check drops the frame.
     */
    private void placeInError(final DecodedFrame f, final QueuePair qp) {
        if (f.opcode().kind() != OpKind.RDMA_WRITE || !f.has(HeaderKind.RETH)) {
            return;
        }
        final Recorded p = Recorded.of(f, 1);
        final MemoryRegionState mr = device.memory.byRkey(p.rethRkey);
        if (mr != null && mr.registered && mr.pd == qp.pd && mr.contains(p.rethVa + p.offset, p.payloadLength)) {
            Placement.write(mr, p, f);
        }
    }

    /** Fault NONZERO_PAD_DROPPED: a pad byte is not zero. */
    private static boolean padNonZero(final DecodedFrame f) {
        for (int i = 0; i < f.padLength(); i++) {
            if (f.buffer().get(f.payloadOffset() + f.payloadLength() + i) != 0) {
                return true;
            }
        }
        return false;
    }

    /** Fault PLETH_LAST_UNCHECKED: the pleth.last Table 2-2 gives for the opcode. */
    private static boolean expectsLast(final Opcode opcode) {
        final Position position = opcode.position();
        return position == Position.LAST || position == Position.ONLY || position == Position.NONE;
    }

    /** Table 2-2. */
    static boolean flagsAgree(final Opcode opcode, final boolean first, final boolean last) {
        final Position position = opcode.position();
        final boolean wantFirst = position == Position.FIRST || position == Position.ONLY || position == Position.NONE;
        final boolean wantLast = position == Position.LAST || position == Position.ONLY || position == Position.NONE;
        return first == wantFirst && last == wantLast;
    }
}

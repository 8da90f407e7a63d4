package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/**
 * The responder of a TVer 1 QP (MetaRoCE v1 sections 4 to 10): classification against ePSN and the window, the
 * validity and protection checks of Tables 6-2 and 10-1 in the order of Table 11-1, out-of-order placement, recording,
 * ePSN advance with the sequence check, in-order execution and completion, and acknowledgement. The TVer 0 (legacy,
 * go-back-N) responder is {@link LegacyResponder}.
 */
final class Responder {
    static final int FAMILY_SEND = 0;
    static final int FAMILY_WRITE = 1;
    static final int FAMILY_READ = 2;
    static final int FAMILY_ATOMIC = 3;

    private final Device device;
    final Execution execution;
    private final LegacyResponder legacy;

    Responder(final Device device) {
        this.device = device;
        this.execution = new Execution(device);
        this.legacy = new LegacyResponder(device, execution);
    }

    void legacy(final DecodedFrame f, final QueuePair qp) {
        legacy.request(f, qp);
    }

    static int family(final OpKind kind) {
        return switch (kind) {
            case SEND -> FAMILY_SEND;
            case RDMA_WRITE -> FAMILY_WRITE;
            case RDMA_READ_REQUEST -> FAMILY_READ;
            default -> FAMILY_ATOMIC;
        };
    }

    /** Table 4-1 classification, then the handling of each class. */
    void request(final DecodedFrame f, final QueuePair qp) {
        final int psn = f.bth().psn();
        final int window = qp.recvWindow + (device.has(Fault.WINDOW_EDGE_OFF_BY_ONE) ? 1 : 0);
        final int d;
        if (device.has(Fault.PSN_WRAP_BROKEN)) {
            final int plain = psn - qp.ePsn;
            d = plain < 0 ? Psn.HALF : plain;
        } else {
            d = Psn.distance(qp.ePsn, psn);
        }
        final boolean recorded = qp.window != null && qp.window.isRecorded(psn);
        if (d >= Psn.HALF) {
            duplicateBefore(f, qp);
        } else if (recorded) {
            duplicateInWindow(qp);
        } else if (d < window) {
            if (device.has(Fault.GO_BACK_N) && d != 0) {
                device.count(Counter.DROP_OUTSIDE_WINDOW, qp);
                device.sendAck(qp);
                return;
            }
            newPacket(f, qp, psn, d != 0);
        } else {
            device.count(Counter.DROP_OUTSIDE_WINDOW, qp);
            if (device.has(Fault.BITMAP_CLEARED_BEYOND_WINDOW)) {
                qp.window = null;
            }
            if (device.has(Fault.NAK_SEQ_ERR_BEYOND_WINDOW)) {
                device.sendNak(qp, qp.ePsn, AethSyndrome.NAK_PSN_SEQUENCE_ERROR.value());
            } else if (!device.has(Fault.NO_ACK_BEYOND_WINDOW)) {
                device.sendAck(qp);
            }
        }
    }

    private void duplicateInWindow(final QueuePair qp) {
        device.count(Counter.DUPLICATE_RECEIVED, qp);
        if (!device.has(Fault.NO_ACK_FOR_DUPLICATE_IN_WINDOW)) {
            device.sendAck(qp);
        }
    }

    private void duplicateBefore(final DecodedFrame f, final QueuePair qp) {
        final Opcode opcode = f.opcode();
        if (opcode == Opcode.RDMA_READ_REQUEST) {
            execution.reExecuteRead(qp, Recorded.of(f, 1));
            return;
        }
        if (opcode.kind().isAtomic()) {
            device.count(Counter.DUPLICATE_RECEIVED, qp);
            final long[] cached = execution.replay(qp, f.bth().psn());
            if (cached != null && device.has(Fault.DUPLICATE_ATOMIC_EXECUTED)) {
                // the bug: a duplicate it could replay from the cache is executed again
                execution.executeAtomic(qp, Recorded.of(f, 1));
                return;
            }
            if (cached == null && device.has(Fault.UNCACHED_DUPLICATE_EXECUTED)) {
                // the bug: a cache miss taken for a new request
                execution.executeAtomic(qp, Recorded.of(f, 1));
                return;
            }
            if (cached != null) {
                execution.sendAtomicAck(qp, f.bth().psn(), cached[1]);
            } else {
                device.sendAck(qp);
            }
            return;
        }
        device.count(Counter.DUPLICATE_RECEIVED, qp);
        if (device.has(Fault.DUPLICATE_COUNTED_AS_DROP)) {
            device.count(Counter.DROP_OUTSIDE_WINDOW, qp);
        }
        if (device.has(Fault.DUPLICATE_SEND_COMPLETED) && opcode.kind() == OpKind.SEND && opcode.position().isLast()) {
            final ReceiveWqe wqe = qp.receive(qp.expectedRsnIndex - 1 >= qp.receiveBase ? qp.expectedRsnIndex - 1
                : qp.receiveBase);
            if (wqe != null) {
                device.completeReceive(qp, wqe, WorkOpcode.RECV, f.pleth().messageOffset() + f.payloadLength(),
                    Recorded.of(f, 1));
            }
        }
        if (device.has(Fault.DUPLICATE_ACKED_AT_ITS_PSN)) {
            device.duplicateAckPoint = Psn.add(f.bth().psn(), 1); // the bug: the duplicate's own PSN acknowledged
        }
        device.sendAck(qp);
    }

    /** A packet in [ePSN, ePSN + W) seen for the first time: Table 11-1 steps 20 to 25. */
    private void newPacket(final DecodedFrame f, final QueuePair qp, final int psn, final boolean outOfOrder) {
        final Opcode opcode = f.opcode();
        final OpKind kind = opcode.kind();
        final int span = kind == OpKind.RDMA_READ_REQUEST
            ? (int) Math.max(1, (f.reth().dmaLength() + qp.pmtu - 1) / qp.pmtu) : 1;
        final Recorded packet = Recorded.of(f, span);
        // step 20: V1..V10
        if (!Validity.valid(device, qp, packet, f)) {
            reject(qp, psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST, -1, null);
            return;
        }
        // step 21: protection of RDMA WRITE packets
        MemoryRegionState target = null;
        if (kind == OpKind.RDMA_WRITE && (packet.rethLength > 0 || device.has(Fault.ZERO_LENGTH_KEY_CHECKED))) {
            target = Protection.check(device, qp, packet.rethRkey, packet.rethVa, packet.rethLength,
                QueuePair.ACCESS_WRITE);
            if (target == null) {
                reject(qp, psn, AethSyndrome.NAK_REMOTE_ACCESS_ERROR.value(), Counter.DROP_ACCESS_ERROR, -1, null);
                return;
            }
        }
        ReceiveWqe wqe = null;
        long wqeIndex = -1;
        final boolean usesWqe = kind == OpKind.SEND || opcode == Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE
            || opcode == Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE;
        if (!usesWqe && qp.tver == 1 && device.has(Fault.RSN_CHECKED_ON_EVERY_OPCODE)
            && Psn.diff(packet.rsn, qp.expectedRsn) < 0) {
            // the bug: V11 applied to a packet whose pleth.rsn means nothing (MR-HDR-006)
            reject(qp, psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST, -1, null);
            return;
        }
        if (usesWqe) {
            // step 22: V11
            final int ahead = device.has(Fault.RSN_COMPARED_UNSIGNED) ? Psn.distance(qp.expectedRsn, packet.rsn)
                : Psn.diff(packet.rsn, qp.expectedRsn);
            if (ahead < 0) {
                reject(qp, psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST, -1, null);
                return;
            }
            // step 23: V12
            wqeIndex = qp.expectedRsnIndex + ahead;
            if (wqeIndex >= qp.receivesPosted + (device.has(Fault.RNR_CHECK_OFF_BY_ONE) ? 1 : 0)) {
                device.count(Counter.DROP_RNR, qp);
                device.sendRnrNak(qp, psn);
                return;
            }
            wqe = qp.receive(wqeIndex);
            // step 24: V13
            final long end = (device.has(Fault.V13_PACKET_LENGTH_ONLY) ? 0 : packet.offset) + packet.payloadLength;
            if (kind == OpKind.SEND && (wqe == null || end > wqe.length())) {
                if (device.has(Fault.PARTIAL_PLACEMENT) && wqe != null && packet.offset < wqe.length()) {
                    Placement.sendPrefix(device, wqe, packet, f);
                }
                reject(qp, psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST, wqeIndex,
                    CompletionStatus.LOCAL_LENGTH_ERROR);
                return;
            }
        }
        // step 25: accepted
        if (kind == OpKind.RDMA_READ_REQUEST || kind.isAtomic()) {
            qp.rdAtomicOutstanding++;
        }
        if (kind == OpKind.RDMA_WRITE && target != null) {
            Placement.write(target, packet, f);
        } else if (kind == OpKind.SEND && packet.payloadLength > 0) {
            Placement.send(device, wqe, packet, f);
        }
        packet.outOfOrder = outOfOrder;
        final boolean ackReq = f.bth().ackReq();
        boolean holeClosed = false;
        if (outOfOrder) {
            qp.window().record(packet);
            if (device.has(Fault.READ_BEFORE_LOWER_PSNS) && kind == OpKind.RDMA_READ_REQUEST) {
                execution.executeReadEarly(qp, packet);
            }
            if (device.has(Fault.IMMEDIATE_BEFORE_DATA) && packet.last && packet.hasImmediate
                && kind == OpKind.RDMA_WRITE) {
                execution.completeEarly(qp, packet);
            }
        } else {
            holeClosed = advance(qp, packet);
        }
        if (device.has(Fault.INVALIDATE_ON_ARRIVAL) && packet.hasInvalidate && packet.last) {
            execution.invalidateEarly(qp, packet);
        }
        if (device.has(Fault.COMPLETIONS_OUT_OF_ORDER) && outOfOrder && packet.last && packet.first && usesWqe) {
            execution.completeEarly(qp, packet);
        }
        if (!qp.isActive()) {
            return;
        }
        if (outOfOrder && !(device.has(Fault.OOO_ACK_ONLY_ON_ACKREQ) && !ackReq)
            || (ackReq && !device.has(Fault.NO_ACK_ON_ACKREQ)) || holeClosed) {
            device.sendAck(qp);
        }
    }

    /** Sends a NAK (or nothing more for RNR), counts it, and moves the QP to ERROR. */
    void reject(final QueuePair qp, final int psn, final int syndrome, final Counter counter, final long wqeIndex,
                final CompletionStatus status) {
        device.count(counter, qp);
        device.sendNak(qp, psn, syndrome);
        device.fatal(qp, wqeIndex, status);
    }

    /**
     * Takes {@code arrived} (the packet at ePSN) and every contiguous recorded packet after it through the sequence
     * check, execution and completion, moving ePSN past them (section 4.3). Returns true when it passed a packet that
     * had been recorded out of order (a hole closed).
     */
    private boolean advance(final QueuePair qp, final Recorded arrived) {
        Recorded packet = arrived;
        boolean closed = false;
        while (packet != null && qp.isActive()) {
            if (packet.outOfOrder) {
                closed = true;
            }
            if (!(device.has(Fault.OOO_SEQUENCE_UNCHECKED) && packet.outOfOrder) && !sequenceCheck(qp, packet)) {
                reject(qp, packet.psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST, -1,
                    null);
                return closed;
            }
            if (!execution.executeAtEpsn(qp, packet)) {
                return closed;
            }
            qp.ePsn = Psn.add(packet.psn, packet.span);
            // the fault stops after the arriving packet when it closes a hole
            packet = qp.window == null || device.has(Fault.HOLE_CLOSE_ADVANCES_ONE) && packet == arrived
                ? null : qp.window.take(qp.ePsn);
        }
        if (qp.window != null && qp.window.isEmpty()) {
            qp.window = null;
        }
        return closed;
    }

    /** Table 4-2, then remembers {@code p} as Q for the next packet. */
    private boolean sequenceCheck(final QueuePair qp, final Recorded p) {
        final int family = family(p.kind());
        final boolean ok;
        if (!qp.seqSeen) {
            ok = p.first && p.msn == 0;
        } else if (qp.seqLast) {
            ok = p.first && p.msn == Psn.add(qp.seqMsn, 1);
        } else {
            ok = !p.first && p.msn == qp.seqMsn && family == qp.seqFamily && p.offset == qp.seqOffset + qp.pmtu
                && (family != FAMILY_WRITE || p.rethVa == qp.seqRethVa && p.rethRkey == qp.seqRethRkey
                && p.rethLength == qp.seqRethLength);
        }
        final boolean usesWqe = p.kind() == OpKind.SEND || p.opcode == Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE
            || p.opcode == Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE;
        if (!ok || usesWqe && p.rsn != qp.expectedRsn) {
            return false;
        }
        qp.seqSeen = true;
        qp.seqMsn = p.msn;
        qp.seqLast = p.last;
        qp.seqFamily = family;
        qp.seqOffset = p.offset;
        qp.seqRethVa = p.rethVa;
        qp.seqRethRkey = p.rethRkey;
        qp.seqRethLength = p.rethLength;
        return true;
    }

    /** Position helpers for the validity checks. */
    static boolean isFirstOrMiddle(final Opcode opcode) {
        return opcode.position() == Position.FIRST || opcode.position() == Position.MIDDLE;
    }
}

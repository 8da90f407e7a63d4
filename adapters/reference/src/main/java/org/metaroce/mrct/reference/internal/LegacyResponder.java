package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/**
 * The responder of a TVer 0 QP (MetaRoCE v1 section 16, PICS {@code legacy-rocev2}): plain RoCEv2 go-back-N with a
 * window of one packet, one NAK 0x60 per gap, in-order placement and checks from the opcodes alone.
 */
final class LegacyResponder {
    private final Device device;
    private final Execution execution;

    LegacyResponder(final Device device, final Execution execution) {
        this.device = device;
        this.execution = execution;
    }

    void request(final DecodedFrame f, final QueuePair qp) {
        final int psn = f.bth().psn();
        final int d = Psn.distance(qp.ePsn, psn);
        if (d >= Psn.HALF) {
            duplicate(f, qp);
            return;
        }
        if (d != 0 && device.has(Fault.LEGACY_ACCEPTS_AFTER_HOLE)) {
            inOrder(f, qp, psn);
            return;
        }
        if (d != 0) {
            device.count(device.has(Fault.LEGACY_GAP_COUNTED_AS_DUPLICATE) ? Counter.DUPLICATE_RECEIVED
                : Counter.DROP_OUTSIDE_WINDOW, qp);
            if (!qp.legacyNakSent) {
                qp.legacyNakSent = true;
                device.sendNak(qp, device.has(Fault.LEGACY_NAK_PSN_RECEIVED) ? psn : qp.ePsn,
                    AethSyndrome.NAK_PSN_SEQUENCE_ERROR.value());
            }
            return;
        }
        inOrder(f, qp, psn);
    }

    private void duplicate(final DecodedFrame f, final QueuePair qp) {
        final Opcode opcode = f.opcode();
        if (opcode == Opcode.RDMA_READ_REQUEST) {
            final Recorded p = Recorded.of(f, 1);
            execution.reExecuteRead(qp, p);
            return;
        }
        device.count(Counter.DUPLICATE_RECEIVED, qp);
        if (device.has(Fault.LEGACY_DUPLICATE_ACK_ONLY_ON_ACKREQ) && !f.bth().ackReq() && !opcode.kind().isAtomic()) {
            return;
        }
        if (opcode.kind().isAtomic()) {
            final long[] cached = execution.replay(qp, f.bth().psn());
            if (cached != null) {
                execution.sendAtomicAck(qp, f.bth().psn(), cached[1]);
                return;
            }
        }
        device.sendAck(qp);
    }

    private void inOrder(final DecodedFrame f, final QueuePair qp, final int psn) {
        final Opcode opcode = f.opcode();
        final OpKind kind = opcode.kind();
        final Position position = opcode.position();
        final int family = Responder.family(kind);
        final boolean open = qp.legacyFamily >= 0;
        final boolean continues = position == Position.MIDDLE || position == Position.LAST;
        final boolean sequenceOk = continues ? open && qp.legacyFamily == family
            || !open && device.has(Fault.LEGACY_MIDDLE_WITHOUT_FIRST) : !open;
        final int payload = f.payloadLength();
        final boolean data = kind == OpKind.SEND || kind == OpKind.RDMA_WRITE;
        final boolean lengthOk = !data || (position == Position.FIRST || position == Position.MIDDLE
            ? payload == qp.pmtu : payload <= qp.pmtu);
        final boolean outstandingOk = !(kind == OpKind.RDMA_READ_REQUEST || kind.isAtomic())
            || qp.rdAtomicOutstanding < qp.maxDestRdAtomic;
        final boolean alignedOk = !kind.isAtomic() || (f.atomicEth().va() & 7) == 0;
        if (!sequenceOk || !lengthOk || !outstandingOk || !alignedOk) {
            reject(qp, psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST, -1, null);
            return;
        }
        final long messageOffset = position.isFirst() ? 0 : qp.legacyOffset;
        if (kind == OpKind.RDMA_WRITE) {
            if (f.has(HeaderKind.RETH)) {
                qp.legacyWriteVa = f.reth().va();
                qp.seqRethRkey = f.reth().rkey();
                qp.seqRethLength = f.reth().dmaLength();
            }
            if (qp.seqRethLength > 0) {
                final MemoryRegionState mr = Protection.check(device, qp, qp.seqRethRkey, qp.legacyWriteVa,
                    qp.seqRethLength, QueuePair.ACCESS_WRITE);
                if (mr == null || messageOffset + payload > qp.seqRethLength) {
                    reject(qp, psn, AethSyndrome.NAK_REMOTE_ACCESS_ERROR.value(), Counter.DROP_ACCESS_ERROR, -1,
                        null);
                    return;
                }
                f.buffer().get(f.payloadOffset(), mr.data, (int) (qp.legacyWriteVa + messageOffset - mr.va), payload);
            }
        }
        final boolean usesWqe = kind == OpKind.SEND || opcode == Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE
            || opcode == Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE;
        ReceiveWqe wqe = null;
        if (usesWqe) {
            wqe = qp.receive(qp.expectedRsnIndex);
            if (wqe == null) {
                device.count(Counter.DROP_RNR, qp);
                device.sendRnrNak(qp, psn);
                return;
            }
            if (kind == OpKind.SEND) {
                if (messageOffset + payload > wqe.length()) {
                    reject(qp, psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST,
                        qp.expectedRsnIndex, CompletionStatus.LOCAL_LENGTH_ERROR);
                    return;
                }
                final MemoryRegionState mr = device.memory.byLkey(wqe.lkey());
                f.buffer().get(f.payloadOffset(), mr.data, (int) (wqe.va() + messageOffset - mr.va), payload);
            }
        }
        qp.legacyNakSent = qp.legacyNakSent && device.has(Fault.LEGACY_NAK_FLAG_NOT_RESET);
        qp.legacyFamily = position.isLast() || position == Position.NONE ? -1 : family;
        qp.legacyOffset = messageOffset + payload;
        final int span = kind == OpKind.RDMA_READ_REQUEST
            ? (int) Math.max(1, (f.reth().dmaLength() + qp.pmtu - 1) / qp.pmtu) : 1;
        final Recorded p = Recorded.of(f, span);
        p.offset = messageOffset;
        p.last = position.isLast() || position == Position.NONE;
        if (kind == OpKind.RDMA_WRITE) {
            p.rethLength = qp.seqRethLength;
        }
        if (kind == OpKind.RDMA_READ_REQUEST || kind.isAtomic()) {
            qp.rdAtomicOutstanding++;
        }
        if (!execution.executeAtEpsn(qp, p)) {
            return;
        }
        qp.ePsn = Psn.add(psn, span);
        if (f.bth().ackReq() && (p.last || !device.has(Fault.LEGACY_ACK_LAST_ONLY))) {
            device.sendAck(qp);
        }
    }

    private void reject(final QueuePair qp, final int psn, final int syndrome, final Counter counter,
                        final long wqeIndex, final CompletionStatus status) {
        device.count(counter, qp);
        device.sendNak(qp, psn, syndrome);
        device.fatal(qp, wqeIndex, status);
    }
}

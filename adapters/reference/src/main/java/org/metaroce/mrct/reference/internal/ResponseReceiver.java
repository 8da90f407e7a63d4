package org.metaroce.mrct.reference.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The receiving side of one QP's requester (MetaRoCE v1 sections 6.1, 7.6 and 13.1, Tables 11-1 and 11-4): checks each
 * ACKNOWLEDGE, READ RESPONSE and ATOMIC ACKNOWLEDGE, places read data and atomic originals, and hands what the
 * response proves (cumulative points, SACK bits, delivered PSNs, NAKs, RNR NAKs) to its {@link Requester}, which owns
 * the flight and the queue. It keeps no state of its own.
 */
final class ResponseReceiver {
    private final Device device;
    private final QueuePair qp;
    private final Requester requester;

    ResponseReceiver(final Device device, final QueuePair qp, final Requester requester) {
        this.device = device;
        this.qp = qp;
        this.requester = requester;
    }

    /** An ACKNOWLEDGE (ACK, NAK, RNR NAK) for this QP, after the checks of Table 11-1. */
    void acknowledge(final DecodedFrame f) {
        final AethSyndrome syndrome = f.aeth().syndrome();
        final boolean legacy = qp.tver == 0;
        final int psn = f.bth().psn();
        final AethSyndrome.Type type = syndrome.type();
        // a tver 0 ACK names the last PSN it acknowledges; a NAK or RNR NAK names the rejected packet, which was not
        // recorded, so only the PSNs before it are delivered (section 16.1, Table 16-1)
        final int base = !legacy ? f.sacketh().basePsn() : type == AethSyndrome.Type.ACK ? Psn.add(psn, 1) : psn;
        final boolean reserved = type == AethSyndrome.Type.RESERVED
            || type == AethSyndrome.Type.NAK && (syndrome.code() > 3 || syndrome.code() == 0 && !legacy);
        if (reserved || Psn.isAfter(base, requester.sendPoint())
            || !legacy && type == AethSyndrome.Type.ACK && Psn.add(psn, 1) != base
            || (type == AethSyndrome.Type.NAK || type == AethSyndrome.Type.RNR_NAK) && !requester.outstanding(psn)) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        if (f.isCongestionExperienced()) {
            device.count(Counter.CE_RECEIVED, qp); // counted, causes nothing else (section 14.2)
            if (device.has(Fault.CE_ACK_TRIGGERS_CNP) && f.opcode().kind() == OpKind.ACKNOWLEDGE) {
                device.congestionIndication(qp);
            }
        }
        if (legacy && type == AethSyndrome.Type.NAK && syndrome.code() == 0
            && !device.has(Fault.LEGACY_NAK_SEQ_ERR_AS_ERROR)) {
            requester.goBackN(psn);
            return;
        }
        requester.deliverCumulative(base);
        if (!legacy) {
            final long bitmap = f.sacketh().bitmap();
            for (int i = 1; i < 64; i++) {
                if ((bitmap & (Long.MIN_VALUE >>> i)) != 0) {
                    final PsnState state = requester.inFlight(Psn.add(base, i));
                    if (state != null && !state.work.isRead() && !state.work.isAtomic()) {
                        requester.markDelivered(state);
                    } else if (state != null && state.work.isRead()) {
                        state.work.requestArrived = true; // a SACK bit in the span: the READ REQUEST arrived
                    }
                }
            }
        }
        if (type == AethSyndrome.Type.NAK) {
            requester.remoteError(psn, base, syndrome.code());
            return;
        }
        if (type == AethSyndrome.Type.RNR_NAK) {
            requester.rnr(psn, device.has(Fault.RNR_WAIT_OWN_TIMER) ? qp.minRnrTimer : syndrome.code());
        }
        requester.afterDelivery();
    }

    /** A READ RESPONSE for this QP (Table 11-4 and section 6.1). */
    void readResponse(final DecodedFrame f) {
        final int psn = f.bth().psn();
        final PsnState state = requester.inFlight(psn);
        if (state == null) {
            final SendWork done = requester.completedReadContaining(psn);
            if (done == null) {
                device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
                return;
            }
            // a duplicate is discarded, not dropped silently: its CE mark is a congestion indication (section 14.2)
            congestion(f);
            device.count(Counter.DUPLICATE_RECEIVED, qp);
            if (device.has(Fault.DUPLICATE_READ_RESPONSE_PLACED)) {
                placeAgain(done, psn, f);
            }
            return;
        }
        final SendWork work = state.work;
        if (!work.isRead()) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        final int k = state.index;
        final long offset = (long) k * qp.pmtu;
        final int expectedLength = (int) Math.max(0, Math.min(qp.pmtu, work.wqe.length() - offset));
        // a tver 0 READ REQUEST for the rest of a read is answered as a new read from its PSN (section 16)
        final int start = qp.tver == 0 && k >= work.legacyFrom ? work.legacyFrom : 0;
        final Opcode expected = work.span - start == 1 ? Opcode.RDMA_READ_RESPONSE_ONLY : k == start
            ? Opcode.RDMA_READ_RESPONSE_FIRST : k == work.span - 1 ? Opcode.RDMA_READ_RESPONSE_LAST
            : Opcode.RDMA_READ_RESPONSE_MIDDLE;
        final boolean plethOk = qp.tver == 0 || f.has(HeaderKind.PLETH) && f.pleth().msn() == work.msn
            && f.pleth().messageOffset() == offset;
        // the fault: the opcode's place in the read (FIRST, MIDDLE, LAST, ONLY) taken on trust
        if (f.opcode() != expected && !device.has(Fault.READ_RESPONSE_OPCODE_UNCHECKED)
            || f.payloadLength() != expectedLength || !plethOk) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        // from here on the response is not dropped silently: accepted, a duplicate, or a TVer 0 response after a gap
        // (answered by a re-request), so a CE mark on it is a congestion indication (section 14.2)
        congestion(f);
        if (state.delivered && !device.has(Fault.DUPLICATE_READ_RESPONSE_PLACED)) {
            device.count(Counter.DUPLICATE_RECEIVED, qp);
            return;
        }
        if (qp.tver == 0 && k > 0 && !work.responded[k - 1] && !device.has(Fault.LEGACY_READ_GAP_ACCEPTED)) {
            requester.legacyReadGap(work, k);
            return;
        }
        final MemoryRegionState mr = device.memory.byLkey(work.wqe.lkey());
        if (mr != null && expectedLength > 0) {
            long at = offset;
            if (device.has(Fault.READ_RESPONSE_PLACED_IN_ARRIVAL_ORDER)) { // the bug: a write pointer per READ
                at = 0;
                for (final boolean responded : work.responded) {
                    at += responded ? qp.pmtu : 0;
                }
                at = Math.min(at, work.wqe.length() - expectedLength);
            }
            f.buffer().get(f.payloadOffset(), mr.data, (int) (work.wqe.localVa() + at - mr.va), expectedLength);
        }
        work.responded[k] = true;
        requester.markDelivered(state);
        requester.acknowledgeForCompletion(work.firstPsn);
        requester.afterDelivery();
    }

    /**
     * Fault DUPLICATE_READ_RESPONSE_PLACED: counts a response for a delivered PSN as a duplicate and still copies its
     * payload to where the response on that PSN belongs.
     */
    private void placeAgain(final SendWork work, final int psn, final DecodedFrame f) {
        final long offset = (long) Psn.distance(work.firstPsn, psn) * qp.pmtu;
        final int length = (int) Math.max(0, Math.min(qp.pmtu, work.wqe.length() - offset));
        final MemoryRegionState mr = device.memory.byLkey(work.wqe.lkey());
        if (mr != null && length > 0 && f.payloadLength() == length) {
            f.buffer().get(f.payloadOffset(), mr.data, (int) (work.wqe.localVa() + offset - mr.va), length);
        }
    }

    /** An ATOMIC ACKNOWLEDGE for this QP. */
    void atomicAck(final DecodedFrame f) {
        final int psn = f.bth().psn();
        final PsnState state = requester.inFlight(psn);
        if (state == null || !state.work.isAtomic()) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        if (f.isCongestionExperienced()) {
            device.count(Counter.CE_RECEIVED, qp); // an acknowledgement frame: counted only (section 14.2)
        }
        if (state.delivered) {
            device.count(Counter.DUPLICATE_RECEIVED, qp);
            return;
        }
        final SendWork work = state.work;
        work.original = f.atomicAckEth().original();
        final MemoryRegionState mr = device.memory.byLkey(work.wqe.lkey());
        if (mr != null && mr.contains(work.wqe.localVa(), 8)) {
            final ByteOrder order = device.has(Fault.ATOMIC_RESULT_WIRE_ORDER)
                || "big-endian".equals(device.config.word("atomic_memory_order", "little-endian"))
                ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            ByteBuffer.wrap(mr.data).order(order).putLong((int) (work.wqe.localVa() - mr.va), work.original);
        }
        requester.markDelivered(state);
        requester.acknowledgeForCompletion(psn);
        requester.afterDelivery();
    }

    /** A CE-marked read response that is not dropped silently: counted, and a congestion indication (Table 14-1). */
    private void congestion(final DecodedFrame f) {
        if (f.isCongestionExperienced()) {
            device.count(Counter.CE_RECEIVED, qp);
            if (!device.has(Fault.CE_READ_RESPONSE_IGNORED)) {
                device.congestionIndication(qp);
            }
        }
    }
}

package org.metaroce.mrct.reference.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * What happens when ePSN reaches a packet (section 4.3): READ execution and response generation (section 8), atomic
 * execution with the replay cache (section 9), and message completion (section 7), plus the re-execution of duplicate
 * READs and the replay of duplicate atomics.
 */
final class Execution {
    private final Device device;

    Execution(final Device device) {
        this.device = device;
    }

    /** Executes or completes the packet at ePSN; false when the QP went to ERROR. */
    boolean executeAtEpsn(final QueuePair qp, final Recorded p) {
        final OpKind kind = p.kind();
        if (kind == OpKind.RDMA_READ_REQUEST) {
            return p.executedEarly || executeRead(qp, p);
        }
        if (kind.isAtomic()) {
            return executeAtomic(qp, p);
        }
        if (p.last) {
            return completeMessage(qp, p);
        }
        return true;
    }

    // ------------------------------------------------------------------ READ

    private boolean executeRead(final QueuePair qp, final Recorded p) {
        final long length = p.rethLength;
        MemoryRegionState mr = null;
        if (length > 0 || device.has(Fault.ZERO_LENGTH_KEY_CHECKED)) {
            mr = Protection.check(device, qp, p.rethRkey, p.rethVa, length, QueuePair.ACCESS_READ);
            if (mr == null) {
                reject(qp, p.psn, AethSyndrome.NAK_REMOTE_ACCESS_ERROR.value(), Counter.DROP_ACCESS_ERROR);
                return false;
            }
        }
        qp.msn = Psn.add(qp.msn, 1);
        if (qp.heldReads == null) {
            qp.heldReads = new ArrayDeque<>();
        }
        qp.heldReads.addLast(new int[] {p.psn, (int) Math.max(1, (length + qp.pmtu - 1) / qp.pmtu)});
        while (qp.heldReads.size() > qp.maxDestRdAtomic) {
            qp.heldReads.pollFirst();
        }
        respond(qp, p, mr, 0, p.psn, true);
        return true;
    }

    /** Section 8.4 (v1.1): whether {@code psn} is in the span of a READ the responder still holds. */
    private static boolean holds(final QueuePair qp, final int psn) {
        if (qp.heldReads != null) {
            for (final int[] span : qp.heldReads) {
                if (Psn.distance(span[0], psn) < span[1]) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Fault READ_BEFORE_LOWER_PSNS: executes on arrival. */
    void executeReadEarly(final QueuePair qp, final Recorded p) {
        p.executedEarly = executeRead(qp, p);
    }

    /** Duplicate READ before ePSN: re-executed from pleth.offset (section 8.4). */
    void reExecuteRead(final QueuePair qp, final Recorded p) {
        if (!holds(qp, p.psn)) { // not a READ still held (section 8.4, v1.1): a duplicate answered with the current ACK
            device.count(Counter.DUPLICATE_RECEIVED, qp);
            device.sendAck(qp);
            return;
        }
        final long length = p.rethLength;
        final boolean offsetOk = length == 0 ? p.offset == 0 : p.offset % qp.pmtu == 0 && p.offset < length
            || device.has(Fault.DUPLICATE_READ_OFFSET_UNCHECKED) && p.offset < length;
        // the fault checks pleth.offset (check V12) and then starts the response at the first byte anyway
        final long offset = device.has(Fault.REEXECUTE_FROM_START) ? 0 : p.offset;
        if (!offsetOk) {
            reject(qp, p.psn, AethSyndrome.NAK_INVALID_REQUEST.value(), Counter.DROP_INVALID_REQUEST);
            return;
        }
        MemoryRegionState mr = null;
        if (length > 0) {
            mr = Protection.check(device, qp, p.rethRkey, p.rethVa + offset, length - offset, QueuePair.ACCESS_READ);
            if (mr == null) {
                reject(qp, p.psn, AethSyndrome.NAK_REMOTE_ACCESS_ERROR.value(), Counter.DROP_ACCESS_ERROR);
                return;
            }
        }
        device.count(Counter.DUPLICATE_RECEIVED, qp);
        if (device.has(Fault.REEXECUTED_READ_COUNTS_MSN)) {
            qp.msn = Psn.add(qp.msn, 1);
        }
        final int startIndex = (int) (offset / qp.pmtu);
        respond(qp, p, mr, startIndex, Psn.add(p.psn, -startIndex), false);
    }

    /** Sends the responses k = from .. n-1 of a read whose first PSN is {@code firstPsn} (Table 8-1). */
    private void respond(final QueuePair qp, final Recorded p, final MemoryRegionState mr, final int from,
                         final int firstPsn, final boolean counts) {
        final long length = p.rethLength;
        final int n = device.has(Fault.READ_COUNT_FLOOR_PLUS_ONE) ? (int) (length / qp.pmtu + 1)
            : (int) Math.max(1, (length + qp.pmtu - 1) / qp.pmtu);
        final byte[] data = new byte[(int) Math.max(0, length - (long) from * qp.pmtu)];
        if (mr != null && data.length > 0) {
            System.arraycopy(mr.data, (int) (p.rethVa + (long) from * qp.pmtu - mr.va), data, 0, data.length);
        }
        final int lastK = n - (device.has(Fault.READ_LAST_OFF_BY_ONE) ? 0 : 1);
        final boolean lastFirst = device.has(Fault.READ_LAST_RESPONSE_FIRST) && n - from > 1;
        for (int i = from; i < n; i++) {
            final int k = lastFirst ? (i == from ? n - 1 : i - 1) : i;
            final Opcode opcode = n == 1 ? Opcode.RDMA_READ_RESPONSE_ONLY : k == 0 ? Opcode.RDMA_READ_RESPONSE_FIRST
                : k == lastK ? Opcode.RDMA_READ_RESPONSE_LAST : Opcode.RDMA_READ_RESPONSE_MIDDLE;
            final int size = (int) Math.min(qp.pmtu, length - (long) k * qp.pmtu);
            final int msn = device.has(Fault.READ_RESPONSE_MSN_CURRENT) ? qp.msn : p.msn;
            final byte[] frame = readResponse(qp, opcode, Psn.add(firstPsn, k), msn, (long) k * qp.pmtu, data,
                (k - from) * qp.pmtu, Math.max(0, size));
            final boolean lastOne = k == n - 1;
            device.transmitData(qp, frame, counts && lastOne ? () -> qp.rdAtomicOutstanding-- : null);
        }
    }

    private byte[] readResponse(final QueuePair qp, final Opcode opcode, final int psn, final int msn,
                                final long offset, final byte[] data, final int from, final int size) {
        final FrameWriter w = device.writer;
        final FrameWriter.Draft d = w.begin(qp.encapsulation, opcode, qp.tver, size,
            device.has(Fault.READ_RESPONSES_NOT_ECT) ? FrameWriter.NOT_ECT : FrameWriter.ECT0,
            device.has(Fault.READ_RESPONSE_FIXED_SPORT) ? device.sourcePort(qp) : device.dataSourcePort(qp),
            qp.destQpn, qp.pkey, psn, false);
        if (qp.tver == 1) {
            w.pleth(d, msn, opcode.position().isFirst(), opcode.position().isLast(), offset, 0);
        }
        if (opcode != Opcode.RDMA_READ_RESPONSE_MIDDLE) {
            w.aeth(d, device.has(Fault.READ_RESPONSE_CREDIT_SYNDROME) ? 0 : AethSyndrome.ACK.value(),
                device.reportedMsn(qp));
        }
        w.payload(d, data, from, size);
        return w.finish(d);
    }

    // ------------------------------------------------------------------ atomics

    boolean executeAtomic(final QueuePair qp, final Recorded p) {
        final MemoryRegionState mr = Protection.check(device, qp, p.atomicRkey, p.atomicVa, 8,
            QueuePair.ACCESS_ATOMIC);
        if (mr == null) {
            reject(qp, p.psn, AethSyndrome.NAK_REMOTE_ACCESS_ERROR.value(), Counter.DROP_ACCESS_ERROR);
            return false;
        }
        final ByteOrder order = "big-endian".equals(device.config.word("atomic_memory_order", "little-endian"))
            ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        final ByteBuffer word = ByteBuffer.wrap(mr.data, (int) (p.atomicVa - mr.va), 8).order(order);
        final long original = word.getLong(word.position());
        final boolean equal = device.has(Fault.COMPARE_LOW_32_BITS) ? (int) original == (int) p.atomicCompare
            : original == p.atomicCompare;
        final long sum = device.has(Fault.FETCH_ADD_32_BIT)
            ? original & 0xFFFF_FFFF_0000_0000L | original + p.atomicSwap & 0xFFFF_FFFFL : original + p.atomicSwap;
        final long replacement = p.opcode == Opcode.COMPARE_SWAP ? (equal ? p.atomicSwap : original) : sum;
        word.putLong(word.position(), replacement);
        qp.msn = Psn.add(qp.msn, 1);
        if (qp.replayCache == null) {
            qp.replayCache = new ArrayDeque<>();
        }
        qp.replayCache.addLast(new long[] {p.psn, original});
        while (qp.replayCache.size() > (device.has(Fault.REPLAY_CACHE_ONE_ENTRY) ? 1 : qp.maxDestRdAtomic)) {
            qp.replayCache.pollFirst();
        }
        sendAtomicAck(qp, p.psn, original);
        if (!device.has(Fault.ATOMIC_SLOT_NOT_FREED)) {
            qp.rdAtomicOutstanding = Math.max(0, qp.rdAtomicOutstanding - 1);
        }
        return true;
    }

    /** The cached {psn, original} of a duplicate atomic, or null. */
    long[] replay(final QueuePair qp, final int psn) {
        if (qp.replayCache == null) {
            return null;
        }
        for (final long[] entry : qp.replayCache) {
            if (entry[0] == psn) {
                return entry;
            }
        }
        return null;
    }

    void sendAtomicAck(final QueuePair qp, final int psn, final long original) {
        final FrameWriter w = device.writer;
        final FrameWriter.Draft d = w.begin(qp.encapsulation, Opcode.ATOMIC_ACKNOWLEDGE, qp.tver, 0,
            FrameWriter.NOT_ECT, device.sourcePort(qp), qp.destQpn, qp.pkey, psn, false);
        w.aeth(d, AethSyndrome.ACK.value(), device.reportedMsn(qp));
        w.atomicAck(d, device.has(Fault.ATOMIC_ORIG_MEMORY_ORDER) ? Long.reverseBytes(original) : original);
        device.emitAcknowledgement(qp, w.finish(d));
    }

    // ------------------------------------------------------------------ completion

    private boolean completeMessage(final QueuePair qp, final Recorded last) {
        qp.msn = Psn.add(qp.msn, 1);
        if (!last.consumesWqe() && !(device.has(Fault.PLAIN_WRITE_CONSUMES_WQE) && last.kind() == OpKind.RDMA_WRITE)) {
            return true;
        }
        final long index = qp.expectedRsnIndex;
        final ReceiveWqe wqe = qp.receive(index);
        qp.expectedRsn = Psn.add(qp.expectedRsn, 1);
        qp.expectedRsnIndex++;
        if (wqe == null) {
            return true;
        }
        if (last.hasInvalidate) {
            final MemoryRegionState mr = device.memory.byRkey(last.invalidateRkey);
            if (mr == null || !mr.registered || !mr.rkeyValid && !device.has(Fault.INVALIDATE_ON_ARRIVAL)
                || mr.pd != qp.pd && !device.has(Fault.INVALIDATE_OTHER_PD)) {
                device.count(Counter.DROP_ACCESS_ERROR, qp);
                device.sendNak(qp, last.psn, AethSyndrome.NAK_REMOTE_ACCESS_ERROR.value());
                device.fatal(qp, index, CompletionStatus.LOCAL_ACCESS_ERROR);
                return false;
            }
            mr.rkeyValid = false;
        }
        consumeHead(qp, index);
        if (!last.completedEarly) {
            final long length = last.kind() == OpKind.SEND ? (device.has(Fault.COMPLETION_LENGTH_LAST_PACKET) ? 0
                : last.offset) + last.payloadLength : last.rethLength;
            device.completeReceive(qp, wqe, last.kind() == OpKind.SEND ? WorkOpcode.RECV
                : WorkOpcode.RECV_RDMA_WITH_IMM, length, last);
        }
        return true;
    }

    /** Fault INVALIDATE_ON_ARRIVAL: invalidates the named R_Key now, before the message completes. */
    void invalidateEarly(final QueuePair qp, final Recorded last) {
        final MemoryRegionState mr = device.memory.byRkey(last.invalidateRkey);
        if (mr != null && mr.pd == qp.pd) {
            mr.rkeyValid = false;
        }
    }

    /** Faults that complete early: posts the completion now, ePSN later only consumes the WQE. */
    void completeEarly(final QueuePair qp, final Recorded last) {
        final long index = qp.expectedRsnIndex + Psn.diff(last.rsn, qp.expectedRsn);
        final ReceiveWqe wqe = qp.receive(index);
        if (wqe == null) {
            return;
        }
        last.completedEarly = true;
        final long length = last.kind() == OpKind.SEND ? last.offset + last.payloadLength : last.rethLength;
        device.completeReceive(qp, wqe, last.kind() == OpKind.SEND ? WorkOpcode.RECV
            : WorkOpcode.RECV_RDMA_WITH_IMM, length, last);
    }

    private static void consumeHead(final QueuePair qp, final long index) {
        if (index == qp.receiveBase && !qp.receives.isEmpty()) {
            qp.receives.remove(0);
            qp.receiveBase++;
        }
    }

    private void reject(final QueuePair qp, final int psn, final int syndrome, final Counter counter) {
        device.count(counter, qp);
        device.sendNak(qp, psn, syndrome);
        device.fatal(qp, -1, null);
    }
}

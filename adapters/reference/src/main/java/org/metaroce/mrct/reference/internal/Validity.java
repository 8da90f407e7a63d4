package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/** Checks V1 to V10 of MetaRoCE v1 Table 6-2 on a new request packet. */
final class Validity {
    private Validity() {
    }

    static boolean valid(final Device device, final QueuePair qp, final Recorded p, final DecodedFrame f) {
        final Opcode opcode = p.opcode;
        final OpKind kind = opcode.kind();
        final Position position = opcode.position();
        final boolean data = kind == OpKind.SEND || kind == OpKind.RDMA_WRITE;
        final long maxMessage = device.config.number("max_msg_size", 1L << 31);
        // V1, V2
        if (data && (position == Position.FIRST || position == Position.MIDDLE && !device.has(Fault.V1_FIRST_ONLY))
            && p.payloadLength != qp.pmtu) {
            return false;
        }
        final long pmtu = device.has(Fault.V2_AGAINST_MAX_PMTU) ? device.config.number("max_pmtu", 4096) : qp.pmtu;
        if (data && (position == Position.LAST || position == Position.ONLY) && p.payloadLength > pmtu) {
            return false;
        }
        // V3
        if (p.first && p.offset != 0 && !(device.has(Fault.V3_WRITE_ONLY) && kind != OpKind.RDMA_WRITE)) {
            return false;
        }
        // V4
        if (data && (position == Position.MIDDLE || position == Position.LAST)
            && (p.offset == 0 && !device.has(Fault.V4_ZERO_OFFSET_ALLOWED) || p.offset % qp.pmtu != 0)
            && !(device.has(Fault.V4_IN_ORDER_ONLY) && p.psn != qp.ePsn)) {
            return false;
        }
        // V5
        if (kind == OpKind.RDMA_WRITE && (position.isLast() || !device.has(Fault.V5_LAST_ONLY))) {
            final long end = p.offset + p.payloadLength;
            if (position.isLast() ? end != p.rethLength : end >= p.rethLength) {
                return false;
            }
        }
        // V6, V7
        if ((kind == OpKind.RDMA_WRITE || kind == OpKind.RDMA_READ_REQUEST && !device.has(Fault.V6_WRITE_ONLY))
            && p.rethLength > maxMessage) {
            return false;
        }
        if (kind == OpKind.SEND && p.offset + p.payloadLength > maxMessage) {
            return false;
        }
        // V6 for a READ: its whole span less than 2^23 PSNs after ePSN, where Table 4-1 still tells ahead from behind
        if (kind == OpKind.RDMA_READ_REQUEST && (long) Psn.distance(qp.ePsn, p.psn) + p.span > 1L << 23) {
            return false;
        }
        // V8
        if ((kind == OpKind.RDMA_READ_REQUEST || kind.isAtomic()) && qp.rdAtomicOutstanding
            >= qp.maxDestRdAtomic + (device.has(Fault.RD_ATOMIC_LIMIT_OFF_BY_ONE) ? 1 : 0)) {
            return false;
        }
        // V9
        if (kind.isAtomic() && (p.atomicVa & (device.has(Fault.ATOMIC_ALIGN_4) ? 3 : 7)) != 0) {
            return false;
        }
        // V10
        if (kind == OpKind.RDMA_READ_REQUEST && qp.window != null) {
            for (int k = 0; k < (device.has(Fault.READ_SPAN_FIRST_PSN_ONLY) ? 1 : p.span); k++) {
                if (qp.window.isRecorded(Psn.add(p.psn, k))) {
                    return false;
                }
            }
        }
        return true;
    }
}

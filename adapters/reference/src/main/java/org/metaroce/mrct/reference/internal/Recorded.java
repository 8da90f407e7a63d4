package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;

/** What the responder keeps of a recorded request packet until ePSN passes it (MetaRoCE v1 section 4.1). */
final class Recorded {
    Opcode opcode;
    int psn;
    int span;
    int msn;
    boolean first;
    boolean last;
    long offset;
    int rsn;
    int payloadLength;
    long rethVa;
    int rethRkey;
    long rethLength;
    boolean hasImmediate;
    int immediate;
    boolean hasInvalidate;
    int invalidateRkey;
    boolean solicited;
    long atomicVa;
    int atomicRkey;
    long atomicSwap;
    long atomicCompare;
    /** Set when the packet was recorded while after ePSN. */
    boolean outOfOrder;
    /** Faults only: the READ was executed, or the message completed, before ePSN reached it. */
    boolean executedEarly;
    boolean completedEarly;

    static Recorded of(final DecodedFrame f, final int span) {
        final Recorded r = new Recorded();
        r.opcode = f.opcode();
        r.psn = f.bth().psn();
        r.span = span;
        r.solicited = f.bth().solicitedEvent();
        r.payloadLength = f.payloadLength();
        if (f.has(HeaderKind.PLETH)) {
            r.msn = f.pleth().msn();
            r.first = f.pleth().first();
            r.last = f.pleth().last();
            r.offset = f.pleth().messageOffset();
            r.rsn = f.pleth().rsn();
        }
        if (f.has(HeaderKind.RETH)) {
            r.rethVa = f.reth().va();
            r.rethRkey = f.reth().rkey();
            r.rethLength = f.reth().dmaLength();
        }
        if (f.has(HeaderKind.IMMDT)) {
            r.hasImmediate = true;
            r.immediate = f.immDt().immediate();
        }
        if (f.has(HeaderKind.IETH)) {
            r.hasInvalidate = true;
            r.invalidateRkey = f.ieth().rkey();
        }
        if (f.has(HeaderKind.ATOMIC_ETH)) {
            r.atomicVa = f.atomicEth().va();
            r.atomicRkey = f.atomicEth().rkey();
            r.atomicSwap = f.atomicEth().swapAdd();
            r.atomicCompare = f.atomicEth().compare();
        }
        return r;
    }

    OpKind kind() {
        return opcode.kind();
    }

    /** True for messages that consume a receive WQE: SEND, and RDMA WRITE WITH IMMEDIATE (its last packet). */
    boolean consumesWqe() {
        return opcode.kind() == OpKind.SEND || opcode == Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE
            || opcode == Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE;
    }
}

package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.Psn;

/** A posted send WQE and what the requester knows of it (MetaRoCE v1 sections 12 and 13). */
final class SendWork {
    final SendWqe wqe;
    final int msn;
    final int rsn;
    /** Packets of the message (1 for READ and atomics). */
    final int packets;
    /** PSNs the message occupies. */
    final int span;
    /** First PSN, once assigned (when its first packet is sent). */
    int firstPsn = -1;
    /** Packets sent for the first time. */
    int sent;
    /** READ: bytes placed so far, per response PSN received. */
    boolean[] responded;
    /** READ: a SACK bit for a PSN of its span showed that the READ REQUEST reached the responder (section 13.6). */
    boolean requestArrived;
    /** tver 0 READ: index in the span of the latest READ REQUEST, whose responses start with FIRST there. */
    int legacyFrom;
    /** TVer 0: the response index a READ REQUEST for the rest of this read was last sent for (once per gap). */
    int legacyAsked = -1;
    boolean completed;
    CompletionStatus status;
    /** Atomic: the original value returned. */
    long original;

    SendWork(final SendWqe wqe, final int msn, final int rsn, final int pmtu) {
        this(wqe, msn, rsn, pmtu, false);
    }

    /** {@code floorPlusOne}: the packet count of fault packet-count-floor-plus-one (length / pmtu + 1). */
    SendWork(final SendWqe wqe, final int msn, final int rsn, final int pmtu, final boolean floorPlusOne) {
        this.wqe = wqe;
        this.msn = msn;
        this.rsn = rsn;
        final boolean single = isRead() || isAtomic();
        this.packets = single ? 1 : floorPlusOne ? (int) (wqe.length() / pmtu + 1)
            : (int) Math.max(1, (wqe.length() + pmtu - 1) / pmtu);
        this.span = isRead() ? (int) Math.max(1, (wqe.length() + pmtu - 1) / pmtu) : packets;
        if (isRead()) {
            responded = new boolean[span];
        }
    }

    boolean isRead() {
        return wqe.opcode() == WorkOpcode.RDMA_READ;
    }

    boolean isAtomic() {
        return wqe.opcode() == WorkOpcode.COMPARE_SWAP || wqe.opcode() == WorkOpcode.FETCH_ADD;
    }

    boolean consumesWqe() {
        return wqe.opcode() == WorkOpcode.SEND || wqe.opcode() == WorkOpcode.SEND_WITH_IMM
            || wqe.opcode() == WorkOpcode.SEND_WITH_INV || wqe.opcode() == WorkOpcode.RDMA_WRITE_WITH_IMM;
    }

    boolean fullySent() {
        return sent >= packets;
    }

    /** Last PSN of the span (valid once the first packet was sent). */
    int lastPsn() {
        return org.metaroce.mrct.wire.Psn.add(firstPsn, span - 1);
    }

    /** True when PSN lies in this message's span. */
    /** Section 13.6: evidence that this READ's REQUEST reached the responder, given the highest cumulative point. */
    boolean requestArrived(final int cumulative) {
        for (final boolean r : responded) {
            if (r) {
                return true;
            }
        }
        return requestArrived || Psn.isAfter(cumulative, firstPsn);
    }

    boolean contains(final int psn) {
        return firstPsn >= 0 && org.metaroce.mrct.wire.Psn.inWindow(psn, firstPsn, span);
    }
}

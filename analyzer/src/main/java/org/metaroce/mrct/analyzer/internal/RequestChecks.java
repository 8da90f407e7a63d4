package org.metaroce.mrct.analyzer.internal;

import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.RequesterAckReq;
import org.metaroce.mrct.oracle.RequesterOrder;
import org.metaroce.mrct.oracle.RequesterWindow;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/**
 * What one QP's first transmissions must hold, judged as {@link RequesterStream} records them in PSN order: each
 * packet on its own (segment sizes, offsets, lengths, pleth values), against the packets on the PSNs next to it
 * (opcode sequence, MSN, offset, RETH, RSN), along runs seen in order without a hole (RSN numbering, AckReq
 * intervals), against the send window, and the PSNs never seen sent (the holes the ring forgets or keeps at the end).
 */
final class RequestChecks {
    private static final org.metaroce.mrct.oracle.Basis UNA =
        org.metaroce.mrct.oracle.Basis.inferred("una from the capture's answers");
    private static final org.metaroce.mrct.oracle.Basis NEVER_SEEN =
        org.metaroce.mrct.oracle.Basis.inferred("the PSNs the capture shows sent");
    private final RequesterStream stream;
    private final Flow flow;
    /** RSN numbering, along a run of first transmissions seen in order. */
    private boolean rsnChain;
    private int nextRsn;
    /** MR-REQ-011 (the oracle's, as the live engine applies it): first transmissions in order since the last AckReq. */
    private final RequesterAckReq ackReqRun = new RequesterAckReq();
    /** The frame that came after the last hole in the first transmissions. */
    private long gapAfterFrame;
    /** The run of PSNs never seen sent, not reported yet. */
    private int runFrom;
    private int runLength;

    RequestChecks(final RequesterStream stream) {
        this.stream = stream;
        this.flow = stream.flow;
    }

    /** The stream starts: RSN numbering is followed from RSN 0 when {@code fromRsnZero}. */
    void start(final boolean fromRsnZero) {
        rsnChain = fromRsnZero;
        nextRsn = 0;
    }

    /** Forgets the runs and the pending hole: a new incarnation of the QP. */
    void restart() {
        rsnChain = false;
        ackReqRun.breakRun();
        runLength = 0;
    }

    /** A first transmission out of order: the runs seen in order break. */
    void breakRuns() {
        rsnChain = false;
        ackReqRun.breakRun();
    }

    /** PSNs were skipped before the first transmission in frame {@code frame}: the runs break there. */
    void holeBefore(final long frame) {
        breakRuns();
        gapAfterFrame = frame;
    }

    /** Compares the packet with the packets on the PSNs just before and after it, when those were seen. */
    void checkNeighbours(final Frame fr, final Context cx) {
        final PsnRing ring = stream.ring;
        final int p = fr.psn;
        final int before = Psn.add(p, -1);
        if (ring.has(before, PsnRing.SENT) || ring.has(before, PsnRing.READ_SPAN)) {
            checkPair(before, p, fr, cx);
        }
        if (fr.kind != OpKind.RDMA_READ_REQUEST) {
            final int after = Psn.add(p, 1);
            if (ring.has(after, PsnRing.SENT)) {
                checkPair(p, after, fr, cx);
            }
        }
    }

    /** The packets on PSNs {@code q} and {@code q + 1} (both first transmissions) against Table 4-2 and 12-1. */
    private void checkPair(final int q, final int p, final Frame fr, final Context cx) {
        final PsnRing ring = stream.ring;
        final Connection c = flow.connection;
        final int sq = ring.slot(q);
        final int sp = ring.slot(p);
        final Opcode oq = Opcode.valueOf(ring.opcode[sq] & 0xFF);
        final Opcode op = Opcode.valueOf(ring.opcode[sp] & 0xFF);
        if (!oq.kind().isRequest() || !op.kind().isRequest()) {
            return;
        }
        final boolean qEnds = ends(oq);
        final boolean pStarts = starts(op);
        final long frameQ = ring.firstFrame[sq];
        final long frameP = ring.firstFrame[sp];
        Judge.observe(c, flow, Check.OPCODE_SEQUENCE);
        if (qEnds != pStarts || !qEnds && oq.kind() != op.kind()) {
            cx.judge.report(c, flow, Check.OPCODE_SEQUENCE, Basis.DEFINITE, fr,
                () -> qEnds ? op.name() + " at PSN " + Text.psn(p) + " (frame " + frameP + ") follows " + oq.name()
                        + " at PSN " + Text.psn(q) + " (frame " + frameQ + "), which ended its message: a MIDDLE or "
                        + "LAST needs an open message"
                    : op.name() + " at PSN " + Text.psn(p) + " (frame " + frameP + ") follows " + oq.name()
                        + " at PSN " + Text.psn(q) + " (frame " + frameQ + "), which left its message open: the next "
                        + "packet must be its MIDDLE or LAST",
                null, new FieldDiff("bth.opcode", qEnds ? "a FIRST or ONLY, READ REQUEST or atomic"
                    : "a MIDDLE or LAST " + oq.kind(), op.name()));
            return;
        }
        if (fr.tver != 1) {
            return;
        }
        final int mq = ring.msn[sq];
        final int mp = ring.msn[sp];
        if (pStarts) {
            Judge.observe(c, flow, Check.MSN);
        }
        final int expected = qEnds ? Psn.add(mq, 1) : mq;
        if (mp != expected) {
            cx.judge.report(c, flow, Check.MSN, Basis.DEFINITE, fr,
                () -> op.name() + " at PSN " + Text.psn(p) + " (frame " + frameP + ") has pleth.msn " + mp + " after "
                    + oq.name() + " at PSN " + Text.psn(q) + " (frame " + frameQ + ") with pleth.msn " + mq, null,
                new FieldDiff("pleth.msn", Text.number(expected), Text.number(mp)));
        }
        if (qEnds) {
            return;
        }
        final long oqOffset = ring.offset[sq] & 0xFFFF_FFFFL;
        final long opOffset = ring.offset[sp] & 0xFFFF_FFFFL;
        final int pmtu = flow.pmtu.value();
        final long step = pmtu > 0 ? pmtu : ring.payload[sq];
        if (opOffset != oqOffset + step) {
            cx.judge.report(c, flow, Check.OFFSET, Basis.DEFINITE, fr,
                () -> op.name() + " at PSN " + Text.psn(p) + " (frame " + frameP + ") has pleth.offset " + opOffset
                    + ", but the packet before it (PSN " + Text.psn(q) + ", frame " + frameQ + ") has offset "
                    + oqOffset + (pmtu > 0 ? " and the PMTU is " + pmtu : " and " + step + " bytes"), null,
                new FieldDiff("pleth.offset", Long.toString(oqOffset + step), Long.toString(opOffset)));
        }
        if (oq.kind() == OpKind.RDMA_WRITE) {
            Judge.observe(c, flow, Check.RETH_SAME);
            if (ring.reth[sq] != ring.reth[sp]) {
                cx.judge.report(c, flow, Check.RETH_SAME, Basis.DEFINITE, fr,
                    () -> op.name() + " at PSN " + Text.psn(p) + " (frame " + frameP + ") carries another RETH than "
                        + oq.name() + " at PSN " + Text.psn(q) + " (frame " + frameQ + ") of the same message", null,
                    new FieldDiff("reth", "as in frame " + frameQ, "different va, rkey or dmalen"));
            }
        }
        Judge.observe(c, flow, Check.RSN_ZERO);
        if (ring.rsn[sq] != ring.rsn[sp]) {
            final int rq = ring.rsn[sq];
            final int rp = ring.rsn[sp];
            cx.judge.report(c, flow, Check.RSN_ZERO, Basis.DEFINITE, fr,
                () -> op.name() + " at PSN " + Text.psn(p) + " (frame " + frameP + ") has pleth.rsn " + rp
                    + " but the packet before it in the message (frame " + frameQ + ") has " + rq, null,
                new FieldDiff("pleth.rsn", Text.number(rq), Text.number(rp)));
        }
    }

    /** A one-packet message too: READ REQUEST, atomics, FLUSH and ATOMIC WRITE (plain RoCEv2 traffic only). */
    static boolean ends(final Opcode opcode) {
        return opcode.position().isLast() || opcode.kind() == OpKind.RDMA_READ_REQUEST || opcode.kind().isAtomic()
            || opcode.isMemoryPlacement();
    }

    static boolean starts(final Opcode opcode) {
        return opcode.position().isFirst() || opcode.kind() == OpKind.RDMA_READ_REQUEST || opcode.kind().isAtomic()
            || opcode.isMemoryPlacement();
    }

    /** What one first transmission must hold on its own: segment sizes, offsets, RSN, the READ's first offset. */
    void checkPacket(final Frame fr, final Context cx) {
        final Connection c = flow.connection;
        final Position position = fr.position;
        final boolean sendOrWrite = fr.kind == OpKind.SEND || fr.kind == OpKind.RDMA_WRITE;
        if (sendOrWrite && (position == Position.FIRST || position == Position.MIDDLE) && !fr.cut) {
            Judge.observe(c, flow, Check.SEGMENT_SIZE);
            final int bit = Pmtu.equalTo(fr.payloadLength);
            final int before = flow.pmtu.mask;
            final long from = flow.pmtu.frame;
            if (!flow.pmtu.narrow(bit, fr.number)) {
                final String was = Connection.describe(before);
                cx.judge.report(c, flow, Check.SEGMENT_SIZE, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " carries " + fr.payloadLength
                        + " bytes; a FIRST or MIDDLE packet carries exactly the PMTU"
                        + (bit == 0 ? ", which is one of 256, 512, 1024, 2048, 4096"
                            : ", which the QP's other packets show to be " + was + " (frame " + from + ")"),
                    null, new FieldDiff("payload_len", "PMTU (" + was + ")", Integer.toString(fr.payloadLength)));
            } else {
                stream.reads.narrow();
            }
        }
        if (sendOrWrite && position.isLast() && !fr.cut) {
            Judge.observe(c, flow, Check.MESSAGE_LENGTH);
            final int before = flow.pmtu.mask;
            if (!flow.pmtu.narrow(Pmtu.atLeast(fr.payloadLength), fr.number)) {
                final String was = Connection.describe(before);
                cx.judge.report(c, flow, Check.MESSAGE_LENGTH, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " carries " + fr.payloadLength
                        + " bytes, more than the PMTU (" + was + ")", null,
                    new FieldDiff("payload_len", "at most " + was, Integer.toString(fr.payloadLength)));
            } else {
                stream.reads.narrow();
            }
        }
        if (fr.kind == OpKind.RDMA_WRITE && fr.decoded.has(HeaderKind.RETH) && fr.hasPleth() && !fr.cut) {
            final long end = fr.plethOffset() + fr.payloadLength;
            final long length = fr.decoded.reth().dmaLength();
            final boolean last = position.isLast();
            if (last ? end != length : end >= length) {
                cx.judge.report(c, flow, Check.MESSAGE_LENGTH, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " covers bytes up to " + end
                        + " of a write of reth.dmalen " + length + (last ? ": the last packet must end the message"
                        : ": only the last packet may reach the end"), null,
                    new FieldDiff("pleth.offset + payload_len", last ? Long.toString(length) : "below " + length,
                        Long.toString(end)));
            }
        }
        if (fr.kind == OpKind.RDMA_WRITE && fr.tver == 0 && position.isLast() && !fr.cut) {
            legacyWriteLength(fr, cx);
        }
        if (fr.tver == 1 && fr.hasPleth()) {
            checkPlethValues(fr, cx);
        }
    }

    private void checkPlethValues(final Frame fr, final Context cx) {
        final Connection c = flow.connection;
        final long offset = fr.plethOffset();
        if (fr.startsMessage()) {
            final Check check = fr.kind == OpKind.RDMA_READ_REQUEST ? Check.READ_REQUEST : Check.OFFSET;
            Judge.observe(c, flow, check);
            if (offset != 0) {
                final boolean read = fr.kind == OpKind.RDMA_READ_REQUEST;
                cx.judge.report(c, flow, check, read ? Basis.CAPTURE_GAP : Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " starts its message (its PSN was not "
                        + "seen before) but has pleth.offset " + offset,
                    () -> "it may ask again for part of a READ whose first transmission the capture does not hold",
                    new FieldDiff("pleth.offset", "0", Long.toString(offset)));
            }
        } else {
            Judge.observe(c, flow, Check.OFFSET);
            final int before = flow.pmtu.mask;
            if (!flow.pmtu.narrow(Pmtu.dividing(offset), fr.number)) {
                final String was = Connection.describe(before);
                cx.judge.report(c, flow, Check.OFFSET, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " has pleth.offset " + offset
                        + ", not a non-zero multiple of the PMTU (" + was + ")", null,
                    new FieldDiff("pleth.offset", "a non-zero multiple of " + was, Long.toString(offset)));
            } else {
                stream.reads.narrow();
            }
        }
        final boolean consumes = fr.kind == OpKind.SEND || fr.kind == OpKind.RDMA_WRITE && fr.opcode.hasImmediate();
        final boolean plainWriteEnd = fr.kind == OpKind.RDMA_WRITE && fr.position.isLast() && !fr.opcode.hasImmediate();
        if (!consumes && (plainWriteEnd || fr.kind == OpKind.RDMA_READ_REQUEST || fr.kind.isAtomic())) {
            Judge.observe(c, flow, Check.RSN_ZERO);
            if (fr.plethRsn() != 0) {
                cx.judge.report(c, flow, Check.RSN_ZERO, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " consumes no receive WQE but has "
                        + "pleth.rsn " + fr.plethRsn(), null,
                    new FieldDiff("pleth.rsn", "0", Text.number(fr.plethRsn())));
            }
        }
    }

    /** A TVer 0 WRITE: the payloads from its FIRST to its LAST must add up to the FIRST's reth.dmalen. */
    private void legacyWriteLength(final Frame fr, final Context cx) {
        final PsnRing ring = stream.ring;
        final Connection c = flow.connection;
        if (fr.position == Position.ONLY) {
            if (fr.decoded.has(HeaderKind.RETH)) {
                final long length = fr.decoded.reth().dmaLength();
                if (length != fr.payloadLength) {
                    cx.judge.report(c, flow, Check.MESSAGE_LENGTH, Basis.DEFINITE, fr,
                        () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " carries " + fr.payloadLength
                            + " bytes of a write of reth.dmalen " + length, null,
                        new FieldDiff("payload_len", Long.toString(length), Integer.toString(fr.payloadLength)));
                }
            }
            return;
        }
        long sum = fr.payloadLength;
        int psn = Psn.add(fr.psn, -1);
        for (int i = 0; i < ring.capacity(); i++) {
            if (!ring.has(psn, PsnRing.SENT)) {
                return;
            }
            final int s = ring.slot(psn);
            final Opcode op = Opcode.valueOf(ring.opcode[s] & 0xFF);
            if (op.kind() != OpKind.RDMA_WRITE || op.position().isLast()) {
                return;
            }
            sum += ring.payload[s];
            if (op.position() == Position.FIRST) {
                final long length = ring.offset[s] & 0xFFFF_FFFFL;
                final long total = sum;
                final long firstFrame = ring.firstFrame[s];
                if (total != length) {
                    cx.judge.report(c, flow, Check.MESSAGE_LENGTH, Basis.DEFINITE, fr,
                        () -> "the write that starts at frame " + firstFrame + " with reth.dmalen " + length
                            + " carries " + total + " bytes up to its " + fr.opcode.name() + " at PSN "
                            + Text.psn(fr.psn), null,
                        new FieldDiff("message bytes", Long.toString(length), Long.toString(total)));
                }
                return;
            }
            psn = Psn.add(psn, -1);
        }
    }

    /** RSN numbering and AckReq intervals, along runs of first transmissions seen in order. */
    void checkChains(final Frame fr, final Context cx) {
        final Connection c = flow.connection;
        if (fr.tver == 1 && fr.hasPleth()) {
            final boolean consumes = fr.kind == OpKind.SEND
                || fr.kind == OpKind.RDMA_WRITE && fr.opcode.hasImmediate();
            final boolean decides = fr.kind == OpKind.SEND ? fr.position.isFirst() : consumes && fr.position.isLast();
            if (decides) {
                final int rsn = fr.plethRsn();
                if (rsnChain) {
                    final int expected = nextRsn;
                    Judge.observe(c, flow, Check.RSN);
                    if (rsn != expected) {
                        final boolean fromStart = expected == 0;
                        cx.judge.report(c, flow, Check.RSN, Basis.DEFINITE, fr,
                            () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " has pleth.rsn " + rsn + "; "
                                + (fromStart ? "the first message that consumes a receive WQE has RSN 0"
                                : "the previous message that consumed a receive WQE had RSN " + Psn.add(expected, -1)),
                            null, new FieldDiff("pleth.rsn", Text.number(expected), Text.number(rsn)));
                    }
                }
                rsnChain = true;
                nextRsn = Psn.add(rsn, 1);
            }
        }
        final long interval = cx.ackReqInterval;
        final long lenient = cx.ackReqIntervalMax;
        Judge.observe(c, flow, Check.ACKREQ_INTERVAL);
        ackReqRun.onFirstTransmission(fr.ackReq);
        final Finding definite = ackReqRun.reached(lenient, fr.number, org.metaroce.mrct.oracle.Basis.FRAME);
        final Finding found = definite != null ? definite : ackReqRun.reached(interval, fr.number,
            cx.ackReqIntervalBasis);
        if (found != null) {
            final long run = ackReqRun.run();
            cx.judge.report(c, flow, Check.ACKREQ_INTERVAL, definite != null ? Basis.DEFINITE : Basis.PARAMETER, fr,
                () -> run + " first transmissions in a row, up to PSN " + Text.psn(fr.psn)
                    + ", carry no AckReq (ack_req_interval " + interval + " from " + cx.parameters.source() + ")",
                () -> "ack_req_interval may be set up to " + lenient,
                new FieldDiff(found.field(), "1 at least once in " + interval + " first transmissions",
                    found.actual()));
        }
    }

    /** MR-REQ-012: nothing sent for the first time at or beyond una + send_window. */
    void checkWindow(final Frame fr, final Context cx, final int span) {
        if (!stream.unaKnown) {
            return;
        }
        final Connection c = flow.connection;
        Judge.observe(c, flow, Check.WINDOW);
        final int last = Psn.add(fr.psn, span - 1);
        final boolean given = cx.control != null && cx.attribute(flow, "send_window", true, -1) >= 0;
        final long window = given ? (long) cx.attribute(flow, "send_window", true, cx.sendWindow) : cx.sendWindow;
        final boolean read = fr.kind == OpKind.RDMA_READ_REQUEST;
        // MR-REQ-012 as the live engine judges it (the oracle's), at the window stated, then at the largest
        final Finding found = RequesterWindow.check(stream.una, fr.psn, last, read, window, fr.number, UNA);
        if (found == null) {
            return;
        }
        final long distance = Psn.distance(stream.una, last);
        final String source = given ? "the QP's attribute in the evidence's control records"
            : cx.parameters.source();
        final long lenient = given ? window : cx.sendWindowMax;
        final boolean definite = RequesterWindow.check(stream.una, fr.psn, last, read, lenient, fr.number,
            UNA) != null;
        final Basis basis = !cx.judge.complete() ? Basis.CAPTURE_GAP : definite ? Basis.DEFINITE : Basis.PARAMETER;
        final int u = stream.una;
        cx.judge.report(c, flow, Check.WINDOW, basis, fr,
            () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + (span > 1 ? " (span up to " + Text.psn(last)
                + ")" : "") + " is sent " + distance + " PSNs past una " + Text.psn(u) + ", at or beyond send_window "
                + window + " (" + source + ")",
            () -> basis == Basis.PARAMETER ? "send_window may be set up to " + lenient
                : "an acknowledgement missing from the capture may have moved una further",
            new FieldDiff(found.field(), found.expected(), found.actual()));
    }

    // ------------------------------------------------------------------------------------------------------ gaps

    /** At the end: every PSN still remembered that was never seen sent. */
    void finishGaps(final Context cx) {
        final PsnRing ring = stream.ring;
        if (!stream.started || ring.empty) {
            return;
        }
        final int n = Psn.distance(ring.lo, ring.hi);
        for (int i = 0; i < n; i++) {
            gapCheck(Psn.add(ring.lo, i), cx);
        }
        flushGap(cx);
    }

    void gapCheck(final int psn, final Context cx) {
        final PsnRing ring = stream.ring;
        if (Psn.isBefore(psn, stream.firstPsn)) {
            return;
        }
        final int s = ring.slot(psn);
        final boolean missing = (ring.flags[s] & (PsnRing.SENT | PsnRing.READ_SPAN)) == 0;
        if (missing) {
            if (runLength > 0 && Psn.add(runFrom, runLength) == psn) {
                runLength++;
            } else {
                flushGap(cx);
                runFrom = psn;
                runLength = 1;
            }
        } else {
            flushGap(cx);
        }
    }

    void flushGap(final Context cx) {
        final PsnRing ring = stream.ring;
        if (runLength == 0) {
            return;
        }
        final int from = runFrom;
        final int n = runLength;
        runLength = 0;
        final Connection c = flow.connection;
        Judge.observe(c, flow, Check.PSN_ORDER);
        // the skip as the live engine judges it at once (the oracle's: MR-REQ-003, spec v1.1 change 19)
        final Finding gap = RequesterOrder.skipped(from, Psn.add(from, n), gapAfterFrame, NEVER_SEEN);
        final int before = Psn.add(from, -1);
        final String where = ring.has(before, PsnRing.SENT) ? " (after frame " + ring.firstFrame[ring.slot(before)]
            + ")" : gapAfterFrame > 0 ? " (before frame " + gapAfterFrame + ")" : "";
        cx.judge.report(c, flow, Check.PSN_ORDER, Basis.CAPTURE_GAP, null, List.of(),
            () -> (n == 1 ? "PSN " + Text.psn(from) + " was" : "PSNs " + Text.psn(from) + " to "
                + Text.psn(Psn.add(from, n - 1)) + " were") + " never seen sent" + where + ": a "
                + "requester sends every PSN for the first time in order, skipping none",
            () -> "the capture may have missed " + (n == 1 ? "it" : "them"),
            new FieldDiff(gap.field(), gap.expected(), gap.actual()));
    }
}

package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/**
 * The requests one QP sends, and what the peer's answers tell about them: the requester's side of sections 12, 13
 * and 16, and (through {@link Answers}) the responder's side of sections 5 and 8.
 *
 * <p>Requests are judged in PSN order, not capture order, wherever they can be: two PSN-adjacent packets are compared
 * when the later of the two arrives (opcode sequence, MSN, offset, RETH, RSN), so that sprayed traffic captured out of
 * order is judged as well as in-order traffic. What needs an unbroken run (RSN numbering, AckReq intervals, the length
 * of a TVer 0 WRITE) is judged only on runs of first transmissions seen in order without a hole.
 */
final class RequesterStream {
    /** A PSN this far from the stream's window starts a new incarnation of the QP (its largest window is 32768). */
    static final int INCARNATION_JUMP = 1 << 20;
    /** READs remembered at most (max_rd_atomic is at most 255). */
    static final int READS = 1024;

    final Flow flow;
    PsnRing ring = new PsnRing();
    final ArrayDeque<ReadOp> reads = new ArrayDeque<>();
    final Answers answers = new Answers(this);
    final LegacyRecovery legacy = new LegacyRecovery(this);

    boolean started;
    int firstPsn;
    /** One past the highest PSN sent for the first time (READ spans included). */
    int next;
    /** The first request seen looks like the connection's first (TVer 1: MSN 0, a first packet). */
    boolean startClean;
    /** The highest pleth.msn of a first transmission so far (TVer 1), or -1. */
    int highestMsn = -1;
    /** The lowest PSN not known delivered (section 13.1), once any answer was applied. */
    int una;
    boolean unaKnown;
    int unaBefore;
    long unaChangedNs = Long.MIN_VALUE;
    /** The last READ, while its span's end is not known yet. */
    ReadOp openSpan;
    /** RSN numbering, along a run of first transmissions seen in order. */
    boolean rsnChain;
    int nextRsn;
    /** First transmissions in order since the last AckReq, along an unbroken run. */
    long ackReqRun;
    /** Round trips measured from a request with AckReq to the first answer covering it. */
    int rttPsn = -1;
    long rttSentNs;
    long minRttNs = Long.MAX_VALUE;
    /** When the first PSN was sent, if the stream starts at the connection's start (the timer started then). */
    long firstTxNs = Long.MIN_VALUE;
    /** The frame that came after the last hole in the first transmissions. */
    private long gapAfterFrame;
    /** Every PSN before this one has been marked delivered by a cumulative acknowledgement. */
    private int cumulativeUpTo;
    private boolean cumulativeKnown;
    private int runFrom;
    private int runLength;

    RequesterStream(final Flow flow) {
        this.flow = flow;
    }

    Connection connection() {
        return flow.connection;
    }

    /** True when an answer naming {@code psn} may belong to this stream (pairing, see {@link HostPair}). */
    boolean answers(final int psn) {
        return started && Psn.distance(Psn.add(firstPsn, -HostPair.BEHIND), psn)
            <= Psn.distance(Psn.add(firstPsn, -HostPair.BEHIND), Psn.add(next, HostPair.AHEAD));
    }

    // ------------------------------------------------------------------------------------------------------ requests

    void onRequest(final Frame fr, final Context cx) {
        final int p = fr.psn;
        if (!started) {
            start(fr, cx);
        } else if (far(p)) {
            final int was = next;
            if (cx.resetShown(flow)) {
                connection().note("PSN " + Text.psn(p) + " (frame " + fr.number + ") is far from every PSN before it:"
                    + " a new incarnation of the QP, which the evidence's control records show was reset");
            } else {
                cx.judge.report(connection(), flow, Check.PSN_CONSECUTIVE, Basis.UNKNOWN_STATE, fr,
                    () -> "PSN " + Text.psn(p) + " is far from every PSN before it (next expected " + Text.psn(was)
                        + "): taken as a new incarnation of the QP, whose PSN state restarts here",
                    () -> "the QP may have been reset or re-created with a new sq_psn");
            }
            restartConnection();
            start(fr, cx);
        } else if (newIncarnation(fr)) {
            final int highest = highestMsn;
            if (cx.resetShown(flow)) {
                connection().note(fr.opcode.name() + " at PSN " + Text.psn(p) + " (frame " + fr.number + ") starts a "
                    + "message with pleth.msn 0 after messages up to MSN " + highest + ": a new incarnation of the QP, "
                    + "which the evidence's control records show was reset");
            } else {
                cx.judge.report(connection(), flow, Check.MSN, Basis.UNKNOWN_STATE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(p) + " starts a message with pleth.msn 0 after "
                        + "messages up to MSN " + highest + ": taken as a new incarnation of the QP",
                    () -> "the QP may have been reset and brought back to RTS");
            }
            restartConnection();
            start(fr, cx);
        }
        Judge.observe(connection(), flow, Check.ACKREQ_LAST);
        if (fr.endsMessage() && !fr.ackReq) {
            cx.judge.report(connection(), flow, Check.ACKREQ_LAST, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " at PSN " + Text.psn(p) + " ends its message but has bth.ackreq 0",
                null, new FieldDiff("bth.ackreq", "1 (last packet of the message)", "0"));
        }
        if (fr.kind == OpKind.RDMA_READ_REQUEST) {
            final ReadOp read = matchRead(fr);
            if (read != null && (p != read.psn || ring.has(p, PsnRing.SENT))) {
                rerequest(fr, cx, read);
                return;
            }
        }
        if (openSpan != null && Psn.diff(p, openSpan.psn) > 0) {
            closeSpan(fr, cx);
        }
        final int d = Psn.diff(p, next);
        if (d >= 0) {
            firstTransmission(fr, cx, d);
        } else if (ring.holds(p) && ring.has(p, PsnRing.SENT)) {
            retransmission(fr, cx);
        } else if (ring.holds(p)) {
            lateFirstTransmission(fr, cx);
        } else if (Psn.isBefore(p, firstPsn) && ring.extendDown(p)) {
            firstPsn = p;
            lateFirstTransmission(fr, cx);
        } else {
            flow.retransmissions++;
            if (Psn.isBefore(p, firstPsn)) {
                final int first = firstPsn;
                cx.judge.report(connection(), flow, Check.PSN_ORDER, Basis.CAPTURE_START, fr,
                    () -> "PSN " + Text.psn(p) + " is sent after PSN " + Text.psn(first) + " although it is lower",
                    () -> "PSN " + Text.psn(first)
                        + " is the first seen, and this may be a retransmission of an earlier packet");
            }
        }
    }

    private boolean far(final int p) {
        final int d = Psn.diff(p, next);
        return d > INCARNATION_JUMP || d < -INCARNATION_JUMP;
    }

    /** A new PSN starting a message with MSN 0 after later messages: the QP was reset (or breaks MR-REQ-007). */
    private boolean newIncarnation(final Frame fr) {
        return fr.tver == 1 && fr.hasPleth() && highestMsn > 0 && fr.plethMsn() == 0 && fr.plethFirst()
            && fr.plethOffset() == 0 && !ring.has(fr.psn, PsnRing.SENT) && !Psn.isBefore(fr.psn, next);
    }

    /**
     * The responder's answers show a new incarnation (its cumulative point and MSN restart): the answers are judged
     * afresh, and nothing counts as delivered any more; the requests seen stay, since the requester may already have
     * sent the new incarnation's first packets.
     */
    void newAnswerIncarnation() {
        answers.restart();
        if (flow.peer != null) {
            flow.peer.congestion.lastCnpNs = Long.MIN_VALUE;
        }
        if (!ring.empty) {
            final int n = Psn.distance(ring.lo, ring.hi);
            for (int i = 0; i < n; i++) {
                ring.flags[ring.slot(Psn.add(ring.lo, i))] &= ~(PsnRing.DELIVERED | PsnRing.ANSWERED);
            }
        }
        unaKnown = false;
        cumulativeKnown = false;
        for (final ReadOp read : reads) {
            read.answered = 0;
        }
    }

    /** Forgets the PSN state of both directions of the connection: a new incarnation of its QPs starts. */
    void restartConnection() {
        for (final Flow f : connection().flows) {
            f.requests.restart();
        }
        if (!connection().flows.contains(flow)) {
            restart();
        }
    }

    private void start(final Frame fr, final Context cx) {
        started = true;
        firstPsn = fr.psn;
        next = fr.psn;
        ring = new PsnRing();
        ring.start(fr.psn);
        una = fr.psn;
        final boolean first = fr.startsMessage();
        if (fr.tver == 1 && fr.hasPleth()) {
            startClean = first && fr.plethMsn() == 0 && fr.plethFirst();
            Judge.observe(connection(), flow, Check.MSN);
            if (!startClean) {
                final int msn = fr.plethMsn();
                cx.judge.report(connection(), flow, Check.MSN, Basis.CAPTURE_START, fr,
                    () -> "the first request seen, " + fr.opcode.name() + " at PSN " + Text.psn(fr.psn)
                        + ", has pleth.msn " + msn + " (the first message of a QP has MSN 0)",
                    () -> "PSN " + Text.psn(fr.psn) + " is the first seen",
                    new FieldDiff("pleth.msn", "0 (first message)", Text.number(msn)));
            }
        } else {
            startClean = first;
        }
        if (!first) {
            Judge.observe(connection(), flow, Check.OPCODE_SEQUENCE);
            cx.judge.report(connection(), flow, Check.OPCODE_SEQUENCE, Basis.CAPTURE_START, fr,
                () -> "the first request seen is " + fr.opcode.name() + " at PSN " + Text.psn(fr.psn)
                    + ", which continues a message whose start is not in the capture",
                () -> "PSN " + Text.psn(fr.psn) + " is the first seen");
        }
        rsnChain = startClean && fr.tver == 1;
        nextRsn = 0;
        firstTxNs = startClean ? fr.tsNs : Long.MIN_VALUE;
    }

    private void restart() {
        started = false;
        unaKnown = false;
        unaChangedNs = Long.MIN_VALUE;
        openSpan = null;
        reads.clear();
        rsnChain = false;
        ackReqRun = 0;
        rttPsn = -1;
        highestMsn = -1;
        cumulativeKnown = false;
        runLength = 0;
        answers.restart();
        legacy.restart();
    }

    /** A PSN at or after {@code next}: its first transmission ({@code d} PSNs skipped before it). */
    private void firstTransmission(final Frame fr, final Context cx, final int d) {
        final int p = fr.psn;
        final Connection c = connection();
        Judge.observe(c, flow, Check.PSN_ORDER);
        Judge.observe(c, flow, Check.PSN_CONSECUTIVE);
        legacy.onFirstTransmission(fr, cx);
        int span = 1;
        ReadOp read = null;
        if (fr.kind == OpKind.RDMA_READ_REQUEST) {
            read = newRead(fr, cx);
            span = read.minSpan;
        }
        final int newHi = Psn.add(p, span);
        extendRing(newHi, cx);
        if (d > 0) {
            rsnChain = false;
            ackReqRun = 0;
            gapAfterFrame = fr.number;
        }
        next = newHi;
        record(fr);
        if (read != null) {
            markSpan(read.psn, read.minSpan);
            if (!read.spanKnown()) {
                openSpan = read;
            }
        }
        checkNeighbours(fr, cx);
        checkPacket(fr, cx);
        if (d == 0) {
            checkChains(fr, cx);
        }
        checkWindow(fr, cx, span);
        if (fr.ackReq && rttPsn < 0) {
            rttPsn = p;
            rttSentNs = fr.tsNs;
        }
        if (fr.hasPleth() && fr.tver == 1) {
            highestMsn = Math.max(highestMsn, fr.plethMsn());
        }
    }

    /** A PSN below {@code next} never seen before: sent out of order, or its first transmission was not captured. */
    private void lateFirstTransmission(final Frame fr, final Context cx) {
        final int p = fr.psn;
        final int highest = Psn.add(next, -1);
        Judge.observe(connection(), flow, Check.PSN_ORDER);
        cx.judge.report(connection(), flow, Check.PSN_ORDER,
            flow.spray.sprayed() ? Basis.NETWORK_ORDER : Basis.CAPTURE_GAP, fr,
            () -> "PSN " + Text.psn(p) + " is first seen after PSN " + Text.psn(highest)
                + ": first transmissions must go in increasing PSN order",
            () -> "its first transmission may be missing from the capture, and this a retransmission");
        rsnChain = false;
        ackReqRun = 0;
        record(fr);
        if (fr.kind == OpKind.RDMA_READ_REQUEST) {
            final ReadOp read = newRead(fr, cx);
            markSpan(read.psn, Math.min(read.minSpan, Psn.distance(p, next)));
        }
        checkNeighbours(fr, cx);
        checkPacket(fr, cx);
    }

    private void retransmission(final Frame fr, final Context cx) {
        final int p = fr.psn;
        final int s = ring.slot(p);
        final boolean copy = ring.signature[s] == fr.signature
            && fr.tsNs - ring.lastTxNs[s] <= Context.COPY_WINDOW_NS;
        final long earlier = ring.firstFrame[s];
        if (copy) {
            flow.copies++;
        } else {
            flow.retransmissions++;
        }
        final Connection c = connection();
        if (resentDelivered(fr, cx, s, copy)) {
            return;
        }
        if (!copy) {
            checkRepeats(fr, cx, s, "the retransmission of PSN " + Text.psn(p));
        }
        legacy.onRetransmission(fr, cx, copy);
        if ((ring.flags[s] & PsnRing.VALID) == 0 && fr.receivable) {
            // the first copy seen was one a receiver drops: this one is what the responder acts on
            final int kept = ring.flags[s] & (PsnRing.DELIVERED | PsnRing.ANSWERED);
            final int count = ring.transmissions[s];
            record(fr);
            ring.flags[s] |= kept;
            ring.transmissions[s] = (byte) Math.min(127, count + 1);
            return;
        }
        sent(fr, s);
    }

    /**
     * MR-RTX-001 for a retransmission at slot {@code s}; returns true when the connection was restarted instead (a
     * TVer 1 QP resending its first message's PSN after later messages: a reset QP).
     */
    private boolean resentDelivered(final Frame fr, final Context cx, final int s, final boolean copy) {
        final int p = fr.psn;
        final Connection c = connection();
        Judge.observe(c, flow, Check.NO_RESEND_DELIVERED);
        if ((ring.flags[s] & PsnRing.DELIVERED) == 0 || ring.deliveredNs[s] + cx.reaction(flow) >= fr.tsNs) {
            return false;
        }
        final long by = ring.deliveredFrame[s];
        final long at = ring.deliveredNs[s];
        if (fr.tver == 1 && fr.hasPleth() && fr.plethMsn() == 0 && fr.plethFirst() && highestMsn > 0) {
            if (cx.resetShown(flow)) {
                c.note("PSN " + Text.psn(p) + " (MSN 0, frame " + fr.number + ") is sent again after frame " + by
                    + " showed it delivered and later messages followed: a new incarnation of the QP, which the "
                    + "evidence's control records show was reset");
            } else {
                cx.judge.report(c, flow, Check.NO_RESEND_DELIVERED, Basis.UNKNOWN_STATE, fr,
                    () -> "PSN " + Text.psn(p) + " (MSN 0) is sent again although frame " + by + " showed it delivered "
                        + "and later messages followed: taken as a new incarnation of the QP",
                    () -> "the QP may have been reset and brought back to RTS with the same sq_psn");
            }
            restartConnection();
            start(fr, cx);
            firstTransmission(fr, cx, 0);
            return true;
        }
        if (acknowledgementProbe(fr)) {
            return false;
        }
        final long earlier = ring.firstFrame[s];
        cx.judge.report(c, flow, Check.NO_RESEND_DELIVERED, copy ? Basis.CAPTURE_COPY : Basis.DEFINITE, fr,
            () -> "PSN " + Text.psn(p) + " is sent again although frame " + by + " (" + Text.ago(fr.tsNs - at)
                + " before) showed it delivered",
            () -> "this frame repeats frame " + earlier + " byte for byte",
            new FieldDiff("bth.psn", "an undelivered PSN", Text.psn(p) + " (delivered by frame " + by + ")"));
        return false;
    }

    /**
     * The acknowledgement probe of section 13.4, the one retransmission of a delivered PSN MR-RTX-001 allows: with no
     * PSN in flight (every PSN sent is delivered) and an acknowledgement awaited (a SEND or RDMA WRITE PSN at or after
     * the cumulative point), the highest such PSN sent again with bth.ackreq 1. When its timer could have expired is
     * MR-RTX-020's business, not judged here.
     */
    private boolean acknowledgementProbe(final Frame fr) {
        final int p = fr.psn;
        if (!fr.ackReq || !unaKnown || una != next || fr.kind == OpKind.RDMA_READ_REQUEST || fr.kind.isAtomic()) {
            return false;
        }
        final int point = cumulativeKnown ? cumulativeUpTo : firstPsn;
        if (Psn.isBefore(p, point)) {
            return false;
        }
        for (int q = Psn.add(p, 1); Psn.isBefore(q, next); q = Psn.add(q, 1)) {
            if (ring.holds(q) && (ring.flags[ring.slot(q)] & (PsnRing.READ_SPAN | PsnRing.ATOMIC)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Notes one more transmission of the PSN at slot {@code s}. */
    private void sent(final Frame fr, final int s) {
        if ((ring.flags[s] & PsnRing.SENT) == 0) {
            ring.firstFrame[s] = fr.number;
            ring.opcode[s] = (byte) fr.opcode.code();
        }
        ring.transmissions[s] = (byte) Math.min(127, ring.transmissions[s] + 1);
        ring.lastTxNs[s] = fr.tsNs;
        ring.signature[s] = fr.signature;
        if (fr.receivable && ring.validNs[s] == 0) {
            ring.validNs[s] = fr.tsNs;
            ring.pkey[s] = (char) fr.pkey;
            remember(fr, s);
        }
        ring.flags[s] |= PsnRing.SENT | (fr.receivable ? PsnRing.VALID : 0);
    }

    /** Records the PSN's first transmission in the ring. */
    private void record(final Frame fr) {
        final int s = ring.slot(fr.psn);
        ring.flags[s] = (byte) (PsnRing.SENT | (fr.receivable ? PsnRing.VALID : 0)
            | (fr.endsMessage() && fr.kind != OpKind.RDMA_READ_REQUEST ? PsnRing.MESSAGE_END : 0)
            | (fr.kind == OpKind.RDMA_READ_REQUEST ? PsnRing.MESSAGE_END | PsnRing.READ_SPAN : 0)
            | (fr.kind.isAtomic() ? PsnRing.ATOMIC : 0));
        ring.transmissions[s] = 1;
        ring.lastTxNs[s] = fr.tsNs;
        ring.firstFrame[s] = fr.number;
        ring.signature[s] = fr.signature;
        ring.validNs[s] = fr.receivable ? fr.tsNs : 0;
        if (fr.receivable) {
            remember(fr, s);
        }
        ring.pkey[s] = (char) fr.pkey;
        ring.opcode[s] = (byte) fr.opcode.code();
        ring.payload[s] = (char) Math.min(0xFFFF, fr.payloadLength);
        if (fr.hasPleth()) {
            ring.msn[s] = fr.plethMsn();
            ring.offset[s] = (int) fr.plethOffset();
            ring.rsn[s] = fr.plethRsn();
        } else {
            ring.msn[s] = 0;
            ring.offset[s] = fr.decoded.has(HeaderKind.RETH) ? (int) fr.decoded.reth().dmaLength() : 0;
            ring.rsn[s] = 0;
        }
        ring.reth[s] = fr.decoded.has(HeaderKind.RETH) ? rethHash(fr) : 0;
    }

    /** Keeps what {@link #checkRepeats} compares a retransmission with. */
    private void remember(final Frame fr, final int s) {
        if (!fr.cut) {
            ring.identity[s] = fr.decoded.icrcOnWire();
            ring.variant[s] = Retransmissions.variant(fr);
        } else {
            ring.validNs[s] = 0;
        }
    }

    static int rethHash(final Frame fr) {
        final long va = fr.decoded.reth().va();
        return (int) (va ^ (va >>> 32)) * 31 + fr.decoded.reth().rkey() * 17 + (int) fr.decoded.reth().dmaLength();
    }

    /**
     * MR-RTX-006: a retransmission repeats the packet first sent on its PSN, but for the fields section 13.7 lets it
     * change ({@link Retransmissions}). Compared only when both carry a right ICRC and neither was cut by the capture.
     */
    private void checkRepeats(final Frame fr, final Context cx, final int s, final String what) {
        final Connection c = connection();
        if (fr.cut || !fr.icrcOk || !ring.flag(s, PsnRing.VALID) || ring.validNs[s] == 0) {
            return;
        }
        Judge.observe(c, flow, Check.RESEND_IDENTICAL);
        final boolean sameOpcode = (ring.opcode[s] & 0xFF) == fr.opcode.code();
        if (sameOpcode && cx.retransmissions.repeats(fr, ring.identity[s], ring.variant[s])) {
            return;
        }
        final long earlier = ring.firstFrame[s];
        final String was = Opcode.valueOf(ring.opcode[s] & 0xFF).name();
        cx.judge.report(c, flow, Check.RESEND_IDENTICAL, Basis.DEFINITE, fr,
            () -> what + " differs from its first transmission (frame " + earlier + ") in "
                + (sameOpcode ? "its headers or payload" : "its opcode") + ", beyond the fields a retransmission "
                + "may change (UDP source port, IPv4 ID, ECN, flow label, AckReq)",
            null, new FieldDiff("packet", "as frame " + earlier + " (" + was + ")", fr.opcode.name()
                + (sameOpcode ? " with other headers or payload" : "")));
    }

    /** Makes the ring reach {@code newHi}, judging the PSNs it forgets at the bottom. */
    private void extendRing(final int newHi, final Context cx) {
        if (Psn.distance(ring.lo, newHi) <= ring.capacity()) {
            ring.extendTo(newHi, ring.lo);
            return;
        }
        final int forget = ring.wouldForget(newHi, unaKnown ? una : ring.lo);
        for (int i = 0; i < forget; i++) {
            gapCheck(Psn.add(ring.lo, i), cx);
        }
        flushGap(cx);
        ring.extendTo(newHi, unaKnown ? una : ring.lo);
    }

    // ------------------------------------------------------------------------------------------------ READ spans

    private ReadOp newRead(final Frame fr, final Context cx) {
        final ReadOp read = new ReadOp(fr.psn, fr.readLength(), fr.hasPleth() ? fr.plethMsn() : 0,
            fr.decoded.reth().va(), fr.decoded.reth().rkey(), fr.number, flow.pmtu);
        reads.addLast(read);
        while (reads.size() > READS) {
            reads.removeFirst();
        }
        return read;
    }

    /**
     * The READ a READ REQUEST asks for again, if any: TVer 1, the same pleth.msn and RETH; TVer 0, the same R_Key
     * and the same end of the read, the address advanced by whole packets (a TVer 0 re-request asks for the rest of
     * the read; the same READ again at a later PSN is a new read). Its PSN must lie in the span.
     */
    private ReadOp matchRead(final Frame fr) {
        final long va = fr.decoded.reth().va();
        final int rkey = fr.decoded.reth().rkey();
        final long length = fr.readLength();
        for (final Iterator<ReadOp> it = reads.descendingIterator(); it.hasNext(); ) {
            final ReadOp read = it.next();
            final int k = Psn.diff(fr.psn, read.psn);
            if (k < 0 || k >= Math.max(read.maxSpan, read.answeredSpan)) {
                continue;
            }
            final boolean same = fr.tver == 1 && fr.hasPleth()
                ? fr.plethMsn() == read.msn && va == read.va && rkey == read.rkey && length == read.length
                : rkey == read.rkey && va + length == read.va + read.length
                    && (k == 0 ? va == read.va : va > read.va && (va - read.va) % k == 0);
            if (same) {
                return read;
            }
        }
        return null;
    }

    /** Marks {@code [from, from + n)} as part of a READ span (the READ's own PSN included). */
    private void markSpan(final int from, final int n) {
        if (!ring.holds(from)) {
            return;
        }
        final int s0 = ring.slot(from);
        final int count = Math.min(n, ring.capacity());
        for (int i = 1; i < count; i++) {
            final int psn = Psn.add(from, i);
            if (!ring.holds(psn)) {
                continue;
            }
            final int s = ring.slot(psn);
            if ((ring.flags[s] & PsnRing.SENT) == 0) {
                ring.flags[s] |= PsnRing.READ_SPAN;
                ring.opcode[s] = ring.opcode[s0];
                ring.msn[s] = ring.msn[s0];
                ring.rsn[s] = 0;
                ring.payload[s] = 0;
            }
        }
    }

    /** The next new request after a READ whose span was uncertain tells where the span ends. */
    private void closeSpan(final Frame fr, final Context cx) {
        final ReadOp read = openSpan;
        openSpan = null;
        final int k = Psn.diff(fr.psn, read.psn);
        final Connection c = connection();
        if (k < read.minSpan) {
            final int n = read.minSpan;
            Judge.observe(c, flow, Check.PSN_CONSECUTIVE);
            cx.judge.report(c, flow, Check.PSN_CONSECUTIVE, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " lies inside the span of the READ of "
                    + read.length + " bytes at PSN " + Text.psn(read.psn) + " (frame " + read.frame + "), which takes "
                    + n + " PSNs or more with any PMTU its requester may use",
                null, new FieldDiff("bth.psn", "at least " + Text.psn(Psn.add(read.psn, n)), Text.psn(fr.psn)));
            return;
        }
        final int end = Math.min(k, read.maxSpan);
        read.minSpan = Math.max(read.minSpan, Math.min(end, read.maxSpan));
        final int newNext = Psn.add(read.psn, end);
        if (Psn.isAfter(newNext, next)) {
            extendRing(newNext, cx);
            next = newNext;
        }
        markSpan(read.psn, end);
    }

    /**
     * A response on PSN {@code r} of {@code read}'s span, beyond the PSNs the requester's span was known to cover: the
     * span reaches at least that far (both ends segment a read by the connection's PMTU), so the PSNs up to {@code r}
     * are the read's, and the response can deliver {@code r}. Nothing is done beyond the largest span the requester
     * may use.
     */
    void coverRead(final ReadOp read, final int r, final Context cx) {
        final int k = Psn.diff(r, read.psn);
        if (!started || k < 0 || k >= read.maxSpan || Psn.isBefore(r, next)) {
            return;
        }
        if (read == openSpan && k + 1 > read.minSpan) {
            read.minSpan = k + 1;
        }
        final int newNext = Psn.add(r, 1);
        extendRing(newNext, cx);
        next = newNext;
        markSpan(read.psn, k + 1);
    }

    /** The requester's PMTU candidates narrowed: so do the spans of the reads it sent. */
    void narrowReads() {
        for (final ReadOp read : reads) {
            read.narrow(flow.pmtu);
        }
    }

    /** A READ REQUEST asking again for a READ already seen, from PSN {@code fr.psn} of its span. */
    private void rerequest(final Frame fr, final Context cx, final ReadOp read) {
        final int x = fr.psn;
        final int k = Psn.diff(x, read.psn);
        final Connection c = connection();
        read.repeated = true;
        if (read.rerequestedFrom < 0 || Psn.isBefore(x, read.rerequestedFrom)) {
            read.rerequestedFrom = x;
        }
        if (read == openSpan && k + 1 > read.minSpan) {
            read.minSpan = Math.min(read.maxSpan, k + 1);
        }
        if (!Psn.isBefore(x, next)) {
            final int newNext = Psn.add(x, 1);
            extendRing(newNext, cx);
            next = newNext;
            markSpan(read.psn, k + 1);
        }
        boolean copy = false;
        if (ring.holds(x)) {
            final int s = ring.slot(x);
            copy = (ring.flags[s] & PsnRing.SENT) != 0 && ring.signature[s] == fr.signature
                && fr.tsNs - ring.lastTxNs[s] <= Context.COPY_WINDOW_NS;
            if (resentDelivered(fr, cx, s, copy)) {
                return;
            }
            if ((ring.flags[s] & PsnRing.SENT) != 0 && !copy) {
                checkRepeats(fr, cx, s, "the READ REQUEST at PSN " + Text.psn(x));
            }
            sent(fr, s);
        }
        if (copy) {
            flow.copies++;
        } else {
            flow.retransmissions++;
        }
        if (connection().tver == 0 && read.responseGap && x == read.expectedResponse()) {
            // MR-LEG-010: after a read response beyond the expected one, a TVer 0 requester asks for the rest of the
            // read at the expected PSN; the responses before it were taken in order
            for (int i = 0; i < read.inOrder; i++) {
                deliverOne(Psn.add(read.psn, i), fr, true);
            }
            advanceUna(fr.tsNs);
        } else {
            legacy.onRetransmission(fr, cx, copy);
        }
        if (fr.tver != 1 || !fr.hasPleth() || copy) {
            return;
        }
        Judge.observe(c, flow, Check.REREQUEST);
        final int pmtu = flow.pmtu.value();
        final long offset = fr.plethOffset();
        if (pmtu > 0 && offset != (long) k * pmtu || pmtu < 0 && (k == 0 ? offset != 0 : offset == 0
            || offset % k != 0)) {
            cx.judge.report(c, flow, Check.REREQUEST, Basis.DEFINITE, fr,
                () -> "the READ re-request at PSN " + Text.psn(x) + " (the read at PSN " + Text.psn(read.psn)
                    + ", frame " + read.frame + ") has pleth.offset " + offset + ", not " + k + " x PMTU", null,
                new FieldDiff("pleth.offset", pmtu > 0 ? Long.toString((long) k * pmtu) : k + " x PMTU",
                    Long.toString(offset)));
        }
    }

    // -------------------------------------------------------------------------------------------------- checks

    /** Compares the packet with the packets on the PSNs just before and after it, when those were seen. */
    private void checkNeighbours(final Frame fr, final Context cx) {
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
        final Connection c = connection();
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

    static boolean ends(final Opcode opcode) {
        return opcode.position().isLast() || opcode.kind() == OpKind.RDMA_READ_REQUEST || opcode.kind().isAtomic();
    }

    static boolean starts(final Opcode opcode) {
        return opcode.position().isFirst() || opcode.kind() == OpKind.RDMA_READ_REQUEST || opcode.kind().isAtomic();
    }

    /** What one first transmission must hold on its own: segment sizes, offsets, RSN, the READ's first offset. */
    private void checkPacket(final Frame fr, final Context cx) {
        final Connection c = connection();
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
                narrowReads();
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
                narrowReads();
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
        final Connection c = connection();
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
                narrowReads();
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
        final Connection c = connection();
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
    private void checkChains(final Frame fr, final Context cx) {
        final Connection c = connection();
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
        if (fr.ackReq) {
            ackReqRun = 0;
            return;
        }
        ackReqRun++;
        if (ackReqRun == interval || ackReqRun == lenient && lenient != interval) {
            final long run = ackReqRun;
            cx.judge.report(c, flow, Check.ACKREQ_INTERVAL, run >= lenient ? Basis.DEFINITE : Basis.PARAMETER, fr,
                () -> run + " first transmissions in a row, up to PSN " + Text.psn(fr.psn)
                    + ", carry no AckReq (ack_req_interval " + interval + " from " + cx.parameters.source() + ")",
                () -> "ack_req_interval may be set up to " + lenient,
                new FieldDiff("bth.ackreq", "1 at least once in " + interval + " first transmissions",
                    "0 in " + run));
        }
    }

    /** MR-REQ-012: nothing sent for the first time at or beyond una + send_window. */
    private void checkWindow(final Frame fr, final Context cx, final int span) {
        if (!unaKnown) {
            return;
        }
        final Connection c = connection();
        Judge.observe(c, flow, Check.WINDOW);
        final int last = Psn.add(fr.psn, span - 1);
        final long distance = Psn.distance(una, last);
        final boolean given = cx.control != null && cx.attribute(flow, "send_window", true, -1) >= 0;
        final long window = given ? (long) cx.attribute(flow, "send_window", true, cx.sendWindow) : cx.sendWindow;
        if (distance < window || fr.kind == OpKind.RDMA_READ_REQUEST && fr.psn == una
            || distance >= Psn.HALF) {
            return;
        }
        final long lenient = given ? window : cx.sendWindowMax;
        final String source = given ? "the QP's attribute in the evidence's control records"
            : cx.parameters.source();
        final Basis basis = !cx.judge.complete() ? Basis.CAPTURE_GAP
            : distance >= lenient ? Basis.DEFINITE : Basis.PARAMETER;
        final int u = una;
        cx.judge.report(c, flow, Check.WINDOW, basis, fr,
            () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + (span > 1 ? " (span up to " + Text.psn(last)
                + ")" : "") + " is sent " + distance + " PSNs past una " + Text.psn(u) + ", at or beyond send_window "
                + window + " (" + source + ")",
            () -> basis == Basis.PARAMETER ? "send_window may be set up to " + lenient
                : "an acknowledgement missing from the capture may have moved una further",
            new FieldDiff("bth.psn - una", "below " + window, Long.toString(distance)));
    }

    // ------------------------------------------------------------------------------------------------------ gaps

    /** At the end: every PSN still remembered that was never seen sent. */
    void finishGaps(final Context cx) {
        if (!started || ring.empty) {
            return;
        }
        final int n = Psn.distance(ring.lo, ring.hi);
        for (int i = 0; i < n; i++) {
            gapCheck(Psn.add(ring.lo, i), cx);
        }
        flushGap(cx);
    }

    private void gapCheck(final int psn, final Context cx) {
        if (Psn.isBefore(psn, firstPsn)) {
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

    private void flushGap(final Context cx) {
        if (runLength == 0) {
            return;
        }
        final int from = runFrom;
        final int n = runLength;
        runLength = 0;
        final Connection c = connection();
        Judge.observe(c, flow, Check.PSN_CONSECUTIVE);
        final int before = Psn.add(from, -1);
        final String where = ring.has(before, PsnRing.SENT) ? " (after frame " + ring.firstFrame[ring.slot(before)]
            + ")" : gapAfterFrame > 0 ? " (before frame " + gapAfterFrame + ")" : "";
        cx.judge.report(c, flow, Check.PSN_CONSECUTIVE, Basis.CAPTURE_GAP, null, List.of(),
            () -> (n == 1 ? "PSN " + Text.psn(from) + " was" : "PSNs " + Text.psn(from) + " to "
                + Text.psn(Psn.add(from, n - 1)) + " were") + " never seen sent" + where + ": a "
                + "requester sends every PSN, each message right after the span of the one before",
            () -> "the capture may have missed " + (n == 1 ? "it" : "them"),
            new FieldDiff("bth.psn", "consecutive", "skipped " + n));
    }

    // -------------------------------------------------------------------------------------------------- answers

    /** An answer of the peer (ACKNOWLEDGE, READ RESPONSE, ATOMIC ACKNOWLEDGE) to this stream's requests. */
    void onAnswer(final Frame fr, final Context cx) {
        answers.onAnswer(fr, cx);
    }

    /** Marks PSNs delivered from an accepted acknowledgement and moves una. */
    void deliver(final int point, final long bitmap, final boolean hasBitmap, final Frame fr) {
        if (!started) {
            return;
        }
        int from = cumulativeKnown && Psn.isAfter(cumulativeUpTo, ring.lo) ? cumulativeUpTo : ring.lo;
        if (unaKnown && Psn.isAfter(una, from) && !cumulativeKnown) {
            from = una;
        }
        final int upTo = Psn.isAfter(point, ring.hi) ? ring.hi : point;
        for (int psn = from; Psn.isBefore(psn, upTo); psn = Psn.add(psn, 1)) {
            deliverOne(psn, fr, false);
        }
        if (!cumulativeKnown || Psn.isAfter(upTo, cumulativeUpTo)) {
            cumulativeUpTo = upTo;
            cumulativeKnown = true;
        }
        if (hasBitmap && bitmap != 0) {
            long bits = bitmap & Long.MAX_VALUE;
            while (bits != 0) {
                final int i = Long.numberOfLeadingZeros(bits);
                bits &= ~(Long.MIN_VALUE >>> i);
                final int psn = Psn.add(point, i);
                if (ring.holds(psn)) {
                    deliverOne(psn, fr, false);
                }
            }
        }
        advanceUna(fr.tsNs);
    }

    /** Marks one PSN delivered; READ and atomic PSNs only by their own answer ({@code answer}). */
    void deliverOne(final int psn, final Frame fr, final boolean answer) {
        if (!ring.holds(psn)) {
            return;
        }
        final int s = ring.slot(psn);
        final int flags = ring.flags[s];
        if (!answer && (flags & (PsnRing.READ_SPAN | PsnRing.ATOMIC)) != 0) {
            return;
        }
        if ((flags & PsnRing.DELIVERED) == 0) {
            ring.flags[s] |= PsnRing.DELIVERED;
            ring.deliveredNs[s] = fr.tsNs;
            ring.deliveredFrame[s] = fr.number;
        }
    }

    void advanceUna(final long tsNs) {
        int u = unaKnown ? una : firstPsn;
        if (Psn.isBefore(u, ring.lo)) {
            u = ring.lo;
        }
        while (Psn.isBefore(u, next) && ring.holds(u) && (ring.flags[ring.slot(u)] & PsnRing.DELIVERED) != 0) {
            u = Psn.add(u, 1);
        }
        if (!unaKnown || u != una) {
            if (unaKnown) {
                unaBefore = una;
                unaChangedNs = tsNs;
            } else {
                unaBefore = u;
            }
            una = u;
            unaKnown = true;
        }
    }
}

package org.metaroce.mrct.analyzer.internal;

import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.RequesterAnswers;
import org.metaroce.mrct.oracle.RequesterOrder;
import org.metaroce.mrct.oracle.ReadRerequest;
import org.metaroce.mrct.oracle.RequesterProbe;
import org.metaroce.mrct.oracle.RequesterRepeat;
import org.metaroce.mrct.oracle.RequesterResend;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
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

    final Flow flow;
    PsnRing ring = new PsnRing();
    /** The READs sent and their spans. */
    final ReadSpans reads;
    /** What the first transmissions must hold, and the PSNs never seen sent. */
    final RequestChecks checks;
    final Answers answers = new Answers(this);
    final LegacyRecovery legacy = new LegacyRecovery(this);
    final RnrWaits rnr = new RnrWaits(this);
    /** The stream's PSN space as the oracle's requester classes see it, for TVer 1 and 0. */
    final StreamSpace tver1 = new StreamSpace(this, false);
    final StreamSpace legacyView = new StreamSpace(this, true);

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
    /** Round trips measured from a request with AckReq to the first answer covering it. */
    int rttPsn = -1;
    long rttSentNs;
    long minRttNs = Long.MAX_VALUE;
    /** When the first PSN was sent, if the stream starts at the connection's start (the timer started then). */
    long firstTxNs = Long.MIN_VALUE;
    /** Every PSN before this one has been marked delivered by a cumulative acknowledgement. */
    private int cumulativeUpTo;
    private boolean cumulativeKnown;

    RequesterStream(final Flow flow) {
        this.flow = flow;
        this.reads = new ReadSpans(this);
        this.checks = new RequestChecks(this);
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
        rnr.onRequest(fr, cx);
        Judge.observe(connection(), flow, Check.ACKREQ_LAST);
        if (fr.endsMessage() && !fr.ackReq) {
            cx.judge.report(connection(), flow, Check.ACKREQ_LAST, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " at PSN " + Text.psn(p) + " ends its message but has bth.ackreq 0",
                null, new FieldDiff("bth.ackreq", "1 (last packet of the message)", "0"));
        }
        if (fr.kind == OpKind.RDMA_READ_REQUEST) {
            final ReadOp read = reads.matching(fr);
            if (read != null && (p != read.psn || ring.has(p, PsnRing.SENT))) {
                rerequest(fr, cx, read);
                return;
            }
        }
        reads.closeBefore(fr, cx);
        final RequesterOrder.Place place = RequesterOrder.place(next, p);
        if (place != RequesterOrder.Place.BEHIND) {
            firstTransmission(fr, cx, place == RequesterOrder.Place.AHEAD);
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

    /**
     * A new PSN starting a message with MSN 0 after later messages: the QP was reset (or breaks MR-REQ-007). Not when
     * the PSN may lie in the span of a READ sent: a responder records that span whole, even beyond its window (spec
     * v1.1, Table 4-1 applied in order), and takes a packet there for a duplicate, not for a new incarnation's first.
     */
    private boolean newIncarnation(final Frame fr) {
        return fr.tver == 1 && fr.hasPleth() && highestMsn > 0 && fr.plethMsn() == 0 && fr.plethFirst()
            && fr.plethOffset() == 0 && !ring.has(fr.psn, PsnRing.SENT) && !Psn.isBefore(fr.psn, next)
            && !reads.requesterSpanHolds(fr.psn);
    }

    /**
     * Table 11-4 for a READ RESPONSE: false when the requester drops it silently, its PSN lying in the span of no READ
     * it sent (as it segments the read with its own PMTU), so that a CE mark on it is no congestion indication (spec
     * v1.1, section 14.2). A duplicate response, or a TVer 0 response after a gap, lies in a span: it is taken.
     */
    boolean takesReadResponse(final Frame fr) {
        return !started || RequesterAnswers.readResponse(fr.decoded, tver1).taken();
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
        reads.forgetResponses();
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
        checks.start(startClean && fr.tver == 1);
        firstTxNs = startClean ? fr.tsNs : Long.MIN_VALUE;
    }

    private void restart() {
        started = false;
        unaKnown = false;
        unaChangedNs = Long.MIN_VALUE;
        reads.restart();
        checks.restart();
        rttPsn = -1;
        highestMsn = -1;
        cumulativeKnown = false;
        answers.restart();
        legacy.restart();
        rnr.restart();
    }

    /** A PSN at or after {@code next}: its first transmission ({@code skipped}: PSNs were skipped before it). */
    private void firstTransmission(final Frame fr, final Context cx, final boolean skipped) {
        final int p = fr.psn;
        final Connection c = connection();
        Judge.observe(c, flow, Check.PSN_ORDER);
        Judge.observe(c, flow, Check.PSN_CONSECUTIVE);
        legacy.onFirstTransmission(fr, cx);
        rnr.onFirstTransmission(fr, cx);
        int span = 1;
        ReadOp read = null;
        if (fr.kind == OpKind.RDMA_READ_REQUEST) {
            read = reads.add(fr);
            span = read.minSpan;
        }
        final int newHi = Psn.add(p, span);
        extendRing(newHi, cx);
        if (skipped) {
            checks.holeBefore(fr.number);
        }
        next = newHi;
        record(fr);
        if (read != null) {
            reads.markSpan(read.psn, read.minSpan);
            reads.openUntilKnown(read);
        }
        checks.checkNeighbours(fr, cx);
        checks.checkPacket(fr, cx);
        if (!skipped) {
            checks.checkChains(fr, cx);
        }
        checks.checkWindow(fr, cx, span);
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
        checks.breakRuns();
        record(fr);
        if (fr.kind == OpKind.RDMA_READ_REQUEST) {
            final ReadOp read = reads.add(fr);
            reads.markSpan(read.psn, Math.min(read.minSpan, Psn.distance(p, next)));
        }
        checks.checkNeighbours(fr, cx);
        checks.checkPacket(fr, cx);
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
        if (!copy) {
            rnr.onResend(fr, cx);
        }
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
        if ((ring.flags[s] & PsnRing.DELIVERED) == 0) {
            return false;
        }
        final long by = ring.deliveredFrame[s];
        // MR-RTX-001 as the live engine judges it (the oracle's), then what only a capture needs: a new incarnation
        final Finding again = RequesterResend.check(Text.psn(p), ring.deliveredNs[s], fr.tsNs, cx.reaction(flow),
            fr.number, org.metaroce.mrct.oracle.Basis.inferred("frame " + by + ", the answer that delivered it"));
        if (again == null) {
            return false;
        }
        final long at = ring.deliveredNs[s];
        // mrct evidence whose control records follow the device's QP through the case and show no reset: the device
        // took this request as a duplicate whatever it looks like (the harness resends a request on purpose, ACK-003's
        // duplicate atomic 8 ms later over UDP), never as the first of a new incarnation
        final boolean neverReset = cx.qp(flow) != null && !cx.resetShown(flow);
        if (fr.tver == 1 && fr.hasPleth() && fr.plethMsn() == 0 && fr.plethFirst() && highestMsn > 0
            && !duplicateRead(fr, s) && !neverReset) {
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
            firstTransmission(fr, cx, false);
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
            new FieldDiff(again.field(), again.expected(), Text.psn(p) + " (delivered by frame " + by + ")"));
        return false;
    }

    /**
     * A READ REQUEST on the PSN of a request of another kind: a duplicate READ REQUEST (section 8.4, MR-RD-009 in spec
     * v1.1: the responder answers it with its current ACK), not the first message of a new incarnation.
     */
    private boolean duplicateRead(final Frame fr, final int s) {
        return fr.kind == OpKind.RDMA_READ_REQUEST
            && Opcode.valueOf(ring.opcode[s] & 0xFF).kind() != OpKind.RDMA_READ_REQUEST;
    }

    /**
     * The acknowledgement probe of section 13.4 (the oracle's {@link RequesterProbe}, as the live engine asks it), the
     * one retransmission of a delivered PSN MR-RTX-001 allows. The cumulative point is the highest the capture's
     * answers showed (the first PSN seen before any); a PSN the capture never showed sent counts as a SEND or WRITE
     * one, so a probe below it is not recognised. When its timer could have expired is MR-RTX-020's business, which a
     * capture cannot judge.
     */
    private boolean acknowledgementProbe(final Frame fr) {
        return unaKnown && fr.kind != OpKind.RDMA_READ_REQUEST && !fr.kind.isAtomic()
            && RequesterProbe.is(tver1, cumulativeKnown ? cumulativeUpTo : firstPsn, fr.psn, fr.ackReq);
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
            ring.identity[s] = fr.icrcOnWire;
            ring.variant[s] = RequesterRepeat.variant(fr.ipv4Id, fr.sourcePort, fr.ackReq);
        } else {
            ring.validNs[s] = 0;
        }
    }

    static int rethHash(final Frame fr) {
        final org.metaroce.mrct.wire.header.RethFlyweight reth = fr.decoded.reth();
        final long va = reth.va();
        return (int) (va ^ (va >>> 32)) * 31 + reth.rkey() * 17 + (int) reth.dmaLength();
    }

    /**
     * MR-RTX-006 (MR-RTX-017 for a TVer 1 READ REQUEST, MR-RTX-018 for an atomic): a retransmission repeats the
     * packet first sent on its PSN but for the fields section 13.7 lets it change, judged by the oracle's
     * {@link RequesterRepeat}.
     * Compared only when both carry a right ICRC and neither was cut by the capture.
     */
    private void checkRepeats(final Frame fr, final Context cx, final int s, final String what) {
        final Connection c = connection();
        if (fr.cut || !fr.icrcOk || !ring.flag(s, PsnRing.VALID) || ring.validNs[s] == 0) {
            return;
        }
        final Opcode was = Opcode.valueOf(ring.opcode[s] & 0xFF);
        final String rule = RequesterRepeat.rule(was, fr.tver);
        final Check check = rule.equals(RequesterRepeat.READ_RULE) ? Check.RESEND_READ
            : rule.equals(RequesterRepeat.ATOMIC_RULE) ? Check.RESEND_ATOMIC : Check.RESEND_IDENTICAL;
        Judge.observe(c, flow, check);
        final long earlier = ring.firstFrame[s];
        final Finding changed = cx.repeat.check(fr.decoded, was, ring.identity[s], ring.variant[s], "frame " + earlier,
            fr.number, org.metaroce.mrct.oracle.Basis.FRAME);
        if (changed == null) {
            return;
        }
        final boolean sameOpcode = fr.opcode == was;
        cx.judge.report(c, flow, check, Basis.DEFINITE, fr,
            () -> what + " differs from its first transmission (frame " + earlier + ") in "
                + (sameOpcode ? "its headers or payload" : "its opcode") + ", beyond the fields a retransmission "
                + "may change (UDP source port, IPv4 ID, ECN, flow label, AckReq)",
            null, new FieldDiff(changed.field(), "as frame " + earlier + " (" + was.name() + ")", changed.actual()));
    }

    /** Makes the ring reach {@code newHi}, judging the PSNs it forgets at the bottom. */
    private void extendRing(final int newHi, final Context cx) {
        if (Psn.distance(ring.lo, newHi) <= ring.capacity()) {
            ring.extendTo(newHi, ring.lo);
            return;
        }
        final int forget = ring.wouldForget(newHi, unaKnown ? una : ring.lo);
        for (int i = 0; i < forget; i++) {
            checks.gapCheck(Psn.add(ring.lo, i), cx);
        }
        checks.flushGap(cx);
        ring.extendTo(newHi, unaKnown ? una : ring.lo);
    }

    /** The PSNs before {@code newNext} count as sent (a READ's span reaches there): the ring grows to hold them. */
    void advanceNext(final int newNext, final Context cx) {
        extendRing(newNext, cx);
        next = newNext;
    }

    /** A READ REQUEST asking again for a READ already seen, from PSN {@code fr.psn} of its span. */
    private void rerequest(final Frame fr, final Context cx, final ReadOp read) {
        final int x = fr.psn;
        final int k = Psn.diff(x, read.psn);
        final Connection c = connection();
        read.repeated = true;
        if (!fr.hasPleth()) {
            read.askedRest(x, fr.readLength());
        }
        if (read.rerequestedFrom < 0 || Psn.isBefore(x, read.rerequestedFrom)) {
            read.rerequestedFrom = x;
        }
        reads.reachedBy(read, k);
        if (!Psn.isBefore(x, next)) {
            advanceNext(Psn.add(x, 1), cx);
            reads.markSpan(read.psn, k + 1);
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
        // MR-RTX-016 as the live engine judges it (the oracle's); the resend of the original (k 0) is MR-RTX-017's
        final List<Finding> wrong = k == 0 ? List.of() : ReadRerequest.check(fr.decoded,
            new ReadRerequest.Read(read.msn, read.va, read.rkey, read.length), k, Math.max(0, pmtu), fr.number,
            org.metaroce.mrct.oracle.Basis.FRAME);
        if (!wrong.isEmpty()) {
            final Finding first = wrong.get(0);
            cx.judge.report(c, flow, Check.REREQUEST, Basis.DEFINITE, fr,
                () -> "the READ re-request at PSN " + Text.psn(x) + " (the read at PSN " + Text.psn(read.psn)
                    + ", frame " + read.frame + ") has " + first.field() + " " + first.actual() + ", not "
                    + first.expected(), null,
                wrong.stream().map(f -> new FieldDiff(f.field(), f.expected(), f.actual())).toArray(FieldDiff[]::new));
        }
    }

    /** At the end: every PSN still remembered that was never seen sent. */
    void finishGaps(final Context cx) {
        checks.finishGaps(cx);
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
            rnr.progress();
        }
    }
}
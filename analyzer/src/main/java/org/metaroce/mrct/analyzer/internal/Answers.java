package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.LegacyAnswers;
import org.metaroce.mrct.oracle.RequesterAnswers;
import org.metaroce.mrct.oracle.SentPsns;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/**
 * The peer's answers to one requester stream, judged against the requests seen (the responder's side of sections
 * 5, 8 and 16): the cumulative point never moves back, aeth.msn counts the messages completed, acknowledgements cover
 * only PSNs that were sent, READ RESPONSEs follow their request, one NAK 0x60 per hole. The answers the requester
 * would accept (Table 11-4) then tell the stream which PSNs are delivered.
 *
 * <p>aeth.msn is compared only where the specification fixes it exactly: between two ACKs (it grows by the messages
 * that ended between their cumulative points), and on the first responses of a READ or atomic (the count when it
 * executed). Read responses are built when the read executes but may leave after a later ACK, so the MSNs of answers
 * of different kinds are not compared with each other.
 */
final class Answers {
    private final RequesterStream stream;

    private boolean cumulativeKnown;
    private int cumulative;
    private long cumulativeFrame;
    /** The last ACK's MSN and cumulative point: the anchor of the MSN counts. */
    private boolean msnKnown;
    private int msn;
    private int msnPoint;
    private long msnFrame;
    /** The highest MSN of any ACKNOWLEDGE frame (NAKs included): none may go below it. */
    private boolean highKnown;
    private int ackMsnHigh;
    private long ackMsnHighFrame;
    /** The last MSN of a first-execution READ RESPONSE or ATOMIC ACKNOWLEDGE. */
    private boolean executedMsnKnown;
    private int executedMsn;
    private long executedMsnFrame;
    /** Every PSN before this one has been checked as covered by some acknowledgement. */
    private boolean coveredKnown;
    private int coveredUpTo;
    private boolean responseKnown;
    private int lastResponse;
    private long lastResponseFrame;
    /** MR-LEG-002 and MR-LEG-003 (the oracle's). */
    private final LegacyAnswers legacy = new LegacyAnswers();
    /** A fatal NAK (0x61-0x63) was sent: the responder's QP is in ERROR from then on. */
    boolean fatal;
    /** When the responder first answered this stream: its QP was in RTR or RTS from then on. */
    private long firstAnswerNs = Long.MIN_VALUE;

    Answers(final RequesterStream stream) {
        this.stream = stream;
    }

    void restart() {
        cumulativeKnown = false;
        firstAnswerNs = Long.MIN_VALUE;
        msnKnown = false;
        highKnown = false;
        executedMsnKnown = false;
        coveredKnown = false;
        responseKnown = false;
        legacy.restart();
        fatal = false;
    }

    private Connection connection() {
        return stream.connection();
    }

    void onAnswer(final Frame fr, final Context cx) {
        final Flow responder = fr.flow;
        if (firstAnswerNs == Long.MIN_VALUE) {
            firstAnswerNs = fr.tsNs;
        }
        final long copyOf = responder.copyOf(fr.signature, fr.tsNs, fr.number,
            cx.judge.complete() ? -1 : Context.COPY_WINDOW_NS);
        if (fr.kind == OpKind.RDMA_READ_RESPONSE) {
            if (copyOf == 0) {
                onReadResponse(fr, cx);
            }
            return;
        }
        if (fr.kind == OpKind.ATOMIC_ACKNOWLEDGE) {
            onAtomicAcknowledge(fr, cx, copyOf);
            return;
        }
        onAcknowledge(fr, cx, copyOf);
    }

    // --------------------------------------------------------------------------------------------- ACKNOWLEDGE

    private void onAcknowledge(final Frame fr, final Context cx, final long copyOf) {
        final Connection c = connection();
        final Flow responder = fr.flow;
        final int syndrome = fr.syndrome();
        final AethSyndrome.Type type = AethSyndrome.valueOf(syndrome).type();
        final boolean metaroce = fr.tver == 1 && fr.decoded.has(HeaderKind.SACKETH);
        final int point;
        final boolean hasPoint;
        long bitmap = 0;
        if (metaroce) {
            point = fr.decoded.sacketh().basePsn();
            bitmap = fr.decoded.sacketh().bitmap();
            hasPoint = true;
        } else if (type == AethSyndrome.Type.ACK) {
            point = Psn.add(fr.psn, 1);
            hasPoint = true;
        } else if (syndrome == 0x60) {
            point = fr.psn;
            hasPoint = true;
        } else {
            point = 0;
            hasPoint = false;
        }
        final int value = fr.aethMsn();
        if (hasPoint && cumulativeKnown && Psn.isBefore(point, cumulative) && highKnown
            && Psn.isBefore(value, ackMsnHigh)) {
            final int was = cumulative;
            final int wasMsn = ackMsnHigh;
            if (cx.resetShown(responder)) {
                c.note("the cumulative acknowledgement moves back from " + Text.psn(was) + " to " + Text.psn(point)
                    + " (frame " + fr.number + "): a new incarnation of the QP, which the evidence's control records "
                    + "show was reset");
            } else {
                cx.judge.report(c, responder, Check.CUMULATIVE, Basis.UNKNOWN_STATE, fr,
                    () -> "the cumulative acknowledgement moves back from " + Text.psn(was) + " to " + Text.psn(point)
                        + " and aeth.msn from " + wasMsn + " to " + value + ": taken as a new incarnation of the QP",
                    () -> "the QP may have been reset and brought back to RTS");
            }
            stream.newAnswerIncarnation();
        }
        if (syndrome >= 0x61 && syndrome <= 0x63) {
            fatal = true;
        }
        final Basis order = responder.responsePortsVary ? Basis.NETWORK_ORDER
            : copyOf != 0 ? Basis.CAPTURE_COPY : Basis.DEFINITE;
        if (hasPoint) {
            Judge.observe(c, responder, Check.CUMULATIVE);
            if (cumulativeKnown && Psn.isBefore(point, cumulative)) {
                final int was = cumulative;
                final long wasFrame = cumulativeFrame;
                cx.judge.report(c, responder, Check.CUMULATIVE, order, fr,
                    () -> "the cumulative acknowledgement moves back from " + Text.psn(was) + " (frame " + wasFrame
                        + ") to " + Text.psn(point), () -> copyOf != 0 ? "this frame repeats frame " + copyOf : null,
                    new FieldDiff(metaroce ? "sacketh.base" : "bth.psn + 1", "at least " + Text.psn(was),
                        Text.psn(point)));
            } else {
                cumulative = point;
                cumulativeFrame = fr.number;
                cumulativeKnown = true;
            }
            checkCoverage(fr, cx, point, bitmap, metaroce);
        }
        checkAckMsn(fr, cx, value, type == AethSyndrome.Type.ACK || type == AethSyndrome.Type.RNR_NAK
            || syndrome == 0x60, hasPoint, point, order);
        if (!metaroce && syndrome == 0x60) {
            checkNak60(fr, cx, copyOf);
        }
        if (accepted(fr, metaroce)) {
            if (hasPoint) {
                stream.deliver(point, bitmap, metaroce, fr);
                measureRtt(fr, point);
            }
            if (!metaroce && syndrome == 0x60) {
                stream.legacy.onNak60(fr, cx);
            } else if (type == AethSyndrome.Type.RNR_NAK) {
                stream.legacy.onRnrNak(fr);
                stream.rnr.onNak(fr, cx);
            }
        }
        if (type == AethSyndrome.Type.RNR_NAK && stream.ring.holds(fr.psn)) {
            stream.ring.set(stream.ring.slot(fr.psn), PsnRing.RNR);
        }
    }

    /**
     * Table 11-4 (the oracle's {@link RequesterAnswers}, as the live engine applies it): would the requester act on
     * this acknowledgement? Frames it drops teach it nothing, nor does a frame a receiver drops before the table.
     */
    private boolean accepted(final Frame fr, final boolean metaroce) {
        return fr.receivable && stream.started
            && RequesterAnswers.acknowledge(fr.decoded, metaroce ? stream.tver1 : stream.legacyView).taken();
    }

    private void measureRtt(final Frame fr, final int point) {
        if (stream.rttPsn >= 0 && Psn.isAfter(point, stream.rttPsn)) {
            stream.minRttNs = Math.min(stream.minRttNs, Math.max(0, fr.tsNs - stream.rttSentNs));
            stream.rttPsn = -1;
        }
    }

    /**
     * MR-ACK-003 on ACKNOWLEDGE frames: aeth.msn never goes below an earlier one, and from one ACK (or RNR NAK, or
     * TVer 0 NAK 0x60) to the next it grows by the number of messages that ended between their cumulative points,
     * when every PSN between them was seen. A NAK built when a message fails at completion may already count it, so
     * NAKs are held to the first rule only.
     */
    private void checkAckMsn(final Frame fr, final Context cx, final int value, final boolean counts,
                             final boolean hasPoint, final int point, final Basis order) {
        final Connection c = connection();
        final Flow responder = fr.flow;
        Judge.observe(c, responder, Check.AETH_MSN);
        if (highKnown && Psn.isBefore(value, ackMsnHigh)) {
            final int was = ackMsnHigh;
            final long wasFrame = ackMsnHighFrame;
            cx.judge.report(c, responder, Check.AETH_MSN, order, fr,
                () -> "aeth.msn goes back from " + was + " (frame " + wasFrame + ") to " + value, null,
                new FieldDiff("aeth.msn", "at least " + Text.number(was), Text.number(value)));
            return;
        }
        if (!highKnown || Psn.isAfter(value, ackMsnHigh)) {
            ackMsnHigh = value;
            ackMsnHighFrame = fr.number;
            highKnown = true;
        }
        if (!counts || !hasPoint) {
            return;
        }
        if (!msnKnown) {
            checkFirstMsn(fr, cx, value, point);
        }
        if (msnKnown && !Psn.isBefore(point, msnPoint)) {
            final int ended = endedBetween(msnPoint, point);
            if (ended >= 0 && Psn.add(msn, ended) != value) {
                final int expected = Psn.add(msn, ended);
                final int was = msn;
                final long wasFrame = msnFrame;
                final int from = msnPoint;
                cx.judge.report(c, responder, Check.AETH_MSN, order, fr,
                    () -> "aeth.msn is " + value + ", but frame " + wasFrame + " said " + was + " and " + ended
                        + " message(s) ended between its cumulative point " + Text.psn(from) + " and this one, "
                        + Text.psn(point), null,
                    new FieldDiff("aeth.msn", Text.number(expected), Text.number(value)));
            }
        }
        if (!msnKnown || !Psn.isBefore(point, msnPoint)) {
            msn = value;
            msnPoint = point;
            msnFrame = fr.number;
            msnKnown = true;
        }
    }

    /**
     * The first answer's aeth.msn cannot exceed the number of messages that ended, since the first request seen,
     * before its cumulative point: a responder counts from 0 when it enters RTR, and completes only what it received
     * (which a capture holding the connection from its start shows).
     */
    private void checkFirstMsn(final Frame fr, final Context cx, final int value, final int point) {
        if (!stream.started || Psn.isBefore(point, stream.firstPsn)) {
            return;
        }
        final int ended = endedBetween(stream.firstPsn, point);
        if (ended >= 0 && value > ended && value - ended < Psn.HALF) {
            final int first = stream.firstPsn;
            cx.judge.report(connection(), fr.flow, Check.AETH_MSN, Basis.CAPTURE_START, fr,
                () -> "the first answer has aeth.msn " + value + ", but only " + ended + " message(s) ended from the "
                    + "first request seen (PSN " + Text.psn(first) + ") to its cumulative point " + Text.psn(point),
                () -> "PSN " + Text.psn(first) + " is the first seen",
                new FieldDiff("aeth.msn", "at most " + ended, Text.number(value)));
        }
    }

    /**
     * MR-ACK-003 on the first responses of a READ (or an atomic) at {@code request}: aeth.msn is the number of
     * messages completed when it executed, the read included; and such MSNs never go back from one read to the next.
     */
    private void checkExecutedMsn(final Frame fr, final Context cx, final int request) {
        final Connection c = connection();
        final Flow responder = fr.flow;
        final int value = fr.aethMsn();
        Judge.observe(c, responder, Check.AETH_MSN);
        final Basis basis = responder.responsePortsVary ? Basis.NETWORK_ORDER : Basis.CAPTURE_GAP;
        if (executedMsnKnown && Psn.isBefore(value, executedMsn)) {
            final int was = executedMsn;
            final long wasFrame = executedMsnFrame;
            cx.judge.report(c, responder, Check.AETH_MSN, basis, fr,
                () -> "aeth.msn of this response is " + value + ", below the " + was + " of an earlier read's or "
                    + "atomic's response (frame " + wasFrame + ")",
                () -> "a repeated request may be missing from the capture, making the earlier one a re-execution",
                new FieldDiff("aeth.msn", "at least " + Text.number(was), Text.number(value)));
        } else if (!msnKnown && !executedMsnKnown) {
            checkFirstMsn(fr, cx, value, Psn.add(request, 1));
        } else if (msnKnown && !Psn.isAfter(msnPoint, Psn.add(request, 1))) {
            final int ended = endedBetween(msnPoint, Psn.add(request, 1));
            if (ended >= 0 && Psn.add(msn, ended) != value) {
                final int expected = Psn.add(msn, ended);
                final int was = msn;
                final long wasFrame = msnFrame;
                cx.judge.report(c, responder, Check.AETH_MSN, basis, fr,
                    () -> "aeth.msn of the response to the request at PSN " + Text.psn(request) + " is " + value
                        + ", but frame " + wasFrame + " said " + was + " and " + ended + " message(s) ended from there "
                        + "to this request, itself included", () -> "a repeated request may be missing from the "
                        + "capture, making this response a re-execution",
                    new FieldDiff("aeth.msn", Text.number(expected), Text.number(value)));
            }
        }
        if (!executedMsnKnown || Psn.isAfter(value, executedMsn)) {
            executedMsn = value;
            executedMsnFrame = fr.number;
            executedMsnKnown = true;
        }
    }

    /** The number of messages ending in {@code [from, to)}, or -1 when a PSN there was not seen. */
    private int endedBetween(final int from, final int to) {
        final PsnRing ring = stream.ring;
        final int n = Psn.distance(from, to);
        if (n > ring.capacity() || n >= Psn.HALF) {
            return -1;
        }
        int ended = 0;
        for (int i = 0; i < n; i++) {
            final int psn = Psn.add(from, i);
            if (!ring.holds(psn)) {
                return -1;
            }
            final int flags = ring.flags[ring.slot(psn)];
            if ((flags & (PsnRing.SENT | PsnRing.READ_SPAN)) == 0) {
                return -1;
            }
            if ((flags & PsnRing.MESSAGE_END) != 0) {
                ended++;
            }
        }
        return ended;
    }

    /**
     * MR-ACK-002 (TVer 1) and MR-LEG-002 (TVer 0): an acknowledgement covers, cumulatively or in its bitmap, only PSNs
     * that were sent; MR-WIRE-015: never one seen only with a wrong ICRC (the oracle's {@link SentPsns} decides).
     */
    private void checkCoverage(final Frame fr, final Context cx, final int point, final long bitmap,
                               final boolean metaroce) {
        if (!stream.started) {
            return;
        }
        final Connection c = connection();
        final Flow responder = fr.flow;
        final Check check = metaroce ? Check.SACK : Check.LEGACY_IN_ORDER;
        if (!metaroce) {
            Judge.observe(c, responder, check);
        }
        final PsnRing ring = stream.ring;
        int from = coveredKnown ? coveredUpTo : stream.firstPsn;
        if (Psn.isBefore(from, stream.firstPsn)) {
            from = stream.firstPsn;
        }
        if (Psn.isBefore(from, ring.lo)) {
            from = ring.lo;
        }
        final SentPsns.View view = sentView(responder);
        final SentPsns tally = sentTally.clear().span(view, from, point);
        if (!coveredKnown || Psn.isAfter(point, coveredUpTo)) {
            coveredUpTo = point;
            coveredKnown = true;
        }
        if (metaroce && bitmap != 0) {
            long bits = bitmap & Long.MAX_VALUE;
            while (bits != 0) {
                final int i = Long.numberOfLeadingZeros(bits);
                bits &= ~(Long.MIN_VALUE >>> i);
                tally.one(view, Psn.add(point, i));
            }
        }
        final int unseen = tally.neverSent();
        final int firstUnseen = tally.firstNeverSent();
        final int badIcrc = tally.badIcrc();
        final int firstBad = tally.firstBadIcrc();
        final long badFrame = badIcrc > 0 ? ring.firstFrame[ring.slot(firstBad)] : 0;
        if (metaroce && cx.judge.complete()) {
            checkMissingBits(fr, cx, point, bitmap);
        }
        if (unseen > 0) {
            final int psn = firstUnseen;
            final int count = unseen;
            final boolean beyond = !Psn.isBefore(psn, stream.next);
            final org.metaroce.mrct.oracle.Finding inOrder = metaroce ? null
                : LegacyAnswers.coversUnsent(Text.psn(psn), fr.number, org.metaroce.mrct.oracle.Basis.FRAME);
            cx.judge.report(c, responder, check, Basis.CAPTURE_GAP, fr,
                () -> "the acknowledgement covers " + (count == 1 ? "PSN " + Text.psn(psn) : count + " PSNs from "
                    + Text.psn(psn)) + (beyond ? ", beyond every PSN sent so far" : ", never seen sent")
                    + (metaroce ? "" : ": a TVer 0 responder accepts only the packet at ePSN"),
                () -> "the capture may have missed the request" + (count == 1 ? "" : "s"), inOrder == null
                    ? new FieldDiff("sacketh", "only PSNs sent", "covers " + Text.psn(psn))
                    : new FieldDiff(inOrder.field(), inOrder.expected(), inOrder.actual()));
        }
        if (badIcrc > 0) {
            final int psn = firstBad;
            final long bad = badFrame;
            Judge.observe(c, responder, Check.BAD_ICRC_DROPPED);
            cx.judge.report(c, responder, Check.BAD_ICRC_DROPPED, Basis.CAPTURE_GAP, fr,
                () -> "the acknowledgement covers PSN " + Text.psn(psn) + ", seen only in frame " + bad
                    + " with a wrong ICRC, which a receiver must drop", () -> "a good copy may be missing from the "
                    + "capture", new FieldDiff("icrc of PSN " + psn, "valid, or the PSN not acknowledged", "bad"));
        }
    }

    /**
     * The other half of MR-ACK-002, judged only in a complete capture: a bit is set for every PSN recorded. A request
     * the responder surely received and had to record (sent once the responder's QP was answering, accepted by a
     * receiver's checks, with the connection's P_Key and TVer, within the smallest window a device may have, and not
     * named by an RNR NAK) before this acknowledgement, and not cumulatively acknowledged, must have its bit set.
     */
    private void checkMissingBits(final Frame fr, final Context cx, final int point, final long bitmap) {
        final PsnRing ring = stream.ring;
        final Flow responder = fr.flow;
        if (fatal || firstAnswerNs == Long.MIN_VALUE || responder.pkey < 0) {
            return;
        }
        final long window = cx.parameters.lenientMin("recv_window");
        final int bits = (int) Math.min(63, window - 1);
        final long reaction = cx.reaction(responder);
        for (int i = 1; i <= bits; i++) {
            if ((bitmap & (Long.MIN_VALUE >>> i)) != 0) {
                continue;
            }
            final int psn = Psn.add(point, i);
            if (!ring.holds(psn)) {
                continue;
            }
            final int s = ring.slot(psn);
            if (!ring.flag(s, PsnRing.VALID) || ring.flag(s, PsnRing.READ_SPAN) && !ring.flag(s, PsnRing.SENT)
                || ring.flag(s, PsnRing.RNR) || ring.validNs[s] <= firstAnswerNs
                || ring.validNs[s] + reaction >= fr.tsNs || (ring.pkey[s] & 0x7FFF) != (responder.pkey & 0x7FFF)) {
                continue;
            }
            final Opcode op = Opcode.valueOf(ring.opcode[s] & 0xFF);
            if (op.kind().isAtomic() && !cx.parameters.claims("atomics")
                || op.hasInvalidate() && !cx.parameters.claims("send-with-invalidate")) {
                continue;
            }
            final long sentIn = ring.firstFrame[s];
            final int bit = i;
            cx.judge.report(connection(), responder, Check.SACK, Basis.CAPTURE_GAP, fr,
                () -> "bit " + bit + " of sacketh.bitmap is clear, yet PSN " + Text.psn(psn) + " (frame " + sentIn
                    + ") reached the responder before this acknowledgement and lies within its window, where every "
                    + "new packet is recorded", () -> "the request may have been lost before the responder",
                new FieldDiff("sacketh.bitmap bit " + bit, "1 (PSN " + psn + " recorded)", "0"));
            return;
        }
    }

    /**
     * What the capture shows sent, as the oracle's {@link SentPsns} asks it: a PSN before the first seen, or a READ
     * response's that may be in a read's span, is unknown; one beyond every PSN seen (and no read's) is never sent, and
     * so is every later one.
     */
    private SentPsns.View sentView(final Flow responder) {
        sentView.responder = responder;
        return sentView;
    }

    /** The view {@link #sentView} returns, made once: every acknowledgement asks one (no object per frame). */
    private final SentView sentView = new SentView();
    /** The tally of the PSNs an acknowledgement covers, made once and cleared for each. */
    private final SentPsns sentTally = new SentPsns();

    private final class SentView implements SentPsns.View {
        /** The flow whose acknowledgement is being judged. */
        private Flow responder;

        @Override
        public SentPsns.Sent of(final int psn) {
            return covered(psn, responder);
        }

        @Override
        public boolean noneFrom(final int psn) {
            return !Psn.isBefore(psn, stream.ring.hi) && !stream.reads.mayHold(psn, responder.pmtu);
        }
    }

    private SentPsns.Sent covered(final int psn, final Flow responder) {
        final PsnRing ring = stream.ring;
        if (Psn.isBefore(psn, stream.firstPsn)) {
            return SentPsns.Sent.SENT_OR_UNKNOWN;
        }
        if (!ring.holds(psn)) {
            return Psn.isBefore(psn, ring.lo) || stream.reads.mayHold(psn, responder.pmtu)
                ? SentPsns.Sent.SENT_OR_UNKNOWN : SentPsns.Sent.NEVER_SENT;
        }
        final int flags = ring.flags[ring.slot(psn)];
        if ((flags & PsnRing.SENT) == 0) {
            return (flags & PsnRing.READ_SPAN) != 0 || stream.reads.mayHold(psn, responder.pmtu)
                ? SentPsns.Sent.SENT_OR_UNKNOWN : SentPsns.Sent.NEVER_SENT;
        }
        return (flags & PsnRing.VALID) == 0 && (flags & PsnRing.READ_SPAN) == 0 ? SentPsns.Sent.BAD_ICRC_ONLY
            : SentPsns.Sent.SENT_OR_UNKNOWN;
    }

    /** MR-LEG-003 (the oracle's {@link LegacyAnswers}): one NAK 0x60 per hole, until an in-order packet moves ePSN. */
    private void checkNak60(final Frame fr, final Context cx, final long copyOf) {
        final Connection c = connection();
        final Flow responder = fr.flow;
        Judge.observe(c, responder, Check.LEGACY_NAK);
        final LegacyAnswers.RepeatedNak again = legacy.onNak60(fr.psn, cumulative, fr.number,
            org.metaroce.mrct.oracle.Basis.FRAME);
        if (again != null) {
            final long was = again.firstFrame();
            final org.metaroce.mrct.oracle.Finding f = again.finding();
            cx.judge.report(c, responder, Check.LEGACY_NAK, copyOf != 0 ? Basis.CAPTURE_COPY : Basis.DEFINITE, fr,
                () -> "a second NAK 0x60 for PSN " + Text.psn(fr.psn) + " (the first in frame " + was
                    + ") although no in-order packet was accepted in between", () -> "this frame repeats frame "
                    + copyOf, new FieldDiff(f.field(), f.expected(), f.actual()));
        }
    }

    // ------------------------------------------------------------------------------------------- READ RESPONSE

    private void onReadResponse(final Frame fr, final Context cx) {
        final Connection c = connection();
        final Flow responder = fr.flow;
        final Pmtu pmtu = responder.pmtu;
        final int r = fr.psn;
        final ReadOp read = stream.reads.holding(r, pmtu);
        Judge.observe(c, responder, Check.READ_COUNT);
        if (read == null) {
            final PsnRing ring = stream.ring;
            if (ring.has(r, PsnRing.SENT) && !ring.has(r, PsnRing.READ_SPAN)) {
                final long request = ring.firstFrame[ring.slot(r)];
                cx.judge.report(c, responder, Check.READ_COUNT, Basis.DEFINITE, fr,
                    () -> "a READ RESPONSE on PSN " + Text.psn(r) + ", which carried another request (frame " + request
                        + "), not a READ", null, new FieldDiff("bth.psn", "a PSN of a READ's span", Text.psn(r)));
            } else if (stream.started) {
                final boolean before = Psn.isBefore(r, stream.firstPsn);
                final int first = stream.firstPsn;
                cx.judge.report(c, responder, Check.READ_COUNT, before ? Basis.CAPTURE_START : Basis.CAPTURE_GAP, fr,
                    () -> "a READ RESPONSE on PSN " + Text.psn(r) + " answers no READ REQUEST seen",
                    () -> before ? "PSN " + Text.psn(first) + " is the first seen"
                        : "the capture may have missed the READ REQUEST",
                    new FieldDiff("bth.psn", "a PSN of a READ's span", Text.psn(r)));
            }
            return;
        }
        final ReadOp op = read;
        final int k = Psn.diff(r, op.psn);
        final Position position = fr.position;
        final int payload = fr.payloadLength;
        if (!fr.cut) {
            int allowed = position == Position.FIRST || position == Position.MIDDLE
                ? Pmtu.equalTo(payload) : Pmtu.atLeast(payload);
            if (position.isLast()) {
                allowed &= Pmtu.spanning(op.length, k + 1);
            }
            Judge.observe(c, responder, Check.READ_LENGTH);
            final int before = pmtu.mask;
            if (!pmtu.narrow(allowed, fr.number)) {
                final String was = Connection.describe(before);
                cx.judge.report(c, responder, Check.READ_LENGTH, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " on PSN " + Text.psn(r) + " (packet " + (k + 1) + " of the read of "
                        + op.length + " bytes at frame " + op.frame + ") carries " + payload + " bytes, which no PMTU "
                        + "the responder may use (" + was + ") gives", null,
                    new FieldDiff("payload_len", expectedLength(op, k, pmtu), Integer.toString(payload)));
            }
        }
        Judge.observe(c, responder, Check.READ_OPCODE);
        // TVer 0: from a READ REQUEST for the rest of the read on, a read of its own; a response on a PSN not answered
        // before may still be the first execution's, come late
        final ReadOp.Response whole = op.whole(r, pmtu);
        final ReadOp.Response rest = op.rest(r, pmtu);
        final ReadOp.Response shape = rest != null ? rest : whole;
        if (!shape.fits(position) && !(rest != null && whole.fits(position) && !stream.ring.has(r, PsnRing.ANSWERED))) {
            cx.judge.report(c, responder, Check.READ_OPCODE, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " on PSN " + Text.psn(r) + " is packet " + (shape.k() + 1) + " of the "
                    + "response to the read of " + shape.length() + " bytes at PSN " + Text.psn(shape.start())
                    + " (frame " + op.frame + (rest != null ? ", asked for again from that PSN" : "") + "), "
                    + shape.packets(), null, new FieldDiff("bth.opcode", shape.expected(), fr.opcode.name()));
        } else if (position.isLast()) {
            op.answeredSpan = k + 1;
        }
        if (fr.tver == 1 && fr.hasPleth()) {
            Judge.observe(c, responder, Check.READ_PLETH);
            final int size = pmtu.value();
            final long offset = fr.plethOffset();
            final boolean offsetOk = size > 0 ? offset == (long) k * size
                : k == 0 ? offset == 0 : offset > 0 && offset % k == 0;
            // pleth.rsn 0 is judged on every read response by the oracle (MR-RD-004's per-frame part)
            if (fr.plethMsn() != op.msn || !offsetOk) {
                cx.judge.report(c, responder, Check.READ_PLETH, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " on PSN " + Text.psn(r) + " carries pleth.msn " + fr.plethMsn()
                        + " and offset " + offset + "; the read at PSN " + Text.psn(op.psn) + " (frame " + op.frame
                        + ") has MSN " + op.msn + ", and packet " + (k + 1) + " starts at " + k + " x PMTU", null,
                    new FieldDiff("pleth.msn/offset", op.msn + " / " + (size > 0 ? Long.toString((long) k * size)
                        : k + " x PMTU"), fr.plethMsn() + " / " + offset));
            }
        }
        Judge.observe(c, responder, Check.READ_ORDER);
        final boolean again = op.rerequestedFrom >= 0 && !Psn.isBefore(r, op.rerequestedFrom);
        if (responseKnown && !Psn.isAfter(r, lastResponse) && !again) {
            final int was = lastResponse;
            final long wasFrame = lastResponseFrame;
            cx.judge.report(c, responder, Check.READ_ORDER,
                responder.spray.sprayed() ? Basis.NETWORK_ORDER : Basis.CAPTURE_GAP, fr,
                () -> "READ RESPONSE on PSN " + Text.psn(r) + " comes after the one on PSN " + Text.psn(was)
                    + " (frame " + wasFrame + ") with no request for it again in between",
                () -> "a repeated READ REQUEST may be missing from the capture",
                new FieldDiff("bth.psn", "after " + Text.psn(was), Text.psn(r)));
        }
        lastResponse = r;
        lastResponseFrame = fr.number;
        responseKnown = true;
        if (c.tver == 0 && fr.receivable) {
            // a TVer 0 requester takes only the next expected response; a later one is a gap (MR-LEG-010)
            if (k == op.inOrder) {
                op.inOrder++;
                op.responseGap = false;
            } else if (k > op.inOrder) {
                op.responseGap = true;
            }
        }
        op.rerequestedFrom = -1;
        stream.reads.cover(op, r, cx);
        final PsnRing ring = stream.ring;
        boolean repeatedAnswer = op.repeated;
        if (ring.holds(r)) {
            final int s = ring.slot(r);
            if ((ring.flags[s] & PsnRing.ANSWERED) != 0) {
                repeatedAnswer = true;
                if (!again && !op.repeated) {
                    cx.judge.report(c, responder, Check.READ_COUNT, Basis.CAPTURE_GAP, fr,
                        () -> "a second READ RESPONSE on PSN " + Text.psn(r) + " without the read asked for again",
                        () -> "a repeated READ REQUEST may be missing from the capture",
                        new FieldDiff("bth.psn", "one response per PSN", Text.psn(r)));
                }
            } else {
                op.answered++;
            }
            ring.flags[s] |= PsnRing.ANSWERED;
        }
        if (fr.receivable) {
            stream.deliverOne(r, fr, true);
            stream.advanceUna(fr.tsNs);
        }
        if (fr.decoded.has(HeaderKind.AETH) && !repeatedAnswer) {
            checkExecutedMsn(fr, cx, op.psn);
        }
    }

    private static String expectedLength(final ReadOp op, final int k, final Pmtu pmtu) {
        final int size = pmtu.value();
        if (size < 0) {
            return "the PMTU, or the rest of the read in the last packet";
        }
        final long n = Connection.span(op.length, size);
        return Long.toString(k + 1 < n ? size : op.length - (n - 1) * size);
    }

    // -------------------------------------------------------------------------------------- ATOMIC ACKNOWLEDGE

    private void onAtomicAcknowledge(final Frame fr, final Context cx, final long copyOf) {
        final PsnRing ring = stream.ring;
        final int p = fr.psn;
        final boolean replay = ring.has(p, PsnRing.ANSWERED) || ring.holds(p)
            && ring.transmissions[ring.slot(p)] > 1;
        if (ring.has(p, PsnRing.ATOMIC)) {
            ring.flags[ring.slot(p)] |= PsnRing.ANSWERED;
            if (fr.receivable) {
                stream.deliverOne(p, fr, true);
                stream.advanceUna(fr.tsNs);
            }
            if (copyOf == 0 && fr.decoded.has(HeaderKind.AETH) && !replay) {
                checkExecutedMsn(fr, cx, p);
            }
        }
    }
}

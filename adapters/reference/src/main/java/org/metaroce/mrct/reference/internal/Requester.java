package org.metaroce.mrct.reference.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.RnrTimer;

/**
 * The requester of one QP (MetaRoCE v1 sections 12 and 13): segmentation with PLETH and RETH, PSN, MSN and RSN
 * assignment, the send window and the READ/atomic limit, fences, AckReq placement, delivery tracking from cumulative
 * points, SACK bits, read responses and atomic acknowledgements, loss inference by reordering threshold and time,
 * selective retransmission (re-requests for READs), the retransmission timer with rto_low/rto_high, retry and RNR
 * counting, error completion and flushing, and in-order send completions. Packets leave through the QP's pacer, which
 * asks {@link #next} for the next one; a TVer 0 QP recovers go-back-N instead (section 16).
 */
final class Requester {
    private final Device device;
    private final QueuePair qp;
    /** Created when the QP first sends (idle QPs stay small). */
    private RequestWriter writer;
    /** Posted WQEs not yet completed, in posting order. */
    // small initial capacities: a device may hold 65,536 idle QPs (issue: idle state under 1 KiB); they grow on use
    private final ArrayDeque<SendWork> queue = new ArrayDeque<>(1);
    /** Sent PSNs from una on. */
    private final Map<Integer, PsnState> flight = new HashMap<>();
    /** PSNs whose retransmission is due, in the order they are to be sent. */
    private final ArrayDeque<Integer> retransmit = new ArrayDeque<>(1);
    /** The last READs completed, to tell late duplicate responses from unexpected ones. */
    private final ArrayDeque<SendWork> completedReads = new ArrayDeque<>(1);
    private int nextPsn;
    private int una;
    private int cumulative;
    /** Rule MR-CMP-015: the first PSN of the latest request answered by a response (completion only). */
    private int respondedBefore;
    private int nextMsn;
    private int nextRsn;
    private long txSeq;
    private int sinceAckReq;
    private int retries;
    private static final int[] NO_COUNTS = new int[0];
    private static final PsnState[] NO_STATES = new PsnState[0];
    /** PSNs in the flight not delivered (the timer's D depends on it). */
    private int undelivered;
    private RequestWriter writer() {
        if (writer == null) {
            writer = new RequestWriter(device, qp);
        }
        return writer;
    }

    /** Scratch of {@link #inferLoss}: per window index, the delivered later PSNs, and the states. */
    private int[] laterCounts = NO_COUNTS;
    private PsnState[] states = NO_STATES;
    /** Section 13.4: the PSN of an acknowledgement probe to send, or -1. */
    private int probePsn = -1;
    private int rnrRetries;
    private boolean rnrWaiting;
    private int rnrResume;
    private Scheduler.Event timer;
    private Scheduler.Event reorderCheck;

    Requester(final Device device, final QueuePair qp) {
        this.device = device;
        this.qp = qp;

        this.nextPsn = qp.sqPsn;
        this.una = qp.sqPsn;
        this.cumulative = qp.sqPsn;
        this.respondedBefore = qp.sqPsn;
    }

    // ------------------------------------------------------------------ posting

    /** Posts a send WQE (numbering its message now, in posting order). */
    void post(final SendWqe wqe) {
        final boolean consumes = wqe.opcode() == WorkOpcode.SEND || wqe.opcode() == WorkOpcode.SEND_WITH_IMM
            || wqe.opcode() == WorkOpcode.SEND_WITH_INV || wqe.opcode() == WorkOpcode.RDMA_WRITE_WITH_IMM;
        if (wqe.opcode() == WorkOpcode.RECV || wqe.opcode() == WorkOpcode.RECV_RDMA_WITH_IMM) {
            throw new RejectedException(wqe.opcode() + " is not a send operation");
        }
        final SendWork work = new SendWork(wqe, nextMsn, consumes ? nextRsn : 0, qp.pmtu);
        nextMsn = Psn.add(nextMsn, 1);
        if (consumes) {
            nextRsn = Psn.add(nextRsn, 1);
        }
        queue.addLast(work);
    }

    /** True when the pacer may have something to send. */
    boolean hasWork() {
        if (qp.state != QpState.RTS || rnrWaiting) {
            return false;
        }
        return probePsn >= 0 || !retransmit.isEmpty() || nextNew() != null;
    }

    private SendWork nextNew() {
        int readsAndAtomics = 0;
        boolean unfinishedReadOrAtomicBefore = false;
        for (final SendWork work : queue) {
            if (!work.fullySent()) {
                if (work.wqe.fence() && unfinishedReadOrAtomicBefore) {
                    return null;
                }
                if ((work.isRead() || work.isAtomic()) && work.sent == 0
                    && readsAndAtomics >= qp.maxRdAtomic) {
                    return null;
                }
                return work;
            }
            if (work.isRead() || work.isAtomic()) {
                readsAndAtomics++;
                unfinishedReadOrAtomicBefore = true;
            }
        }
        return null;
    }

    /**
     * The next PSN to send for the first time: inside a message whose first packets are out, the next packet's PSN;
     * else the first PSN of the next message ({@code nextPsn} already points past the span of a message once its
     * first packet is sent).
     */
    private int sendPoint() {
        for (final SendWork work : queue) {
            if (!work.fullySent()) {
                return work.sent > 0 ? Psn.add(work.firstPsn, work.sent) : nextPsn;
            }
        }
        return nextPsn;
    }

    // ------------------------------------------------------------------ sending

    /** The next request packet the pacer should send now, or null. Retransmissions go first (section 13.3). */
    byte[] next(final long now) {
        if (qp.state != QpState.RTS || rnrWaiting) {
            return null;
        }
        if (probePsn >= 0) {
            final int psn = probePsn;
            probePsn = -1;
            for (final SendWork work : queue) {
                if (work.contains(psn) && !work.isRead() && !work.isAtomic()) {
                    device.count(Counter.RETRANSMITTED, qp);
                    final int index = Psn.distance(work.firstPsn, psn);
                    return writer().request(work, index, psn, (long) index * qp.pmtu, true);
                }
            }
        }
        while (!retransmit.isEmpty()) {
            final int psn = retransmit.pollFirst();
            final PsnState state = flight.get(psn);
            // delivered meanwhile (the go-back-N fault resends SACKed PSNs too, as its description says), or covered
            // by a READ re-request of an earlier PSN of its span
            if (state == null || state.delivered && !device.has(Fault.GO_BACK_N_RETRANSMIT) || !state.retransmitQueued) {
                continue;
            }
            return resend(psn, state, now);
        }
        final SendWork work = nextNew();
        if (work == null) {
            return null;
        }
        final int psn = work.sent == 0 ? nextPsn : Psn.add(work.firstPsn, work.sent);
        final int distance = Psn.distance(una, psn);
        final int last = work.isRead() ? distance + work.span - 1 : distance;
        final boolean nothingOutstanding = flight.isEmpty();
        if (!device.has(Fault.IGNORE_WINDOW) && last >= qp.sendWindow && !(work.isRead() && nothingOutstanding)) {
            return null;
        }
        if (work.sent == 0) {
            work.firstPsn = psn;
            nextPsn = Psn.add(psn, work.span);
        }
        final int index = work.sent++;
        final boolean lastPacket = index == work.packets - 1;
        boolean ackReq = lastPacket || ++sinceAckReq >= qp.ackReqInterval;
        if (device.has(Fault.NO_ACKREQ)) {
            ackReq = false;
        }
        if (ackReq) {
            sinceAckReq = 0;
        }
        final boolean startTimer = flight.isEmpty();
        if (work.isRead()) {
            for (int k = 0; k < work.span; k++) {
                flight.put(Psn.add(psn, k), new PsnState(work, k, ++txSeq));
                undelivered++;
            }
        } else {
            flight.put(psn, new PsnState(work, index, ++txSeq));
            undelivered++;
        }
        if (startTimer) {
            startTimer();
        }
        final byte[] frame = writer().request(work, index, psn, work.isRead() ? 0 : (long) index * qp.pmtu, ackReq);
        if (device.has(Fault.COMPLETE_BEFORE_ACK) && work.fullySent() && !work.isRead() && !work.isAtomic()) {
            work.completed = true;
            complete(work, CompletionStatus.SUCCESS);
        }
        return frame;
    }

    private byte[] resend(final int psn, final PsnState state, final long now) {
        state.retransmitQueued = false;
        state.eligibleSince = -1;
        final SendWork work = state.work;
        device.count(Counter.RETRANSMITTED, qp);
        if (work.isRead()) {
            final boolean arrived = readArrived(work);
            final int from = arrived ? state.index : 0;
            final int at = Psn.add(work.firstPsn, from);
            // one frame retransmits every PSN it asks for: they share one transmission (section 13.6), so a later
            // response of the same re-request is no fresh evidence about an earlier PSN of it (section 13.3)
            final long seq = ++txSeq;
            work.legacyFrom = from;
            for (int k = from; k < work.span; k++) {
                final PsnState later = flight.get(Psn.add(work.firstPsn, k));
                // the request counts as the retransmission of every later PSN of the span (section 13.6): loss
                // events already queued for them are answered by it, not by another READ REQUEST
                retransmit.remove(Integer.valueOf(Psn.add(work.firstPsn, k)));
                if (later != null && !later.delivered) {
                    later.txSeq = seq;
                    later.retransmitQueued = false;
                    later.eligibleSince = -1;
                }
            }
            return writer().request(work, 0, at, (long) from * qp.pmtu, true);
        }
        state.txSeq = ++txSeq;
        return writer().request(work, state.index, psn, work.isAtomic() ? 0 : (long) state.index * qp.pmtu, true);
    }

    /** Section 13.6: evidence that the READ REQUEST reached the responder. */
    private boolean readArrived(final SendWork work) {
        for (final boolean responded : work.responded) {
            if (responded) {
                return true;
            }
        }
        return work.requestArrived || Psn.isAfter(cumulative, work.firstPsn);
    }

    // ------------------------------------------------------------------ receiving

    /** An ACKNOWLEDGE (ACK, NAK, RNR NAK) for this QP, after the checks of Table 11-1. */
    void acknowledge(final DecodedFrame f) {
        final AethSyndrome syndrome = f.aeth().syndrome();
        final boolean legacy = qp.tver == 0;
        final int psn = f.bth().psn();
        final int base = legacy ? Psn.add(psn, 1) : f.sacketh().basePsn();
        final AethSyndrome.Type type = syndrome.type();
        final boolean reserved = type == AethSyndrome.Type.RESERVED
            || type == AethSyndrome.Type.NAK && (syndrome.code() > 3 || syndrome.code() == 0 && !legacy);
        if (reserved || Psn.isAfter(base, sendPoint())
            || !legacy && type == AethSyndrome.Type.ACK && Psn.add(psn, 1) != base
            || (type == AethSyndrome.Type.NAK || type == AethSyndrome.Type.RNR_NAK) && !outstanding(psn)) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        if (legacy && type == AethSyndrome.Type.NAK && syndrome.code() == 0) {
            goBackN(psn);
            return;
        }
        deliverCumulative(base);
        if (!legacy) {
            final long bitmap = f.sacketh().bitmap();
            for (int i = 1; i < 64; i++) {
                if ((bitmap & (Long.MIN_VALUE >>> i)) != 0) {
                    final PsnState state = flight.get(Psn.add(base, i));
                    if (state != null && !state.work.isRead() && !state.work.isAtomic()) {
                        markDelivered(state);
                    } else if (state != null && state.work.isRead()) {
                        state.work.requestArrived = true; // a SACK bit in the span: the READ REQUEST arrived
                    }
                }
            }
        }
        if (type == AethSyndrome.Type.NAK) {
            remoteError(psn, base, syndrome.code());
            return;
        }
        if (type == AethSyndrome.Type.RNR_NAK) {
            rnr(psn, syndrome.code());
        }
        afterDelivery();
    }

    private boolean outstanding(final int psn) {
        final PsnState state = flight.get(psn);
        return state != null && !state.delivered;
    }

    private void deliverCumulative(final int base) {
        if (Psn.isAfter(base, cumulative)) {
            cumulative = base;
        }
        // the PSNs of READs and atomics are delivered by their responses only (section 13.1)
        for (int p = una; Psn.isBefore(p, cumulative); p = Psn.add(p, 1)) {
            final PsnState state = flight.get(p);
            if (state != null && !state.work.isRead() && !state.work.isAtomic()) {
                markDelivered(state);
            }
        }
    }

    /**
     * Rule MR-CMP-015: a response for a request at {@code psn} acknowledges every earlier PSN for the completion of
     * WQEs only; PSNs not delivered stay in flight (section 13.1), so the timer keeps asking for the ACK later WQEs
     * need.
     */
    private void acknowledgeForCompletion(final int psn) {
        if (Psn.isAfter(psn, respondedBefore)) {
            respondedBefore = psn;
        }
    }

    private void markDelivered(final PsnState state) {
        if (!state.delivered) {
            state.delivered = true;
            undelivered--;
            final long now = device.scheduler.now();
            // the in-flight PSNs before this one (from una: below it everything left the flight delivered)
            final int psn = psnOf(state);
            for (int p = una; Psn.isBefore(p, psn); p = Psn.add(p, 1)) {
                final PsnState other = flight.get(p);
                if (other != null && !other.delivered && other.eligibleSince < 0 && other.txSeq < state.txSeq) {
                    other.eligibleSince = now;
                }
            }
        }
    }

    private boolean isBefore(final PsnState a, final PsnState b) {
        return Psn.isBefore(psnOf(a), psnOf(b));
    }

    private static int psnOf(final PsnState state) {
        return Psn.add(state.work.firstPsn, state.index);
    }

    /** A READ RESPONSE for this QP (Table 11-4 and section 6.1). */
    void readResponse(final DecodedFrame f) {
        final int psn = f.bth().psn();
        final PsnState state = flight.get(psn);
        if (state == null) {
            final SendWork done = completedReadContaining(psn);
            device.count(done != null ? Counter.DUPLICATE_RECEIVED : Counter.DROP_UNEXPECTED_RESPONSE, qp);
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
        if (f.opcode() != expected || f.payloadLength() != expectedLength || !plethOk) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        if (state.delivered) {
            device.count(Counter.DUPLICATE_RECEIVED, qp);
            return;
        }
        if (qp.tver == 0 && k > 0 && !work.responded[k - 1]) {
            legacyReadGap(work, k);
            return;
        }
        if (f.isCongestionExperienced()) {
            device.congestionIndication(qp);
        }
        final MemoryRegionState mr = device.memory.byLkey(work.wqe.lkey());
        if (mr != null && expectedLength > 0) {
            f.buffer().get(f.payloadOffset(), mr.data, (int) (work.wqe.localVa() + offset - mr.va),
                expectedLength);
        }
        work.responded[k] = true;
        markDelivered(state);
        acknowledgeForCompletion(work.firstPsn);
        afterDelivery();
    }

    /**
     * A READ whose span holds {@code psn} and whose response for it was already placed (the response is then a
     * duplicate, MR-ROB-010), or null: a READ completed lately, or one still outstanding whose delivered PSN left the
     * flight with una.
     */
    private SendWork completedReadContaining(final int psn) {
        for (final SendWork work : completedReads) {
            if (work.contains(psn)) {
                return work;
            }
        }
        for (final SendWork work : queue) {
            if (work.isRead() && work.contains(psn) && work.responded[Psn.distance(work.firstPsn, psn)]) {
                return work;
            }
        }
        return null;
    }

    /** An ATOMIC ACKNOWLEDGE for this QP. */
    void atomicAck(final DecodedFrame f) {
        final int psn = f.bth().psn();
        final PsnState state = flight.get(psn);
        if (state == null || !state.work.isAtomic()) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        if (state.delivered) {
            device.count(Counter.DUPLICATE_RECEIVED, qp);
            return;
        }
        final SendWork work = state.work;
        work.original = f.atomicAckEth().original();
        final MemoryRegionState mr = device.memory.byLkey(work.wqe.lkey());
        if (mr != null && mr.contains(work.wqe.localVa(), 8)) {
            final ByteOrder order = "big-endian".equals(device.config.word("atomic_memory_order", "little-endian"))
                ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            ByteBuffer.wrap(mr.data).order(order).putLong((int) (work.wqe.localVa() - mr.va), work.original);
        }
        markDelivered(state);
        acknowledgeForCompletion(psn);
        afterDelivery();
    }

    // ------------------------------------------------------------------ progress, completion, loss inference

    private void afterDelivery() {
        final int before = una;
        while (true) {
            final PsnState state = flight.get(una);
            if (state == null || !state.delivered) {
                break;
            }
            flight.remove(una);
            una = Psn.add(una, 1);
        }
        if (flight.isEmpty()) {
            una = sendPoint();
        }
        completeInOrder();
        if (una != before) {
            retries = 0;
            rnrRetries = 0;
            if (flight.isEmpty()) {
                if (awaitedPsn() >= 0 && !rnrWaiting) {
                    startProbeTimer();
                } else {
                    stopTimer();
                }
            } else if (!rnrWaiting) {
                startTimer();
            }
        } else if (flight.isEmpty() && awaitedPsn() < 0) {
            stopTimer(); // the awaited acknowledgement arrived
        }
        inferLoss();
        device.kick(qp);
    }

    /**
     * Section 13.4: the highest sent PSN of a SEND or RDMA WRITE WQE that has not completed and is not before the
     * highest cumulative point received (its acknowledgement is awaited), or -1.
     */
    private int awaitedPsn() {
        int found = -1;
        for (final SendWork work : queue) {
            if (work.isRead() || work.isAtomic() || work.sent == 0) {
                continue;
            }
            final int last = Psn.add(work.firstPsn, work.sent - 1);
            if (!Psn.isBefore(last, cumulative)) {
                found = last;
            }
        }
        return found;
    }

    private void completeInOrder() {
        final Iterator<SendWork> it = queue.iterator();
        while (it.hasNext() && qp.state == QpState.RTS) {
            final SendWork work = it.next();
            if (!work.fullySent() || !done(work)) {
                return;
            }
            it.remove();
            if (work.isRead()) {
                completedReads.addLast(work);
                if (completedReads.size() > 64) {
                    completedReads.pollFirst();
                }
            }
            if (!work.completed) {
                complete(work, CompletionStatus.SUCCESS);
            }
        }
        while (it.hasNext()) {
            final SendWork work = it.next();
            if (work.completed && qp.state == QpState.RTS) {
                it.remove();
            } else {
                return;
            }
        }
    }

    private boolean done(final SendWork work) {
        if (work.isRead()) {
            for (final boolean responded : work.responded) {
                if (!responded) {
                    return false;
                }
            }
            return true;
        }
        if (work.isAtomic()) {
            final PsnState state = flight.get(work.firstPsn);
            return state == null || state.delivered;
        }
        return Psn.isAfter(cumulative, work.lastPsn()) || Psn.isAfter(respondedBefore, work.lastPsn());
    }

    private void complete(final SendWork work, final CompletionStatus status) {
        if (status == CompletionStatus.SUCCESS && !work.wqe.signaled()) {
            return;
        }
        final long length = work.isRead() ? work.wqe.length() : work.isAtomic() ? 8 : work.wqe.length();
        qp.completions().addLast(new Completion(qp.qpn, work.wqe.wrId(), work.wqe.opcode(), status,
            status == CompletionStatus.SUCCESS ? length : 0, 0, false, 0, false, false, device.scheduler.now()));
    }

    /** Delivered PSNs after index {@code from} of the window whose latest transmission came after {@code txSeq}. */
    private int countLater(final int from, final int span, final long txSeq) {
        int later = 0;
        for (int k = from + 1; k < span; k++) {
            final PsnState y = states[k];
            if (y != null && y.delivered && y.txSeq > txSeq) {
                later++;
            }
        }
        return later;
    }

    /** Section 13.3: loss events by threshold and by time. */
    private void inferLoss() {
        if (rnrWaiting || qp.state != QpState.RTS) {
            return;
        }
        final long now = device.scheduler.now();
        long nextCheck = Long.MAX_VALUE;
        final int end = sendPoint();
        final int span = Psn.distance(una, end);
        if (laterCounts.length < span) {
            laterCounts = new int[Math.max(Math.max(span, 64), laterCounts.length * 2)];
            states = new PsnState[laterCounts.length];
        }
        // one backward pass: for each PSN, the delivered PSNs after it whose latest transmission followed its own
        // (section 13.3). Usually every delivered PSN above x was sent after x, so the count is the running total;
        // only a PSN retransmitted after some of them needs a look at each (the rare slow path).
        int deliveredAbove = 0;
        long oldestAbove = Long.MAX_VALUE;
        for (int i = span - 1; i >= 0; i--) {
            final PsnState y = flight.get(Psn.add(una, i));
            states[i] = y;
            if (y == null) {
                laterCounts[i] = 0;
                continue;
            }
            if (!y.delivered) {
                laterCounts[i] = y.txSeq < oldestAbove ? deliveredAbove : countLater(i, span, y.txSeq);
            } else {
                deliveredAbove++;
                oldestAbove = Math.min(oldestAbove, y.txSeq);
            }
        }
        for (int i = 0; i < span; i++) {
            final PsnState x = states[i];
            states[i] = null;
            if (x == null || x.delivered || x.retransmitQueued) {
                continue;
            }
            final int p = Psn.add(una, i);
            final int later = laterCounts[i];
            final boolean eager = device.has(Fault.EAGER_RETRANSMIT) && later > 0;
            if (later >= qp.reorderThreshold || eager) {
                lossEvent(p, x);
            } else if (later > 0 && x.eligibleSince >= 0) {
                if (now - x.eligibleSince >= qp.reorderTimeNs) {
                    lossEvent(p, x);
                } else {
                    nextCheck = Math.min(nextCheck, x.eligibleSince + qp.reorderTimeNs);
                }
            }
            if (qp.state != QpState.RTS) {
                java.util.Arrays.fill(states, null);
                return;
            }
        }
        if (nextCheck != Long.MAX_VALUE && (reorderCheck == null || reorderCheck.time() > nextCheck)) {
            if (reorderCheck != null) {
                reorderCheck.cancel();
            }
            reorderCheck = device.scheduler.at(nextCheck, () -> {
                reorderCheck = null;
                inferLoss();
                device.kick(qp);
            });
        }
    }

    private void lossEvent(final int psn, final PsnState state) {
        if (psn == una && !countRetry()) {
            return;
        }
        if (device.has(Fault.GO_BACK_N_RETRANSMIT)) {
            for (int p = psn; Psn.isBefore(p, nextPsn); p = Psn.add(p, 1)) {
                final PsnState s = flight.get(p);
                if (s != null && !s.retransmitQueued) {
                    s.retransmitQueued = true;
                    retransmit.addLast(p);
                }
            }
            return;
        }
        state.retransmitQueued = true;
        retransmit.addLast(psn);
    }

    /** Counts a timeout or loss event for una; false when the retries are exhausted (the QP is then in ERROR). */
    private boolean countRetry() {
        if (retries >= qp.retryCnt && !device.has(Fault.RETRY_INFINITE)) {
            exhaust(una, CompletionStatus.RETRY_EXCEEDED);
            return false;
        }
        retries++;
        return true;
    }

    // ------------------------------------------------------------------ timers

    private void startTimer() {
        stopTimer();
        final long duration = undelivered <= qp.nLow && !device.has(Fault.RTO_HIGH_ALWAYS) ? qp.rtoLowNs
            : qp.rtoHighNs;
        timer = device.scheduler.at(device.scheduler.now() + duration, this::expire);
    }

    private void startProbeTimer() {
        stopTimer();
        timer = device.scheduler.at(device.scheduler.now() + qp.rtoLowNs, this::expire);
    }

    private void stopTimer() {
        if (timer != null) {
            timer.cancel();
            timer = null;
        }
    }

    private void expire() {
        timer = null;
        if (qp.state != QpState.RTS || rnrWaiting) {
            return;
        }
        if (flight.isEmpty()) {
            final int probe = awaitedPsn();
            if (probe < 0 || device.has(Fault.NO_ACK_PROBE)) {
                return;
            }
            device.count(Counter.TIMEOUTS, qp);
            if (retries >= qp.retryCnt && !device.has(Fault.RETRY_INFINITE)) {
                exhaust(probe, CompletionStatus.RETRY_EXCEEDED);
                return;
            }
            retries++;
            probePsn = probe;
            startProbeTimer();
            device.kick(qp);
            return;
        }
        device.count(Counter.TIMEOUTS, qp);
        if (!countRetry()) {
            return;
        }
        if (qp.tver == 0) {
            queueFrom(una);
        } else {
            final PsnState state = flight.get(una);
            if (state != null && !state.delivered) {
                retransmit.remove(una);
                state.retransmitQueued = true;
                retransmit.addFirst(una);
            }
        }
        startTimer();
        device.kick(qp);
    }

    // ------------------------------------------------------------------ RNR, errors, legacy

    private void rnr(final int psn, final int code) {
        if (rnrWaiting) {
            if (Psn.isBefore(psn, rnrResume)) {
                rnrResume = psn;
            }
            return;
        }
        if (qp.rnrRetry != 7 && rnrRetries >= qp.rnrRetry) {
            exhaust(psn, CompletionStatus.RNR_RETRY_EXCEEDED);
            return;
        }
        if (qp.rnrRetry != 7) {
            rnrRetries++;
        }
        rnrWaiting = true;
        rnrResume = psn;
        stopTimer();
        device.scheduler.at(device.scheduler.now() + RnrTimer.nanos(code), this::rnrEnd);
    }

    private void rnrEnd() {
        rnrWaiting = false;
        if (qp.state != QpState.RTS) {
            return;
        }
        retransmit.clear();
        queueFrom(rnrResume);
        if (!flight.isEmpty()) {
            startTimer();
        }
        device.kick(qp);
    }

    /** Queues every undelivered in-flight PSN from {@code from} on, in PSN order. */
    private void queueFrom(final int from) {
        for (int p = from; Psn.isBefore(p, nextPsn); p = Psn.add(p, 1)) {
            final PsnState state = flight.get(p);
            if (state != null && !state.delivered && !state.retransmitQueued) {
                state.retransmitQueued = true;
                retransmit.addLast(p);
                if (state.work.isRead()) {
                    p = Psn.add(state.work.firstPsn, state.work.span - 1);
                }
            }
        }
    }

    private void goBackN(final int psn) {
        if (!outstanding(psn)) {
            device.count(Counter.DROP_UNEXPECTED_RESPONSE, qp);
            return;
        }
        deliverCumulative(psn);
        retransmit.clear();
        for (final PsnState state : flight.values()) {
            state.retransmitQueued = false;
        }
        afterDelivery();
        queueFrom(psn);
        device.kick(qp);
    }

    private void legacyReadGap(final SendWork work, final int k) {
        device.count(Counter.DROP_OUTSIDE_WINDOW, qp);
        int missing = 0;
        while (missing < k && work.responded[missing]) {
            missing++;
        }
        final int psn = Psn.add(work.firstPsn, missing);
        final PsnState state = flight.get(psn);
        if (state != null && !state.retransmitQueued) {
            state.retransmitQueued = true;
            retransmit.addLast(psn);
            device.kick(qp);
        }
    }

    /** Section 7.6: a NAK 0x61, 0x62 or 0x63 for an outstanding PSN. */
    private void remoteError(final int psn, final int base, final int code) {
        final CompletionStatus status = code == 1 ? CompletionStatus.REMOTE_INVALID_REQUEST : code == 2
            ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.REMOTE_OPERATIONAL_ERROR;
        if (Psn.isAfter(base, cumulative)) {
            cumulative = base;
        }
        failFrom(psn, status);
    }

    private void exhaust(final int psn, final CompletionStatus status) {
        failFrom(psn, status);
    }

    /** Completes earlier WQEs (SUCCESS when done, else FLUSHED), the one holding {@code psn} with {@code status}. */
    private void failFrom(final int psn, final CompletionStatus status) {
        stopTimer();
        boolean reached = false;
        for (final SendWork work : queue) {
            if (work.completed) {
                continue;
            }
            if (!reached && work.contains(psn)) {
                complete(work, status);
                reached = true;
            } else if (!reached && work.fullySent() && done(work)) {
                complete(work, CompletionStatus.SUCCESS);
            } else {
                complete(work, CompletionStatus.FLUSHED);
            }
            work.completed = true;
        }
        queue.clear();
        flight.clear();
        undelivered = 0;
        retransmit.clear();
        device.fatal(qp, -1, null);
    }

    /** The QP entered ERROR for another reason: every WQE not completed is flushed. */
    void flush() {
        stopTimer();
        for (final SendWork work : queue) {
            if (!work.completed) {
                complete(work, CompletionStatus.FLUSHED);
                work.completed = true;
            }
        }
        queue.clear();
        flight.clear();
        undelivered = 0;
        retransmit.clear();
    }
}

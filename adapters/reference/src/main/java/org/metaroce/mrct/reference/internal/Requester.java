package org.metaroce.mrct.reference.internal;

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
import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.RnrTimer;

/**
 * The requester of one QP (MetaRoCE v1 sections 12 and 13): segmentation with PLETH and RETH, PSN, MSN and RSN
 * assignment, the send window and the READ/atomic limit, fences, AckReq placement, delivery tracking from cumulative
 * points, SACK bits, read responses and atomic acknowledgements, loss inference by reordering threshold and time,
 * selective retransmission (re-requests for READs), the retransmission timer with rto_low/rto_high, retry and RNR
 * counting, error completion and flushing, and in-order send completions. Packets leave through the QP's pacer, which
 * asks {@link #next} for the next one; a TVer 0 QP recovers go-back-N instead (section 16). Responses are checked by
 * its {@link ResponseReceiver} and losses inferred by its {@link LossInference}; both act through this class.
 */
final class Requester {
    private final Device device;
    private final QueuePair qp;
    /** Created when the QP first sends (idle QPs stay small). */
    private RequestWriter writer;
    /** Created when the QP first needs them, like the writer. */
    private ResponseReceiver responses;
    private LossInference lossInference;
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
    /** PSNs in the flight not delivered (the timer's D depends on it). */
    private int undelivered;
    private RequestWriter writer() {
        if (writer == null) {
            writer = new RequestWriter(device, qp);
        }
        return writer;
    }

    /** What the QP does with the responses to its requests: ACKNOWLEDGE, READ RESPONSE, ATOMIC ACKNOWLEDGE. */
    ResponseReceiver responses() {
        if (responses == null) {
            responses = new ResponseReceiver(device, qp, this);
        }
        return responses;
    }

    private LossInference lossInference() {
        if (lossInference == null) {
            lossInference = new LossInference(device, qp, this);
        }
        return lossInference;
    }

    /** Section 13.4: the PSN of an acknowledgement probe to send, or -1. */
    private int probePsn = -1;
    private int rnrRetries;
    private boolean rnrWaiting;
    private long rnrUntil; // the end of the wait: an earlier scheduled end is that of a wait restarted since
    private int rnrResume;
    private Scheduler.Event timer;
    private boolean awaitingTimerResend; // section 13.4 (v1.1): expired; restarts as una's retransmission leaves

    Requester(final Device device, final QueuePair qp) {
        this.device = device;
        this.qp = qp;
        final int first = Psn.add(qp.sqPsn, device.plus(Fault.FIRST_PSN_AFTER_SQ_PSN));
        this.nextPsn = first;
        this.una = first;
        this.cumulative = first;
        this.respondedBefore = first;
    }

    // ------------------------------------------------------------------ posting

    /** Posts a send WQE (numbering its message now, in posting order). */
    void post(final SendWqe wqe) {
        final boolean consumes = wqe.opcode() == WorkOpcode.SEND || wqe.opcode() == WorkOpcode.SEND_WITH_IMM
            || wqe.opcode() == WorkOpcode.SEND_WITH_INV || wqe.opcode() == WorkOpcode.RDMA_WRITE_WITH_IMM;
        if (wqe.opcode() == WorkOpcode.RECV || wqe.opcode() == WorkOpcode.RECV_RDMA_WITH_IMM) {
            throw new RejectedException(wqe.opcode() + " is not a send operation");
        }
        final SendWork work = new SendWork(wqe, nextMsn, consumes ? nextRsn : 0, qp.pmtu,
            device.has(Fault.PACKET_COUNT_FLOOR_PLUS_ONE));
        nextMsn = Psn.add(nextMsn, consumes || !device.has(Fault.MSN_ONLY_FOR_WQE_MESSAGES) ? 1 : 0);
        if (consumes || device.has(Fault.RSN_COUNTS_EVERY_MESSAGE)) {
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
                    && readsAndAtomics >= qp.maxRdAtomic + device.plus(Fault.MAX_RD_ATOMIC_OFF_BY_ONE)) {
                    return null;
                }
                return work;
            }
            if (work.isRead() || work.isAtomic()) {
                readsAndAtomics++;
                unfinishedReadOrAtomicBefore |= work.isRead() || !device.has(Fault.FENCE_IGNORES_ATOMICS);
            }
        }
        return null;
    }

    /**
     * The next PSN to send for the first time: inside a message whose first packets are out, the next packet's PSN;
     * else the first PSN of the next message ({@code nextPsn} already points past the span of a message once its
     * first packet is sent).
     */
    int sendPoint() {
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
            if (awaitingTimerResend && psn == una) { // rule MR-RTX-008 (v1.1): restart as it leaves the pacer
                awaitingTimerResend = false;
                startTimer();
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
            nextPsn = Psn.add(psn, work.isRead() && device.has(Fault.READ_TAKES_ONE_PSN) ? 1 : work.span);
        }
        final int index = work.sent++;
        final boolean lastPacket = index == work.packets - 1;
        final boolean byInterval = ++sinceAckReq >= qp.ackReqInterval + device.plus(Fault.ACKREQ_INTERVAL_PLUS_ONE);
        final boolean ackReq = lastPacket && !device.has(Fault.NO_ACKREQ) || byInterval;
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
        if (device.has(Fault.COMPLETE_BEFORE_ACK) && work.fullySent() && !work.isRead() && !work.isAtomic()
            && queue.stream().takeWhile(w -> w != work).allMatch(w -> w.completed)) {
            // the bug: a SEND or WRITE done once sent (in posting order), not once acknowledged
            work.completed = true;
            complete(work, CompletionStatus.SUCCESS);
        }
        return frame;
    }

    private byte[] resend(final int psn, final PsnState state, final long now) {
        state.retransmitQueued = false;
        state.eligibleSince = -1;
        final SendWork work = state.work;
        device.count(work.isRead() && device.has(Fault.READ_RETRY_COUNTED_AS_TIMEOUT) ? Counter.TIMEOUTS
            : Counter.RETRANSMITTED, qp);
        if (work.isRead()) {
            final boolean arrived = work.requestArrived(cumulative);
            final boolean fromStart = device.has(Fault.READ_RECOVERY_FROM_START) && qp.tver == 1;
            final int from = arrived && !fromStart ? state.index : 0;
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
        state.txSeq = device.has(Fault.RETRANSMISSION_KEEPS_TX_ORDER) ? state.txSeq : ++txSeq;
        return writer().request(work, state.index, psn, work.isAtomic() ? 0 : (long) state.index * qp.pmtu, true);
    }

    // ------------------------------------------------------------------ receiving (checked by ResponseReceiver)

    /** The state of sent PSN {@code psn} while it is in the flight (from una on), or null. */
    PsnState inFlight(final int psn) {
        return flight.get(psn);
    }

    /** The oldest PSN not yet acknowledged. */
    int una() {
        return una;
    }

    /** True while an RNR NAK holds the QP back (no sending, no loss inference, no timeout). */
    boolean waitingOnRnr() {
        return rnrWaiting;
    }

    boolean outstanding(final int psn) {
        final PsnState state = flight.get(psn);
        return state != null && !state.delivered;
    }

    void deliverCumulative(final int base) {
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
    void acknowledgeForCompletion(final int psn) {
        if (Psn.isAfter(psn, respondedBefore)) {
            respondedBefore = psn;
        }
    }

    void markDelivered(final PsnState state) {
        if (!state.delivered) {
            state.delivered = true;
            undelivered--;
            final long now = device.scheduler.now();
            // the in-flight PSNs before this one (from una: below it everything left the flight delivered)
            final int psn = state.psn();
            for (int p = una; Psn.isBefore(p, psn); p = Psn.add(p, 1)) {
                final PsnState other = flight.get(p);
                if (other != null && !other.delivered && other.txSeq < state.txSeq
                    && (other.eligibleSince < 0 || device.has(Fault.REORDER_TIMER_RESTARTED))) {
                    other.eligibleSince = now;
                }
            }
        }
    }

    /**
     * A READ whose span holds {@code psn} and whose response for it was already placed (the response is then a
     * duplicate, MR-ROB-010), or null: a READ completed lately, or one still outstanding whose delivered PSN left the
     * flight with una.
     */
    SendWork completedReadContaining(final int psn) {
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

    // ------------------------------------------------------------------ progress, completion, loss events

    void afterDelivery() {
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
            awaitingTimerResend = false;
            retries = device.has(Fault.RETRIES_NOT_RESET_ON_PROGRESS) ? retries : 0;
            rnrRetries = device.has(Fault.RNR_RETRIES_NOT_RESET_ON_PROGRESS) ? rnrRetries : 0;
            if (flight.isEmpty()) {
                if (awaitedPsn() >= 0 && !rnrWaiting) {
                    startProbeTimer();
                } else {
                    stopTimer();
                }
            } else if (!rnrWaiting && !device.has(Fault.TIMER_NOT_RESTARTED_ON_PROGRESS)) {
                startTimer();
            }
        } else if (flight.isEmpty() && awaitedPsn() < 0) {
            stopTimer(); // the awaited acknowledgement arrived
        }
        lossInference().inferLoss();
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
                if (completedReads.size() > qp.maxRdAtomic) { // Table 11-4 (v1.1): the last max_rd_atomic
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

    void lossEvent(final int psn, final PsnState state) {
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
            failFrom(una, CompletionStatus.RETRY_EXCEEDED);
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
                failFrom(probe, CompletionStatus.RETRY_EXCEEDED);
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
        if (qp.tver == 0 && !device.has(Fault.LEGACY_TIMEOUT_UNA_ONLY) || device.has(Fault.TIMEOUT_RESENDS_ALL)) {
            queueFrom(una);
        } else {
            final PsnState state = flight.get(una);
            if (state != null && !state.delivered) {
                retransmit.remove(una);
                state.retransmitQueued = true;
                retransmit.addFirst(una);
            }
        }
        awaitingTimerResend = true; // the timer restarts when una's retransmission leaves (section 13.4)
        device.kick(qp);
    }

    // ------------------------------------------------------------------ RNR, errors, legacy

    void rnr(final int psn, final int code) {
        if (rnrWaiting && !device.has(Fault.RNR_NAK_RESTARTS_WAIT)) {
            rnrResume = Psn.isBefore(psn, rnrResume) && !device.has(Fault.RNR_RESUME_NOT_LOWERED) ? psn : rnrResume;
            return;
        }
        if (qp.rnrRetry != 7 && rnrRetries >= qp.rnrRetry + device.plus(Fault.RNR_RETRY_OFF_BY_ONE)) {
            failFrom(psn, CompletionStatus.RNR_RETRY_EXCEEDED);
            return;
        }
        if (qp.rnrRetry != 7) {
            rnrRetries++;
        }
        rnrResume = rnrWaiting && Psn.isBefore(rnrResume, psn) ? rnrResume : psn; // (restarted: the lower kept)
        rnrWaiting = true;
        stopTimer();
        rnrUntil = device.scheduler.now() + RnrTimer.nanos(code);
        device.scheduler.at(rnrUntil, this::rnrEnd);
    }

    /**
     * Section 13.5: the end of an RNR wait. Losses inferred before it and not yet answered keep their place, every
     * in-flight PSN from the resume PSN is queued, the losses the wait held back are inferred now, and all of them
     * leave in increasing PSN order.
     */
    private void rnrEnd() {
        if (device.scheduler.now() < rnrUntil) {
            return;
        }
        rnrWaiting = false;
        if (qp.state != QpState.RTS) {
            return;
        }
        retransmit.removeIf(p -> !Psn.isBefore(p, rnrResume) && PsnState.unqueue(flight.get(p)));
        queueFrom(rnrResume);
        lossInference().inferLoss();
        if (qp.state != QpState.RTS) {
            return;
        }
        PsnState.sortByPsn(retransmit, una);
        if (!flight.isEmpty() && !device.has(Fault.RNR_END_TIMER_NOT_STARTED)) {
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

    void goBackN(final int psn) {
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
        if (countRetry()) { // a go-back counts against retry_cnt as a timeout does (section 16, v1.1; rxe does)
            queueFrom(psn);
            device.kick(qp);
        }
    }

    void legacyReadGap(final SendWork work, final int k) {
        device.count(Counter.DROP_OUTSIDE_WINDOW, qp);
        int missing = 0;
        while (missing < k && work.responded[missing]) {
            missing++;
        }
        final int psn = Psn.add(work.firstPsn, missing);
        final PsnState state = flight.get(psn);
        // once per gap (MR-LEG-010, v1.1), and counted against retry_cnt like a go-back
        if (state != null && !state.retransmitQueued && work.legacyAsked != missing && countRetry()) {
            work.legacyAsked = missing;
            state.retransmitQueued = true;
            retransmit.addLast(psn);
            device.kick(qp);
        }
    }

    /** Section 7.6: a NAK 0x61, 0x62 or 0x63 for an outstanding PSN. */
    void remoteError(final int psn, final int base, final int code) {
        final CompletionStatus status = code == 1 ? CompletionStatus.REMOTE_INVALID_REQUEST : code == 2
            ? CompletionStatus.REMOTE_ACCESS_ERROR : CompletionStatus.REMOTE_OPERATIONAL_ERROR;
        if (Psn.isAfter(base, cumulative)) {
            cumulative = base;
        }
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

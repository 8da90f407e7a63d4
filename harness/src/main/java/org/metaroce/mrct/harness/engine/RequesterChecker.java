package org.metaroce.mrct.harness.engine;

import static org.metaroce.mrct.harness.engine.RequesterFailure.failure;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.DcqcnConstants;
import org.metaroce.mrct.oracle.ReadRerequest;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.RequesterAckReq;
import org.metaroce.mrct.oracle.RequesterAnswers;
import org.metaroce.mrct.oracle.RequesterGoBack;
import org.metaroce.mrct.oracle.RequesterLimits;
import org.metaroce.mrct.oracle.RequesterLoss;
import org.metaroce.mrct.oracle.RequesterOrder;
import org.metaroce.mrct.oracle.RequesterProbe;
import org.metaroce.mrct.oracle.RequesterRepeat;
import org.metaroce.mrct.oracle.RequesterResend;
import org.metaroce.mrct.oracle.RequesterRnr;
import org.metaroce.mrct.oracle.RequesterTimer;
import org.metaroce.mrct.oracle.RequesterState;
import org.metaroce.mrct.oracle.RequesterWindow;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * Watches one connection where the device is the requester: every request it sends, every acknowledgement, response
 * and CNP it receives, in time order. It knows what a conforming requester may send at each moment (sections 12 and
 * 13 of MetaRoCE v1) and fails the case on the first frame that breaks a rule, naming the rule and the frame:
 *
 * <ul>
 *   <li>each packet as the posted WQEs make it ({@link SendQueueModel}: Table 12-1 opcodes, payload bytes, PLETH,
 *       RETH, ImmDt, IETH, AtomicETH, AckReq), retransmissions identical to the original (MR-RTX-006) or proper READ
 *       re-requests (MR-RTX-016, MR-RTX-017);</li>
 *   <li>first transmissions in PSN order from sq_psn (MR-REQ-001 to MR-REQ-003), within the send window
 *       (MR-REQ-012), at most max_rd_atomic READs and atomics outstanding (MR-REQ-013), fences (MR-REQ-014), an AckReq
 *       at least every ack_req_interval packets (MR-REQ-011);</li>
 *   <li>no retransmission of a delivered PSN (MR-RTX-001), none without a cause: a loss inferred by the threshold or
 *       the time condition, una at the expiry of a retransmission timer that could have expired, the end of an RNR
 *       wait (MR-RTX-002, MR-RTX-007); a pending loss event answered before any new PSN (MR-RTX-003, MR-RTX-004);</li>
 *   <li>the RNR waits of the oracle's {@link RequesterRnr}: silence during a wait and the resume order after it
 *       (MR-RTX-012, MR-RTX-013), the rnr_retry limit (MR-RTX-014), a NAK during a wait (MR-RTX-015);</li>
 *   <li>no SUCCESS completion of a SEND or WRITE before an acknowledgement past its last PSN (MR-CMP-012).</li>
 * </ul>
 *
 * <p>Rules are checked from the wire alone, so where the device could know more than the harness (a loss event the
 * harness cannot see) the checker gives the device the benefit of the doubt. PSNs are relative to the connection's
 * sq_psn. It also keeps the observations that {@code expect_traffic} and {@code expect_rate} read.
 */
final class RequesterChecker {
    /** Requester parameters of the QP (Appendix B values in force for the case). */
    record Parameters(int pmtu, int sendWindow, int ackReqInterval, int reorderThreshold, long reorderTimeNs,
                      long rtoLowNs, long rtoHighNs, int nLow, int retryCnt, int maxRdAtomic, boolean legacy,
                      long toleranceNs, double lineRateMbps, double minRateMbps, int rnrRetry) {
    }

    /** One request frame the device sent. */
    record Sent(long time, int psn, Opcode opcode, int wireBytes, boolean retransmission, int sport, int evidence) {
    }

    private static final long NONE = Long.MIN_VALUE;
    private static final Basis LIVE = Basis.configured("the QP's attributes and the answers the harness sent");

    private final Connection connection;
    private final SendQueueModel model;
    /** The first transmissions, as the oracle compares retransmissions with them (MR-RTX-006). */
    private final RequestOriginals originals = new RequestOriginals();
    private final Parameters p;
    /** Section 13.3 on its PSNs: what was sent and delivered when (the oracle's; MR-RTX-002 to -005). */
    private final RequesterLoss loss;
    /** The READs (by first PSN) with evidence that their READ REQUEST arrived (section 13.6). */
    private final BitSet readEvidence = new BitSet();
    private int nextFirst;
    private int una;
    private final RequesterAckReq ackReqRun = new RequesterAckReq();
    /** The retransmission timer and retry counter of Table 13-1 (the oracle's; MR-RTX-007 to -011, -020). */
    private final RequesterTimer timer;
    /** The highest cumulative point (sacketh.base) received. */
    private int ackCumulative;
    /** MR-CMP-015: the first PSN of the latest request a response answered (WQEs before it may complete). */
    private int respondedBefore;
    /** MR-CMP-012: the completions matched to posted WQEs so far. */
    private final AckedCompletions completions = new AckedCompletions();
    /** The RNR waits of section 13.5 (the oracle's; MR-RTX-012 to -015). */
    private final RequesterRnr rnr;
    private int maxInFlight;
    private final List<Sent> sent = new ArrayList<>();
    private final List<Long> cnps = new ArrayList<>();
    /** tver 0 READs: the PSN of the latest READ REQUEST sent for the READ whose span starts at the key. */
    private final java.util.Map<Integer, Integer> legacyReadFrom = new java.util.HashMap<>();
    /** tver 0: go-back-N after NAK 0x60 and on a timeout (the oracle's; MR-LEG-008, MR-LEG-009). */
    private final RequesterGoBack goBack = new RequesterGoBack();
    /** Sent and not delivered: a request's PSN (a READ's first), as go-back-N sends them again. */
    private final RequesterGoBack.Psns owed = this::owedByGoBack;
    /** The frames sent to the device, taken in timestamp order with its requests (see {@link HeldAnswers}). */
    private final HeldAnswers answers = new HeldAnswers();
    /** Timing failures with their nominal and effective bounds. */
    private final RequesterDeadlines deadlines;

    RequesterChecker(final Connection connection, final SendQueueModel model, final Parameters parameters,
                     final long origin) {
        this.deadlines = new RequesterDeadlines(origin, parameters.toleranceNs());
        this.connection = connection;
        this.model = model;
        this.p = parameters;
        this.loss = new RequesterLoss(parameters.reorderThreshold(), parameters.reorderTimeNs());
        this.timer = new RequesterTimer(parameters.rtoLowNs(), parameters.rtoHighNs(), parameters.nLow(),
            parameters.retryCnt());
        this.rnr = new RequesterRnr(parameters.rnrRetry());
    }

    private int relative(final int absolute) {
        return Psn.distance(connection.devicePsnBase(), absolute);
    }

    private boolean delivered(final int psn) {
        return loss.delivered(psn);
    }

    private boolean owedByGoBack(final int q) {
        final SendQueueModel.Work w = q >= 0 && q < nextFirst && !delivered(q) ? model.byPsn(q) : null;
        return w != null && (!w.isRead() || q == w.firstPsn);
    }

    // ------------------------------------------------------------------ frames from the device

    /**
     * Checks that the retransmission timer, if it runs, has not expired by {@code now} without the device resending
     * una (MR-RTX-009; MR-RTX-007 when the timer ran for rto_low_ns): the timer window of the front matter is T to
     * T + T/10 + 2000 ns. After retry_cnt retries the expiry moves the QP to ERROR instead (MR-RTX-010).
     */
    StepFailure timers(final long now, final int evidence) {
        answers.release(now, this::took);
        if (!p.legacy() && rnr.held()) {
            final Finding overdue = rnr.overdue(now, p.toleranceNs(), evidence, LIVE);
            return overdue == null ? null : deadlines.rnrOverdue(overdue, rnr, now, evidence);
        }
        if (p.legacy() || !timer.running()) {
            return null;
        }
        if (una >= nextFirst && awaited(true) < 0) {
            return null;
        }
        // section 13.4 (v1.1): the resend waits for the frame the pacer was sending at the expiry, at Rc's floor
        final long due = Math.max(timer.latest(p.toleranceNs()), Timing.pacerFree(sent, timer.expiry(),
            DcqcnConstants.rateFloor(cnps, timer.expiry(), p.lineRateMbps(), p.minRateMbps())) + 2000
            + p.toleranceNs());
        if (now <= due) {
            return null;
        }
        if (timer.exhausted()) {
            timer.stop();
            return null;
        }
        return deadlines.timeout(timer, una, awaited(true), una >= nextFirst, due, now, p.nLow(), evidence);
    }

    /** Checks a request the device sent at {@code time}; returns the broken rule or null. */
    StepFailure device(final DecodedFrame f, final long time, final int evidence) {
        final StepFailure expired = timers(time, evidence);
        if (expired != null) {
            return expired;
        }
        final int psn = relative(f.bth().psn());
        final SendQueueModel.Work work = psn < Psn.HALF ? model.byPsn(psn) : null;
        if (work == null) {
            final int named = Psn.diff(psn, 0); // below 0: before sq_psn
            final Finding outside = RequesterOrder.outsideMessages(named, model.nextPsn() == 0
                ? "no request (nothing posted)" : "0.." + (model.nextPsn() - 1), nextFirst == 0, evidence, LIVE);
            return failure(outside.rule(), evidence, "PSN " + named + (named < 0 ? " is before sq_psn: no WQE was "
                + "posted for it" : " belongs to no posted WQE (the posted WQEs span PSNs 0.." + (model.nextPsn() - 1)
                + ")"), new FieldDiff(outside.field(), outside.expected(), outside.actual()));
        }
        final boolean retransmission = psn < nextFirst;
        final Finding inside = retransmission && work.isRead() ? RequesterOrder.insideReadSpan(psn, work.firstPsn,
            work.lastPsn(), f.opcode() == Opcode.RDMA_READ_REQUEST, p.legacy() || !f.has(HeaderKind.PLETH)
                || f.pleth().msn() == work.msn, evidence, LIVE) : null;
        if (inside != null) {
            return failure(inside.rule(), evidence, f.opcode() + " at PSN " + psn + " lies in the span of "
                + work.describe() + ": a message after the READ was given PSNs its responses use",
                new FieldDiff(inside.field(), inside.expected(), inside.actual()));
        }
        if (p.legacy() && work.isRead()) {
            legacyReadFrom.put(work.firstPsn, psn);
        }
        final List<SendQueueModel.Violation> content = !retransmission && psn != nextFirst ? List.of() // a skip: the
            : model.check(f, work, psn, retransmission); // order is the fault (below), not another packet's content
        if (!content.isEmpty()) {
            final SendQueueModel.Violation v = content.get(0);
            return failure(v.rule(), evidence, (retransmission ? "retransmission of PSN " : "PSN ") + psn + " of "
                + work.describe() + ": " + v.diff(), content.stream().map(SendQueueModel.Violation::diff).toList());
        }
        final StepFailure changed = retransmission ? repeated(f, work, psn, evidence) : null;
        if (changed != null) {
            return changed;
        }
        final StepFailure waited = p.legacy() ? null : rnrWait(time, evidence);
        if (waited != null) {
            return waited;
        }
        final StepFailure failure = retransmission ? retransmission(f, work, psn, time, evidence)
            : firstTransmission(f, work, psn, time, evidence);
        if (failure != null) {
            return failure;
        }
        sent.add(new Sent(time, psn, f.opcode(), f.frameLength() + 4, retransmission, f.udp().sourcePort(),
            evidence));
        return null;
    }

    /** MR-REQ-013 and MR-REQ-014 on starting {@code work} (the oracle's {@link RequesterLimits}). */
    private Finding limits(final SendQueueModel.Work work, final int evidence) {
        int earlier = 0;
        String pending = null;
        for (final SendQueueModel.Work other : model.works()) {
            if (other.index < work.index && other.isReadOrAtomic()
                && loss.undelivered(other.firstPsn, other.lastPsn() + 1) > 0) {
                earlier++;
                pending = pending == null ? other.describe() : pending;
            }
        }
        final Finding many = work.isReadOrAtomic() ? RequesterLimits.outstanding(earlier, p.maxRdAtomic(), evidence,
            LIVE) : null;
        return many != null ? many : work.fence ? RequesterLimits.fence(pending, evidence, LIVE) : null;
    }

    /** MR-RTX-012, -014, -015 on a request sent at {@code time} (the oracle's {@link RequesterRnr}). */
    private StepFailure rnrWait(final long time, final int evidence) {
        final boolean held = rnr.held();
        final Finding r = rnr.request(time, p.toleranceNs(), evidence, LIVE);
        if (r != null) {
            final String when = rnr.exhausted() ? "after an RNR NAK exhausted rnr_retry = " + p.rnrRetry()
                : "for the RNR wait that began at " + at(rnr.started()) + " and ends at "
                    + deadlines.earliest(rnr.until());
            return failure(r.rule(), evidence, "a request was sent at " + at(time) + " " + when,
                new FieldDiff(r.field(), r.expected(), r.actual()));
        }
        if (held && !rnr.held() && (!timer.running() || timer.started() < rnr.until())) {
            startTimer(rnr.until());
        }
        return null;
    }

    /** In flight, undelivered and not sent again since the last RNR wait ended: owed by its resume order. */
    private boolean owedAfterRnrWait(final int psn) {
        return psn < nextFirst && !delivered(psn) && loss.lastRetransmission(psn) + p.toleranceNs() < rnr.until();
    }

    private StepFailure firstTransmission(final DecodedFrame f, final SendQueueModel.Work work, final int psn,
                                          final long time, final int evidence) {
        final Finding order = RequesterOrder.firstTransmission(nextFirst, psn, nextFirst == 0, evidence, LIVE);
        if (order != null) {
            return failure(order.rule(), evidence, "PSN " + psn + " is sent for the first time while PSN " + nextFirst
                + " has not been sent", new FieldDiff(order.field(), order.expected(), order.actual()));
        }
        if (work.isRead() && psn != work.firstPsn) {
            return failure("MR-REQ-009", evidence, "the first READ REQUEST of " + work.describe() + " names PSN " + psn,
                new FieldDiff("bth.psn", Integer.toString(work.firstPsn), Integer.toString(psn)));
        }
        final int end = work.isRead() ? work.lastPsn() : psn;
        final Finding w = RequesterWindow.check(una, psn, end, work.isRead(), p.sendWindow(), evidence, LIVE);
        if (w != null) {
            return failure(w.rule(), evidence, "PSN " + end + " is sent for the first time while una is " + una
                + ", outside the send window of " + p.sendWindow(), new FieldDiff(w.field(), w.expected(), w.actual()));
        }
        final Finding limit = limits(work, evidence);
        if (limit != null) {
            return failure(limit.rule(), evidence, work.describe() + (limit.rule().equals(RequesterLimits.FENCE_RULE)
                ? ", fenced, is started too early" : " is started with too many READs and atomics outstanding"),
                new FieldDiff(limit.field(), limit.expected(), limit.actual()));
        }
        final StepFailure pending = p.legacy() ? RequesterFailure.goBack(goBack.onFirstTransmission(psn, time,
            p.toleranceNs(), owed, evidence, LIVE), evidence) : pendingLossEvent(time, evidence);
        if (pending != null) {
            return pending;
        }
        timer.settled();
        ackReqRun.onFirstTransmission(f.bth().ackReq());
        final Finding ackReq = ackReqRun.reached(p.ackReqInterval(), evidence, Basis.configured("ack_req_interval"));
        if (ackReq != null) {
            return failure(ackReq.rule(), evidence, p.ackReqInterval() + " first transmissions in a row without AckReq",
                new FieldDiff(ackReq.field(), ackReq.expected(), ackReq.actual()));
        }
        final boolean idle = una == nextFirst;
        final int last = work.isRead() ? work.lastPsn() : psn;
        for (int q = psn; q <= last; q++) {
            loss.sent(q, time);
        }
        originals.record(psn, f, evidence);
        nextFirst = last + 1;
        if (idle) {
            startTimer(time);
        } else if (p.toleranceNs() > 0 && timer.running() && time <= timer.started() + p.toleranceNs()) {
            // sent as the restarting ACK crossed it on a real link
            timer.mayHaveCounted(loss.undelivered(una, nextFirst));
        }
        maxInFlight = Math.max(maxInFlight, loss.undelivered(una, nextFirst));
        return null;
    }

    private StepFailure retransmission(final DecodedFrame f, final SendQueueModel.Work work, final int psn,
                                       final long time, final int evidence) {
        if (!p.legacy() && delivered(psn) && RequesterProbe.is(queue, ackCumulative, psn, f.bth().ackReq())) {
            // an acknowledgement probe (section 13.4): allowed once its timer could have expired
            if (timer.probeEarly(time, p.toleranceNs())) {
                return failure(RequesterTimer.PROBE_RULE, evidence, "acknowledgement probe (PSN " + psn + ") sent "
                    + "before rto_low_ns passed since " + at(timer.started()), new FieldDiff("time",
                        deadlines.atLeast(timer.started() + p.rtoLowNs()), at(time)));
            }
            timer.retry();
            loss.resent(psn, time);
            timer.startProbe(time);
            return null;
        }
        // as MR-RTX-001 gives: a response that crossed the re-request within the tolerance is no evidence yet
        final Finding fromStart = work.isRead() && !p.legacy() && delivered(psn)
            && loss.deliveredAt(psn) + p.toleranceNs() < time
            ? ReadRerequest.fromDelivered(psn, loss.firstUndelivered(work.firstPsn, work.lastPsn()), evidence, LIVE)
            : null;
        if (fromStart != null) {
            return failure(fromStart.rule(), evidence, "READ re-request at PSN " + psn + " of " + work.describe()
                + ", whose response for that PSN was delivered", new FieldDiff(fromStart.field(),
                    fromStart.expected(), fromStart.actual()));
        }
        final Finding again = RequesterResend.check("" + psn, loss.deliveredAt(psn), time, p.toleranceNs(), evidence,
            LIVE);
        if (again != null) {
            return failure(again.rule(), evidence, "PSN " + psn + " of " + work.describe() + " is sent again after "
                + at(loss.deliveredAt(psn)) + ", when it was delivered", new FieldDiff(again.field(), again.expected(),
                    again.actual()));
        }
        if (!p.legacy() && work.isRead() && psn > work.firstPsn && !readEvidence.get(work.firstPsn)) {
            return failure("MR-RTX-017", evidence, "READ re-request at PSN " + psn + " of " + work.describe()
                + " without evidence that the READ REQUEST arrived", new FieldDiff("bth.psn",
                    work.firstPsn + " (the original READ REQUEST)", Integer.toString(psn)));
        }
        if (p.legacy() && (!work.isRead() || psn == work.firstPsn)) { // a READ's rest (MR-LEG-010) is no go-back
            final StepFailure wrong = RequesterFailure.goBack(goBack.onRetransmission(psn, time, new RequesterGoBack.Una(una, una,
                timer.running() ? timer.started() : NONE), p.rtoLowNs() - p.toleranceNs(), owed, evidence, LIVE),
                evidence);
            if (wrong != null) {
                return wrong;
            }
        } else if (!p.legacy()) {
            final boolean eligible = loss.inferredLost(psn, nextFirst, time, p.toleranceNs());
            final Finding order = rnr.resend(una, psn, this::owedAfterRnrWait, evidence, LIVE);
            if (order != null) {
                return failure(order.rule(), evidence, "after the RNR wait that ended at " + at(rnr.until())
                    + ", the resends from the resume PSN " + rnr.resume() + " are out of order",
                    new FieldDiff(order.field(), order.expected(), order.actual()));
            }
            final boolean rnrEnd = rnr.resumeDue() && psn >= rnr.resume() && time + p.toleranceNs() >= rnr.until();
            final boolean timeout = psn == una && timer.expired(time, p.toleranceNs());
            if (!eligible && !rnrEnd && !timeout) {
                final String early = psn == una ? timer.earlyRule(time, p.toleranceNs()) : timer.otherResendRule();
                final String rule = early.equals("MR-RTX-002") && loss.lostByOldEvidence(psn, nextFirst, time,
                    p.toleranceNs()) ? "MR-RTX-005" : early;
                return failure(rule, evidence, "PSN " + psn + " is retransmitted without cause: " + lossState(psn,
                    time), new FieldDiff("retransmission", "a loss event, the expiry of the retransmission timer "
                        + "(una " + una + (!timer.running() ? "" : ", due " + deadlines.atLeast(timer.expiry()))
                        + ") or the end of an RNR wait", "PSN " + psn + " at " + at(time)));
            }
            if (psn == una && !rnrEnd) {
                if (timer.exhausted()) {
                    return failure("MR-RTX-010", evidence, "una (PSN " + psn + ") is sent again after retry_cnt = "
                        + p.retryCnt() + " timeouts and loss events for it since the last progress: the retries are "
                        + "exhausted", new FieldDiff("retransmission of una", "none (QP to ERROR, RETRY_EXCEEDED)",
                            "PSN " + psn + " at " + at(time)));
                }
                timer.retry();
                if (!eligible) {
                    startTimer(time);
                    timer.resentAtExpiry();
                }
            }
        }
        final int last = work.isRead() ? work.lastPsn() : psn;
        for (int q = psn; q <= last; q++) {
            if (!delivered(q)) {
                loss.resent(q, time);
            }
        }
        return null;
    }

    /**
     * MR-RTX-006 (MR-RTX-017, MR-RTX-018) on a retransmission: the oracle's {@link RequesterRepeat} against the first
     * transmission kept, or against the work request when that one cannot be compared with (a wrong ICRC); the details
     * name the fields that differ from the work request.
     */
    private StepFailure repeated(final DecodedFrame f, final SendQueueModel.Work work, final int psn,
                                 final int evidence) {
        if (!RequesterRepeat.compared(f.opcode(), psn, work.isRead() ? work.firstPsn : psn)) {
            return null;
        }
        final Finding changed = originals.check(psn, f, evidence, LIVE);
        final List<FieldDiff> details = changed != null || !originals.known(psn)
            ? model.differences(f, work, psn).stream().map(SendQueueModel.Violation::diff).toList() : List.of();
        if (changed == null && (originals.known(psn) || details.isEmpty())) {
            return null;
        }
        final String rule = changed != null ? changed.rule() : originals.rule(psn, f.tver());
        return failure(rule, evidence, "retransmission of PSN " + psn + " of " + work.describe() + " differs from "
            + (changed != null ? changed.expected() : "the packet its work request makes"), details.isEmpty()
            ? List.of(new FieldDiff(changed.field(), changed.expected(), changed.actual())) : details);
    }

    /** A loss event the device must have answered before its next first transmission (MR-RTX-003, MR-RTX-004). */
    private StepFailure pendingLossEvent(final long time, final int evidence) {
        if (rnr.held()) {
            return null;
        }
        final Finding resume = rnr.firstTransmission(una, nextFirst, this::owedAfterRnrWait, evidence, LIVE);
        if (resume != null) {
            return failure(resume.rule(), evidence, "a new PSN is sent after the RNR wait that ended at "
                + at(rnr.until()) + " before every in-flight PSN from the resume PSN was sent again",
                new FieldDiff(resume.field(), resume.expected(), resume.actual()));
        }
        final RequesterLoss.Pending due = loss.pending(una, nextFirst, time, p.toleranceNs());
        if (due == null) {
            return null;
        }
        final int x = due.psn();
        final Finding f = due.finding(evidence, LIVE);
        return failure(f.rule(), evidence, "a new PSN is sent while PSN " + x + " has a pending loss event: "
            + lossState(x, time), new FieldDiff(f.field(), f.expected(), f.actual()));
    }

    private String lossState(final int x, final long time) {
        final long retx = loss.lastRetransmission(x);
        final long later = loss.laterDeliveredAt(x);
        return loss.deliveredAfter(x, nextFirst) + " later PSN(s) delivered" + (retx == NONE ? ""
            : " since its retransmission at " + at(retx)) + " (reorder_threshold " + p.reorderThreshold() + "), "
            + (later == NONE ? "none before it" : "the first at " + at(later) + ", " + CaseRun.nanos(time - later)
            + " ago") + " (reorder_time_ns " + p.reorderTimeNs() + ")";
    }

    /**
     * The PSN an acknowledgement probe would carry (the oracle's {@link RequesterProbe}), or -1. {@code certain}: only
     * where no response could have let the WQE complete under MR-CMP-015 (where a probe is required, not allowed).
     */
    private int awaited(final boolean certain) {
        return RequesterProbe.awaited(queue, certain ? Math.max(ackCumulative, respondedBefore) : ackCumulative);
    }

    /** Its send queue as section 13.4 sees it, for the oracle's {@link RequesterProbe}. */
    private final RequesterProbe.SendQueue queue = new RequesterProbe.SendQueue() {
        @Override
        public int una() {
            return una;
        }

        @Override
        public int nextPsn() {
            return nextFirst;
        }

        @Override
        public boolean sendOrWrite(final int psn) {
            final SendQueueModel.Work work = loss.transmissions(psn) > 0 ? model.byPsn(psn) : null;
            return work != null && !work.isReadOrAtomic();
        }
    };

    private void startTimer(final long time) {
        timer.start(time, loss.undelivered(una, nextFirst));
    }

    /**
     * MR-CMP-012 on a completion the device gave (see {@link AckedCompletions}): a SEND or RDMA WRITE completes with
     * SUCCESS only after the acknowledgement of its last PSN.
     */
    StepFailure completed(final org.metaroce.mrct.spi.Completion c) {
        answers.releaseAll(this::took);
        return completions.completed(c, model.works(), ackCumulative, respondedBefore);
    }

    // ------------------------------------------------------------------ frames to the device

    /** A frame the device received at {@code time} (evidence index or -1): taken after the requests stamped before. */
    void toDevice(final DecodedFrame f, final long time, final int evidence) {
        answers.add(f, time, evidence);
    }

    private void took(final DecodedFrame f, final long time, final int evidence) {
        if (!f.isRoce()) {
            return;
        }
        final Opcode opcode = f.opcode();
        if (opcode == Opcode.CNP) {
            cnps.add(time);
            return;
        }
        final int before = una;
        timer.settled();
        completions.noteDropped(f, time, view, model, this::relative, p.legacy());
        if (opcode == Opcode.ACKNOWLEDGE) {
            if (RequesterAnswers.acknowledge(f, view).taken()) {
                acknowledge(f, time, evidence);
            }
        } else if (opcode.kind() == OpKind.RDMA_READ_RESPONSE) {
            final int psn = relative(f.bth().psn());
            final SendQueueModel.Work work = psn < Psn.HALF ? model.byPsn(psn) : null;
            if (RequesterAnswers.readResponse(f, view).taken()
                && (p.legacy() ? legacyAccepts(f, work, psn) : model.fitsReadResponse(f, work, psn))) {
                readEvidence.set(work.firstPsn);
                respondedBefore = Math.max(respondedBefore, work.firstPsn);
                deliver(psn, time);
            }
        } else if (opcode == Opcode.ATOMIC_ACKNOWLEDGE) {
            final int psn = relative(f.bth().psn());
            final SendQueueModel.Work work = psn < Psn.HALF ? model.byPsn(psn) : null;
            if (work != null && work.isAtomic() && psn < nextFirst) {
                respondedBefore = Math.max(respondedBefore, work.firstPsn);
                deliver(psn, time);
            }
        }
        while (una < nextFirst && delivered(una)) {
            una++;
        }
        if (una != before || cumulativeByResponse(f)) {
            timer.progress();
        }
        if (una != before) {
            rnr.progress();
            if (una < nextFirst) {
                timer.progressed(time, loss.undelivered(una, nextFirst));
            } else if (awaited(true) >= 0) {
                timer.startProbe(time);
            } else {
                timer.stop();
            }
        } else if (una >= nextFirst && awaited(true) < 0) {
            timer.stop();
        }
    }

    /** Its PSN space, for Table 11-4 (the oracle's {@link RequesterAnswers}): a dropped answer teaches it nothing. */
    private final RequesterState view = new RequesterState() {
        @Override
        public boolean legacy() {
            return p.legacy();
        }

        @Override
        public int nextPsn() {
            return Psn.add(connection.devicePsnBase(), nextFirst);
        }

        @Override
        public boolean outstanding(final int psn) {
            return relative(psn) < nextFirst && !delivered(relative(psn));
        }

        @Override
        public boolean inReadSpan(final int psn) {
            final int q = relative(psn);
            return q < nextFirst && model.byPsn(q) != null && model.byPsn(q).isRead();
        }
    };

    /**
     * A read response or atomic acknowledgement for a request after una: a device using MR-CMP-015 (a MAY) takes it as
     * a cumulative acknowledgement, so it may have made progress the checker does not model; its retry counter may
     * have been reset (MR-RTX-011), and the checker gives it that benefit when judging MR-RTX-010.
     */
    private boolean cumulativeByResponse(final DecodedFrame f) {
        if (f.opcode().kind() != OpKind.RDMA_READ_RESPONSE && f.opcode() != Opcode.ATOMIC_ACKNOWLEDGE) {
            return false;
        }
        final int psn = relative(f.bth().psn());
        final SendQueueModel.Work work = psn < Psn.HALF ? model.byPsn(psn) : null;
        return work != null && work.firstPsn > una;
    }

    private void acknowledge(final DecodedFrame f, final long time, final int evidence) {
        final int syndrome = f.aeth().syndromeValue();
        if (f.has(HeaderKind.SACKETH)) {
            final int base = relative(f.sacketh().basePsn());
            final long bitmap = f.sacketh().bitmap();
            if (base < Psn.HALF) {
                ackCumulative = Math.max(ackCumulative, Math.min(base, nextFirst));
                for (int q = una; q < Math.min(base, nextFirst); q++) {
                    deliverByAck(q, time);
                }
                for (int i = 1; i < 64; i++) {
                    if ((bitmap << i) < 0 && base + i < nextFirst) {
                        deliverByAck(base + i, time);
                    }
                }
            }
        } else if (syndrome == 0x1F || p.legacy() && syndrome == 0x60) {
            // a tver 0 ACK acknowledges up to bth.psn; a NAK 0x60 names the first PSN not received (MR-LEG-008)
            final int cumulative = relative(syndrome == 0x60 ? f.bth().psn() : Psn.add(f.bth().psn(), 1));
            if (cumulative < Psn.HALF) {
                ackCumulative = Math.max(ackCumulative, Math.min(cumulative, nextFirst));
            }
            for (int q = una; cumulative < Psn.HALF && q < Math.min(cumulative, nextFirst); q++) {
                deliverByAck(q, time);
            }
            if (syndrome == 0x60 && cumulative < nextFirst) {
                goBack.onNak(cumulative, nextFirst, time, evidence);
            }
        }
        if ((syndrome & 0xE0) == 0x20 && p.legacy()) {
            goBack.onRnrNak(relative(f.bth().psn()));
        }
        if ((syndrome & 0xE0) == 0x20 && !p.legacy()) {
            final int psn = relative(f.bth().psn());
            if (psn < nextFirst && !delivered(psn)) {
                if (una < nextFirst && delivered(una)) {
                    rnr.progress(); // the NAK's cumulative point moved una first (section 13.5)
                }
                if (rnr.onNak(time, psn, syndrome & 0x1F) != RequesterRnr.Nak.DURING) {
                    timer.stop();
                }
            }
        }
    }

    /**
     * A tver 0 requester accepts only the next expected response of a READ (MR-LEG-010), with the opcode of its
     * position in the read the latest READ REQUEST asked for: a request for the rest of a read from PSN s is answered
     * as a new read, FIRST (or ONLY) at s.
     */
    private boolean legacyAccepts(final DecodedFrame f, final SendQueueModel.Work work, final int psn) {
        if (psn > work.firstPsn && !delivered(psn - 1)) {
            return false;
        }
        final int start = legacyReadFrom.getOrDefault(work.firstPsn, work.firstPsn);
        final Opcode expected = work.lastPsn() == start ? Opcode.RDMA_READ_RESPONSE_ONLY : psn == start
            ? Opcode.RDMA_READ_RESPONSE_FIRST : psn == work.lastPsn() ? Opcode.RDMA_READ_RESPONSE_LAST
            : Opcode.RDMA_READ_RESPONSE_MIDDLE;
        return psn >= start && f.opcode() == expected;
    }

    /** A cumulative point or SACK bit: delivers SEND and WRITE PSNs, and is evidence that a READ arrived. */
    private void deliverByAck(final int psn, final long time) {
        final SendQueueModel.Work work = model.byPsn(psn);
        if (work == null) {
            return;
        }
        if (work.isReadOrAtomic()) {
            readEvidence.set(work.firstPsn);
            return;
        }
        deliver(psn, time);
    }

    private void deliver(final int psn, final long time) {
        loss.deliver(psn, una, time);
    }

    // ------------------------------------------------------------------ observations

    List<Sent> sent() {
        return sent;
    }

    List<Long> cnps() {
        answers.releaseAll(this::took);
        return cnps;
    }

    int maxInFlight() {
        return maxInFlight;
    }

    /** Transmissions of relative PSN {@code psn} (0 when never sent). */
    int transmissions(final int psn) {
        return loss.transmissions(psn);
    }

    /** Distinct PSNs sent. */
    int firstTransmissions() {
        return nextFirst;
    }

    private String at(final long time) {
        return deadlines.at(time);
    }
}

package org.metaroce.mrct.reference.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The reference NIC as a whole: port, QPs, memory, counters, the virtual clock and the frames it has sent. Received
 * frames enter through {@link #receive}; sent frames leave through {@link #outbox()} with their virtual timestamps.
 * Everything runs on the caller's thread; nothing here is thread-safe.
 */
public final class Device implements ControlPlane {
    /** bth.pkey of every CNP sent (Table 2-11, v1.1). */
    static final int CNP_PKEY = 0xFFFF;
    final DeviceConfig config;
    final Scheduler scheduler = new Scheduler();
    final MemoryTable memory = new MemoryTable();
    final QpTable qps = new QpTable();
    final long[] counters = new long[Counter.all().length];
    final FrameWriter writer = new FrameWriter();
    final Responder responder;
    final ReceivePipeline pipeline;
    private final ArrayDeque<CapturedFrame> outbox = new ArrayDeque<>();
    private final Map<String, Long> scopeCnpTimes = new HashMap<>();
    /** Fault cnp-sent-when-hold-ends: the scopes with an indication kept for the end of their holding time. */
    private final java.util.Set<String> heldIndications = new java.util.HashSet<>();
    private int nextQpn = 0x100;

    private DcqcnParameters defaultDcqcn;

    public Device(final DeviceConfig config) {
        this.config = config;
        this.responder = new Responder(this);
        this.pipeline = new ReceivePipeline(this);
    }

    // ------------------------------------------------------------------ data plane

    /** Processes one received frame now. */
    public void receive(final byte[] frame) {
        pipeline.process(frame);
    }

    /** Frames sent so far and not yet taken, oldest first. */
    public ArrayDeque<CapturedFrame> outbox() {
        return outbox;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    boolean has(final Fault fault) {
        return config.has(fault);
    }

    /** 1 with the fault on, else 0: the "one too many" of off-by-one faults. */
    int plus(final Fault fault) {
        return has(fault) ? 1 : 0;
    }

    /** Sends a frame now, outside the pacer (acknowledgements, CNPs). */
    void emit(final byte[] frame) {
        outbox.addLast(new CapturedFrame(frame, scheduler.now()));
        scheduler.transmitted();
    }

    /** Queues a data frame behind the QP's pacer; {@code onSent} runs when it leaves. */
    void transmitData(final QueuePair qp, final byte[] frame, final Runnable onSent) {
        if (qp.tx == null) {
            qp.tx = new TxQueue();
        }
        if (has(Fault.READ_RESPONSES_UNPACED)) {
            emit(frame);
            if (onSent != null) {
                onSent.run();
            }
            return;
        }
        qp.tx.frames.addLast(new TxQueue.Pending(frame, onSent));
        kick(qp);
    }

    /** Makes sure the QP's pacer runs when it has something to send: responses queued or requests ready. */
    void kick(final QueuePair qp) {
        if (qp.tx == null) {
            qp.tx = new TxQueue();
        }
        if (qp.tx.drain == null && qp.isActive() && (!qp.tx.frames.isEmpty()
            || qp.requester != null && qp.requester.hasWork())) {
            qp.tx.drain = scheduler.at(Math.max(scheduler.now(), qp.tx.nextFree), () -> drain(qp));
        }
    }

    /**
     * One transmit opportunity of a QP's pacer (section 14.4): its next data frame (read responses first, then the
     * requester's next packet, retransmissions before new ones) leaves now, and the next opportunity comes when the
     * frame's bits have gone at the QP's current rate Rc.
     */
    private void drain(final QueuePair qp) {
        final TxQueue tx = qp.tx;
        tx.drain = null;
        if (!qp.isActive()) {
            tx.frames.clear();
            return;
        }
        final long now = scheduler.now();
        byte[] frame = null;
        Runnable onSent = null;
        while (!tx.frames.isEmpty() && !tx.frames.peekFirst().data()) {
            emit(tx.frames.pollFirst().frame()); // a TVer 0 acknowledgement whose turn has come (not paced)
        }
        if (!tx.frames.isEmpty()) {
            final TxQueue.Pending pending = tx.frames.pollFirst();
            frame = pending.frame();
            onSent = pending.onSent();
        } else if (qp.requester != null) {
            frame = qp.requester.next(now);
        }
        if (frame == null) {
            return;
        }
        emit(frame);
        final long bytes = frame.length + 4L;
        final Dcqcn dcqcn = dcqcn(qp);
        dcqcn.onSent(now, bytes);
        final double rate = has(Fault.PACED_AT_TARGET_RATE) ? dcqcn.target(now) : dcqcn.rate(now);
        // the gap is rarely a whole number of ns: a frame sent as early as the pacer allowed starts the next gap where
        // the exact one ended, so departures on the ns clock never drift below Rc (a gap of 1.69 ns rounded up to 2 at
        // 1.6 Tb/s would pace 15 % slow); one sent later (idle, or held by the window) starts afresh
        final double begin = now <= tx.nextFree ? tx.exactFree : now;
        tx.exactFree = begin + bytes * 8 * 1000.0 / rate;
        tx.nextFree = Math.max(now, (long) Math.ceil(tx.exactFree));
        if (onSent != null) {
            onSent.run();
        }
        while (!tx.frames.isEmpty() && !tx.frames.peekFirst().data()) {
            emit(tx.frames.pollFirst().frame()); // TVer 0 acknowledgements right behind the response they follow
        }
        kick(qp);
    }

    Dcqcn dcqcn(final QueuePair qp) {
        if (qp.dcqcnState == null) {
            qp.dcqcnState = new Dcqcn(qp.dcqcn, scheduler.now(), config.faults());
        }
        return qp.dcqcnState;
    }

    void count(final Counter counter, final QueuePair qp) {
        counters[counter.ordinal()]++;
        if (qp != null) {
            qp.count(counter);
        }
    }

    /** UDP source port of a QP's frames (spraying varies it per data packet elsewhere). */
    int sourcePort(final QueuePair qp) {
        return qp.udpSport >= 0 ? qp.udpSport : (has(Fault.SPORT_WITHOUT_HIGH_BITS) ? 0 : 0xC000) | (qp.qpn & 0x3FFF);
    }

    /**
     * UDP source port of a data packet: the QP's port, or with spraying a port that rotates over 64 values of
     * 0xC000-0xFFFF, so every 16 consecutive packets use 16 different ports and all are used equally (section 15).
     */
    int dataSourcePort(final QueuePair qp) {
        final boolean spray = qp.spray || has(Fault.SPORT_SPRAYED_WITHOUT_SPRAY)
            && config.claims("multipath-spraying");
        if (!spray || has(Fault.CONSTANT_SPORT_WITH_SPRAY)) {
            return sourcePort(qp);
        }
        final int index = qp.sprayIndex++;
        return 0xC000 | (((qp.qpn & 0xFF) << 6) + (index & 0x3F)) & 0x3FFF;
    }

    // ------------------------------------------------------------------ acknowledgement frames

    /** The cumulative point the next ACK names instead of ePSN (the fault DUPLICATE_ACKED_AT_ITS_PSN), or -1. */
    int duplicateAckPoint = -1;

    /** Sends the current ACK of a TVer 1 QP (Table 5-1, column ACK). */
    void sendAck(final QueuePair qp) {
        final int point = duplicateAckPoint >= 0 ? duplicateAckPoint : qp.ePsn;
        sendAcknowledge(qp, Psn.add(point, has(Fault.ACK_PSN_EPSN) ? 0 : -1), AethSyndrome.ACK.value());
        count(Counter.ACK_SENT, qp);
    }

    /** Sends a NAK (0x61, 0x62, 0x63) for the packet at {@code psn}. */
    void sendNak(final QueuePair qp, final int psn, final int syndrome) {
        sendAcknowledge(qp, has(Fault.NAK_PSN_EPSN) ? Psn.add(qp.ePsn, -1) : psn, syndrome);
        count(Counter.NAK_SENT, qp);
    }

    /** Sends an RNR NAK for the packet at {@code psn}. */
    void sendRnrNak(final QueuePair qp, final int psn) {
        sendAcknowledge(qp, psn, AethSyndrome.rnrNak(has(Fault.RNR_TIMER_DEVICE_DEFAULT)
            ? (int) config.number("min_rnr_timer", 1) : qp.minRnrTimer).value());
        count(has(Fault.RNR_NAK_COUNTED_AS_NAK) ? Counter.NAK_SENT : Counter.RNR_NAK_SENT, qp);
    }

    private void sendAcknowledge(final QueuePair qp, final int psn, final int syndrome) {
        if (!qp.isActive()) {
            return;
        }
        final boolean sacketh = qp.tver == 1 && !(has(Fault.ACK_WITHOUT_SACKETH) && (qp.window == null
            || qp.window.bitmap(qp.ePsn) == 0)) || qp.tver == 0 && has(Fault.LEGACY_ACK_WITH_SACKETH);
        final FrameWriter.Draft d = writer.begin(qp.encapsulation, Opcode.ACKNOWLEDGE, sacketh ? 1 : 0, 0,
            FrameWriter.NOT_ECT, sourcePort(qp), qp.destQp(), qp.pkey, psn, false);
        d.buffer.put(d.bth + 1, (byte) (d.buffer.get(d.bth + 1) & 0xF0 | qp.tver)); // bth.tver: the QP's
        writer.aeth(d, syndrome, reportedMsn(qp));
        if (sacketh) {
            int base = duplicateAckPoint >= 0 ? duplicateAckPoint : qp.ePsn;
            duplicateAckPoint = -1;
            long bitmap = qp.window == null ? 0 : qp.window.bitmap(qp.ePsn);
            if (has(Fault.STALE_SACK_BASE)) {
                base = qp.lastReportedBase;
            }
            if (has(Fault.NO_SACK)) {
                bitmap = 0;
            }
            qp.lastReportedBase = qp.ePsn;
            writer.sacketh(d, base, bitmap);
        }
        if (syndrome >= 0x61 && syndrome <= 0x63) {
            emit(writer.finish(d)); // a NAK that ends the QP leaves at once (the QP's queue is dropped with it)
        } else {
            emitAcknowledgement(qp, writer.finish(d));
        }
    }

    /**
     * Sends an acknowledgement frame (ACK, NAK 0x60, RNR NAK, ATOMIC ACKNOWLEDGE). On a TVer 0 QP it waits behind the
     * read responses queued before it, so that responses leave in PSN order as a RoCEv2 requester expects (rule
     * MR-LEG-012); it is not paced itself.
     */
    void emitAcknowledgement(final QueuePair qp, final byte[] frame) {
        if (qp.tver == 0 && qp.tx != null && !qp.tx.frames.isEmpty()) {
            qp.tx.frames.addLast(new TxQueue.Pending(frame, null, false));
            kick(qp);
            return;
        }
        emit(frame);
    }

    /** aeth.msn as sent (faults aside, the responder MSN). */
    int reportedMsn(final QueuePair qp) {
        return (qp.msn + (has(Fault.MSN_OFF_BY_ONE) ? 1 : 0)) & Psn.MASK;
    }

    /** Sends a CNP to the peer of {@code qp} (Table 2-11: P_Key 0xFFFF whatever the QP's, as RoCEv2 NICs do). */
    void sendCnp(final QueuePair qp) {
        final Encapsulation cnpPath = qp.encapsulation.withDscp((int) config.number("cnp_dscp", 48));
        final FrameWriter.Draft d = writer.begin(cnpPath, Opcode.CNP, 0, 0, has(Fault.CNP_MARKED_CE) ? 3
            : FrameWriter.NOT_ECT, sourcePort(qp), has(Fault.CNP_TO_OWN_QPN) ? qp.qpn : qp.destQpn, CNP_PKEY,
            has(Fault.CNP_PSN_FROM_QP) ? qp.ePsn : 0, false);
        writer.skip(d, 16);
        emit(writer.finish(d));
        count(Counter.CNP_SENT, qp);
    }

    /** The notification point: a congestion indication on {@code qp} (Table 14-1). */
    void congestionIndication(final QueuePair qp) {
        if (has(Fault.NO_CNP)) {
            return;
        }
        final long now = scheduler.now();
        final String scope = cnpScope(qp);
        final Long last = scopeCnpTimes.get(scope);
        final long interval = config.number("cnp_interval_ns", 50_000);
        if (last != null && now - last < interval && !has(Fault.UNPACED_CNP)) {
            if (has(Fault.CNP_SENT_WHEN_HOLD_ENDS) && heldIndications.add(scope)) {
                // the bug: the indication is kept instead of forgotten, and answered when the holding time ends
                scheduler.at(last + interval, () -> {
                    if (heldIndications.remove(scope)) {
                        scopeCnpTimes.put(scope, scheduler.now());
                        sendCnp(qp);
                    }
                });
            }
            return;
        }
        scopeCnpTimes.put(scope, now);
        sendCnp(qp);
    }

    /** The CNP pacing scope of {@code qp} under the declared cnp_scope (section 14.2). */
    private String cnpScope(final QueuePair qp) {
        return switch (config.word("cnp_scope", "per-qp")) {
            case "per-destination" -> "ip:" + java.util.Arrays.toString(qp.destIp);
            case "per-port" -> "port";
            default -> "qp:" + qp.qpn;
        };
    }

    /**
     * Section 3.3: a QP entering RTR has sent no CNP yet in its pacing scope. A per-QP scope is the QP's own and starts
     * afresh; a per-destination or per-port scope is shared with other QPs and keeps its state.
     */
    void resetCnpScope(final QueuePair qp) {
        if ("per-qp".equals(config.word("cnp_scope", "per-qp"))) {
            scopeCnpTimes.remove(cnpScope(qp));
        }
    }

    // ------------------------------------------------------------------ errors

    /**
     * Moves a QP to ERROR (section 7.6): every uncompleted receive WQE completes FLUSHED, in index order, except the
     * one at {@code errorIndex}, which gets {@code status}; pending transmissions are discarded.
     */
    void fatal(final QueuePair qp, final long errorIndex, final CompletionStatus status) {
        if (qp.state == QpState.ERROR) {
            return;
        }
        enterError(qp, errorIndex, status);
        if (has(Fault.ERROR_LEAKS_TO_OTHER_QP)) {
            for (final QueuePair other : new ArrayList<>(qps.values())) {
                if (other != qp && other.pd == qp.pd && other.state != QpState.ERROR) {
                    enterError(other, -1, CompletionStatus.FLUSHED);
                }
            }
        }
    }

    private void enterError(final QueuePair qp, final long errorIndex, final CompletionStatus status) {
        qp.state = QpState.ERROR;
        if (qp.requester != null) {
            qp.requester.flush();
        }
        if (qp.heldSends != null) {
            for (final org.metaroce.mrct.spi.SendWqe wqe : qp.heldSends) {
                qp.completions().addLast(new Completion(qp.qpn, wqe.wrId(), wqe.opcode(), CompletionStatus.FLUSHED, 0,
                    0, false, 0, false, false, scheduler.now()));
            }
            qp.heldSends = null;
        }
        for (long index = qp.receiveBase; index < qp.receiveBase + qp.receives.size(); index++) {
            final ReceiveWqe wqe = qp.receive(index);
            qp.completions().addLast(new Completion(qp.qpn, wqe.wrId(), WorkOpcode.RECV,
                index == errorIndex ? status : CompletionStatus.FLUSHED, 0, 0, false, 0, false, false,
                scheduler.now()));
        }
        qp.receiveBase += qp.receives.size();
        qp.receives.clear();
        if (qp.tx != null) {
            qp.tx.frames.clear();
            if (qp.tx.drain != null) {
                qp.tx.drain.cancel();
                qp.tx.drain = null;
            }
        }
        qp.window = null;
    }

    /** Posts a receive completion (section 7.2). */
    void completeReceive(final QueuePair qp, final ReceiveWqe wqe, final WorkOpcode opcode, final long length,
                         final Recorded last) {
        qp.completions().addLast(new Completion(qp.qpn, wqe.wrId(), opcode, CompletionStatus.SUCCESS, length,
            last.immediate, last.hasImmediate, last.invalidateRkey, last.hasInvalidate && opcode == WorkOpcode.RECV,
            last.solicited, scheduler.now()));
    }

    // ------------------------------------------------------------------ control plane

    public int allocatePd() {
        return memory.allocatePd();
    }

    public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
        if (!memory.pdExists(pd)) {
            throw new RejectedException("protection domain " + pd + " does not exist");
        }
        if (length < 0 || length > (1L << 28)) {
            throw new RejectedException("region length " + length + " is outside 0..2^28 (the reference NIC's limit)");
        }
        final MemoryRegionState mr = memory.register(pd, (int) length, access);
        return new MemoryRegion(pd, mr.va, length, mr.lkey, mr.rkey, access);
    }

    public void invalidateRkey(final int rkey) {
        final MemoryRegionState mr = memory.byRkey(rkey);
        if (mr == null) {
            throw new RejectedException("no region has R_Key 0x" + Integer.toHexString(rkey));
        }
        mr.rkeyValid = false;
    }

    public void deregisterMr(final int lkey) {
        final MemoryRegionState mr = memory.byLkey(lkey);
        if (mr == null) {
            throw new RejectedException("no region has L_Key 0x" + Integer.toHexString(lkey));
        }
        memory.deregister(mr);
    }

    public byte[] readMemory(final long va, final int length) {
        try {
            return memory.read(va, length);
        } catch (IllegalArgumentException e) {
            throw new RejectedException(e.getMessage());
        }
    }

    public void writeMemory(final long va, final byte[] data) {
        try {
            memory.write(va, data);
        } catch (IllegalArgumentException e) {
            throw new RejectedException(e.getMessage());
        }
    }

    public int createQp(final QpAttributes attributes) {
        if (qps.size() >= config.number("max_qp", 65536)) {
            throw new RejectedException("max_qp (" + config.number("max_qp", 65536) + ") QPs exist already");
        }
        final QueuePair qp = new QueuePair(nextQpn++);
        applyDefaults(qp);
        QpControl.apply(this, qp, attributes);
        qps.put(qp);
        return qp.qpn;
    }

    private void applyDefaults(final QueuePair qp) {
        qp.pmtu = (int) config.number("pmtu", 1024);
        qp.recvWindow = (int) config.number("recv_window", 128);
        qp.sendWindow = (int) config.number("send_window", 128);
        qp.ackReqInterval = (int) config.number("ack_req_interval", 64);
        qp.rtoLowNs = config.number("rto_low_ns", 100_000);
        qp.rtoHighNs = config.number("rto_high_ns", 320_000);
        qp.nLow = (int) config.number("n_low", 3);
        qp.reorderThreshold = (int) config.number("reorder_threshold", 16);
        qp.reorderTimeNs = config.number("reorder_time_ns", 25_000);
        qp.retryCnt = (int) config.number("retry_cnt", 7);
        qp.rnrRetry = (int) config.number("rnr_retry", 7);
        qp.minRnrTimer = (int) config.number("min_rnr_timer", 1);
        qp.maxRdAtomic = (int) config.number("max_rd_atomic", 16);
        qp.maxDestRdAtomic = (int) config.number("max_dest_rd_atomic", 16);
        qp.dscp = (int) config.number("data_dscp", 26);
        if (defaultDcqcn == null) {
            // one immutable record shared by every QP that keeps the declared constants
            defaultDcqcn = new DcqcnParameters(config.ratio("line_rate_mbps", 100_000),
                config.ratio("dcqcn_g", 1.0 / 256), config.ratio("dcqcn_alpha_init", 1.0),
                config.number("dcqcn_alpha_timer_ns", 55_000), config.number("dcqcn_rate_timer_ns", 55_000),
                config.number("dcqcn_byte_counter", 10_485_760), (int) config.number("dcqcn_f", 5),
                config.ratio("dcqcn_rai_mbps", 40), config.ratio("dcqcn_rhai_mbps", 400),
                config.ratio("dcqcn_min_rate_mbps", 10));
        }
        qp.dcqcn = defaultDcqcn;
    }

    public void modifyQp(final int qpn, final QpState target, final QpAttributes attributes) {
        QpControl.modify(this, require(qpn), target, attributes);
    }

    public QpState queryQp(final int qpn) {
        return require(qpn).state;
    }

    public void destroyQp(final int qpn) {
        qps.remove(require(qpn).qpn);
    }

    public void postReceive(final int qpn, final ReceiveWqe wqe) {
        final QueuePair qp = require(qpn);
        if (qp.state == QpState.RESET) {
            throw new RejectedException("QP 0x" + Integer.toHexString(qpn) + " is in RESET");
        }
        final MemoryRegionState mr = memory.byLkey(wqe.lkey());
        if (mr == null || !mr.registered || mr.pd != qp.pd || !mr.contains(wqe.va(), wqe.length())) {
            throw new RejectedException("receive buffer [0x" + Long.toHexString(wqe.va()) + ", +" + wqe.length()
                + ") is not inside a region of the QP's PD with that L_Key");
        }
        if (qp.state == QpState.ERROR && !has(Fault.RECEIVE_QUEUED_IN_ERROR)) {
            qp.completions().addLast(new Completion(qp.qpn, wqe.wrId(), WorkOpcode.RECV, CompletionStatus.FLUSHED, 0,
                0, false, 0, false, false, scheduler.now()));
            return;
        }
        qp.receives.add(wqe);
        qp.receivesPosted++;
    }

    public void postSend(final int qpn, final org.metaroce.mrct.spi.SendWqe wqe) {
        final QueuePair qp = require(qpn);
        switch (qp.state) {
            case RESET -> throw new RejectedException("QP 0x" + Integer.toHexString(qpn) + " is in RESET");
            case ERROR -> qp.completions().addLast(new Completion(qp.qpn, wqe.wrId(), wqe.opcode(),
                CompletionStatus.FLUSHED, 0, 0, false, 0, false, false, scheduler.now()));
            case RTS -> {
                qp.requester.post(wqe);
                kick(qp);
            }
            default -> {
                if (qp.heldSends == null) {
                    qp.heldSends = new ArrayList<>();
                }
                qp.heldSends.add(wqe);
            }
        }
    }

    public List<Completion> pollCompletions(final int qpn, final int max) {
        final QueuePair qp = require(qpn);
        final List<Completion> out = new ArrayList<>();
        while (qp.completions != null && !qp.completions.isEmpty() && out.size() < max) {
            out.add(qp.completions.pollFirst());
        }
        return out;
    }

    /** Device totals by Appendix C name. */
    public Map<String, Long> counters() {
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final Counter counter : Counter.all()) {
            out.put(counter.label(), counters[counter.ordinal()]);
        }
        return out;
    }

    /** A QP's own counters by Appendix C name (the per-QP ones). */
    public Map<String, Long> qpCounters(final int qpn) {
        final QueuePair qp = require(qpn);
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final Counter counter : Counter.all()) {
            if (counter.perQp()) {
                out.put(counter.label(), qp.counters == null ? 0 : qp.counters[counter.ordinal()]);
            }
        }
        return out;
    }

    /** Back to the state of a new device (the clock keeps running). */
    public void reset() {
        qps.clear();
        memory.clear();
        java.util.Arrays.fill(counters, 0);
        outbox.clear();
        scheduler.clear();
        scopeCnpTimes.clear();
        heldIndications.clear();
        nextQpn = 0x100;
    }

    QueuePair require(final int qpn) {
        final QueuePair qp = qps.get(qpn);
        if (qp == null) {
            throw new RejectedException("no QP 0x" + Integer.toHexString(qpn));
        }
        return qp;
    }

    /** The access bits of a set of rights. */
    static int accessBits(final Set<Access> access) {
        int bits = 0;
        for (final Access right : access) {
            bits |= switch (right) {
                case REMOTE_WRITE -> QueuePair.ACCESS_WRITE;
                case REMOTE_READ -> QueuePair.ACCESS_READ;
                case REMOTE_ATOMIC -> QueuePair.ACCESS_ATOMIC;
                default -> 0;
            };
        }
        return bits;
    }

    /** The rights named by access bits. */
    static Set<Access> access(final int bits) {
        final Set<Access> out = EnumSet.noneOf(Access.class);
        if ((bits & QueuePair.ACCESS_WRITE) != 0) {
            out.add(Access.REMOTE_WRITE);
        }
        if ((bits & QueuePair.ACCESS_READ) != 0) {
            out.add(Access.REMOTE_READ);
        }
        if ((bits & QueuePair.ACCESS_ATOMIC) != 0) {
            out.add(Access.REMOTE_ATOMIC);
        }
        return out;
    }
}

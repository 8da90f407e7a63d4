package org.metaroce.mrct.reference.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.wire.Encapsulation;

/**
 * One QP of the reference NIC: its attributes (Table B-2), its responder state (section 4.1) and, when it sends, its
 * requester state. Everything that only some QPs need (the arrival window, receive WQEs, completions, per-QP counters,
 * the transmit queue, the replay cache) is allocated on first use, so an idle QP stays small (a case creates 65,536).
 */
final class QueuePair {
    /** Access bits of the QP's access attribute. */
    static final int ACCESS_WRITE = 1;
    static final int ACCESS_READ = 2;
    static final int ACCESS_ATOMIC = 4;

    final int qpn;
    QpState state = QpState.RESET;

    // attributes
    int pd;
    int destQpn;
    byte[] destIp;
    long destMac;
    int sqPsn;
    int rqPsn;
    int pmtu;
    int recvWindow;
    int sendWindow;
    int ackReqInterval;
    long rtoLowNs;
    long rtoHighNs;
    int nLow;
    int reorderThreshold;
    long reorderTimeNs;
    int retryCnt;
    int rnrRetry;
    int minRnrTimer;
    int maxRdAtomic;
    int maxDestRdAtomic;
    int access;
    int pkey = 0xFFFF;
    int tver = 1;
    boolean spray;
    int udpSport = -1;
    int dscp;
    int vlan = Encapsulation.NO_VLAN;
    DcqcnParameters dcqcn;

    /** Headers of every frame the QP sends to its peer (built on entering RTR). */
    Encapsulation encapsulation;

    // responder state (section 4.1)
    int ePsn;
    int msn;
    int expectedRsn;
    /** Index (from 0, counting every WQE ever posted) of the receive WQE the expected RSN names. */
    long expectedRsnIndex;
    boolean seqSeen;
    int seqMsn;
    boolean seqLast;
    int seqFamily;
    long seqOffset;
    long seqRethVa;
    int seqRethRkey;
    long seqRethLength;
    RxWindow window;
    int rdAtomicOutstanding;
    ArrayDeque<long[]> replayCache;
    /** Section 8.4 (v1.1): the spans {first PSN, PSNs} of the last max_dest_rd_atomic READs executed. */
    ArrayDeque<int[]> heldReads;
    /** Legacy responder: a NAK 0x60 was sent and no in-order packet accepted since. */
    boolean legacyNakSent;
    /** Legacy responder: the open message's write address, running offset and family. */
    long legacyWriteVa;
    long legacyOffset;
    int legacyFamily = -1;
    /** Faults: the ePSN reported in the previous acknowledgement frame. */
    int lastReportedBase;

    // receive queue
    final List<ReceiveWqe> receives = new ArrayList<>(0);
    /** Index of {@code receives.get(0)} among all WQEs posted since the QP left RESET. */
    long receiveBase;
    long receivesPosted;

    ArrayDeque<Completion> completions;
    long[] counters;
    TxQueue tx;
    long lastCnpTime = Long.MIN_VALUE;
    /** Spraying: how many data packets have been given a port. */
    int sprayIndex;
    Dcqcn dcqcnState;
    /** The requester, from the moment the QP enters RTS. */
    Requester requester;
    /** Send WQEs posted in INIT or RTR, held until RTS (Table 3-1). */
    java.util.List<org.metaroce.mrct.spi.SendWqe> heldSends;

    QueuePair(final int qpn) {
        this.qpn = qpn;
    }

    /** The peer's QPN as sent in bth.dqpn. */
    int destQp() {
        return destQpn;
    }

    boolean isActive() {
        return state == QpState.RTR || state == QpState.RTS;
    }

    RxWindow window() {
        if (window == null) {
            window = new RxWindow();
        }
        return window;
    }

    ArrayDeque<Completion> completions() {
        if (completions == null) {
            completions = new ArrayDeque<>();
        }
        return completions;
    }

    /** The posted receive WQE with this overall index, or null when not (or no longer) held. */
    ReceiveWqe receive(final long index) {
        final long at = index - receiveBase;
        return at >= 0 && at < receives.size() ? receives.get((int) at) : null;
    }

    void count(final Counter counter) {
        if (counter.perQp()) {
            if (counters == null) {
                counters = new long[Counter.all().length];
            }
            counters[counter.ordinal()]++;
        }
    }
}

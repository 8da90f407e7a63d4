package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.QpFacts;
import org.metaroce.mrct.oracle.QpStream;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.Psn;

/**
 * One connection of a running case: the QP on the device, the harness's end of it (QPN, PSN spaces, requester
 * counters) and the model of what a conforming responder holds.
 */
final class Connection {
    private static final Basis PKEY = Basis.configured("the QP's pkey attribute");

    /** A receive buffer the case posted. */
    record Receive(long wrId, long va, int length, Region region) {
    }

    final String name;
    final int pd;
    final int deviceQpn;
    final int peerQpn;
    /** Initial PSN of the harness's requests (the device's rq_psn): space A. A RESET and a new rq_psn change it. */
    int psnBase;
    /** Initial PSN of the device's requests (its sq_psn): space B. A RESET and a new sq_psn change it. */
    int devicePsnBase;
    final Encapsulation toDevice;
    final int tver;
    final int pkey;
    final int pmtu;
    final int recvWindow;
    ResponderModel model;
    final List<Receive> receives = new ArrayList<>();
    /** The attributes the QP was created with; given again on the first modification after a RESET. */
    QpAttributes created = QpAttributes.empty();
    /** True from a modification to RESET until the next modification, which re-supplies {@link #created}. */
    boolean needsAttributes;
    /** True from a modification to RESET until the QP is back in RTS: new rq_psn and sq_psn move the PSN spaces. */
    boolean restarting;
    /** The QP's spray attribute and its udp_sport attribute (null when the device chooses), for MR-MP-001/004. */
    boolean spray;
    Integer udpSport;
    /** The oracle's state of the frames the QP sends: its cumulative ACK (MR-ACK-010) and source ports (MR-MP-*). */
    final QpStream sent = new QpStream();

    /** Next PSN the harness sends, relative to {@link #psnBase}. */
    int nextPsn;
    /** MSN the next message of the harness gets. */
    int nextMsn;
    /** RSN the next SEND or WRITE WITH IMMEDIATE of the harness gets. */
    int nextRsn;
    /** The message being sent packet by packet through raw sends. */
    int currentMsn;
    int currentRsn;
    long currentOffset;
    long nextWrId = 1;
    /** Whether the harness's end is a peer device (requester cases through the network) rather than the case. */
    boolean peer;
    /** The protection domain of the peer's QP (peer connections). */
    int peerPd;
    /** The work requests posted on the device's send queue, as the wire must show them (requester cases). */
    SendQueueModel sendQueue;
    /** Checks every request the device sends on this connection; null until the first post_send. */
    RequesterChecker requester;
    long nextSendWrId = 1;

    Connection(final String name, final int pd, final int deviceQpn, final int peerQpn, final int psnBase,
               final int devicePsnBase, final Encapsulation toDevice, final int tver, final int pkey, final int pmtu,
               final int recvWindow) {
        this.name = name;
        this.pd = pd;
        this.deviceQpn = deviceQpn;
        this.peerQpn = peerQpn;
        this.psnBase = psnBase;
        this.devicePsnBase = devicePsnBase;
        this.toDevice = toDevice;
        this.tver = tver;
        this.pkey = pkey;
        this.pmtu = pmtu;
        this.recvWindow = recvWindow;
        this.model = new ResponderModel(recvWindow);
    }

    /**
     * Starts the harness's end of the connection afresh after the device's QP was moved to RESET (MR-QP-010): the next
     * message has PSN 0 (relative), MSN 0 and RSN 0, no receive WQE is posted, and the model holds nothing.
     */
    void restart() {
        nextPsn = 0;
        nextMsn = 0;
        nextRsn = 0;
        currentMsn = 0;
        currentRsn = 0;
        currentOffset = 0;
        receives.clear();
        model = new ResponderModel(recvWindow);
        needsAttributes = true;
        restarting = true;
        sent.restart();
    }

    /** Forgets the source ports seen so far (the QP was modified). */
    void forgetPorts() {
        sent.forgetSourcePorts();
    }

    /** What the oracle is told of the QP: everything, as the case configured it. */
    QpFacts facts() {
        return new QpFacts(tver, pkey, PKEY, spray, udpSport, psnBase);
    }

    /** Absolute PSN of a relative one in space A. */
    int absolute(final long relative) {
        return Psn.add(psnBase, (int) relative);
    }
}

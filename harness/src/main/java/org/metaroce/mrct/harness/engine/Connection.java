package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.QpFacts;
import org.metaroce.mrct.oracle.LegacyAnswers;
import org.metaroce.mrct.oracle.QpStream;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.Psn;

/**
 * One connection of a running case: the QP on the device, the harness's end of it and the model of what a conforming
 * responder holds. Its identity is fixed at creation; what changes while the case runs lives in small state objects,
 * each changed only through methods that say what happened: the PSN spaces (moved by a modification after a RESET),
 * the harness's request numbering ({@link HarnessNumbering}), the device's source ports ({@link SourcePorts}), the
 * posted receive WQEs, and the requester side (created by the first {@code post_send}).
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
    final Encapsulation toDevice;
    final int tver;
    final int pkey;
    final int pmtu;
    final int recvWindow;
    /** Whether the harness's end is a peer device (requester cases through the network) rather than the case. */
    final boolean peer;
    /** The protection domain of the peer's QP (peer connections). */
    final int peerPd;

    /** Initial PSN of the harness's requests (the device's rq_psn): space A. A RESET and a new rq_psn change it. */
    private int psnBase;
    /** Initial PSN of the device's requests (its sq_psn): space B. A RESET and a new sq_psn change it. */
    private int devicePsnBase;
    private final HarnessNumbering numbering = new HarnessNumbering();
    private final SourcePorts ports = new SourcePorts();
    /** The oracle's state of the frames the QP sends: its cumulative ACK (MR-ACK-010) and source ports (MR-MP-*). */
    private final QpStream stream = new QpStream();
    /** The oracle's state of the TVer 0 acknowledgements the device sends on this QP (MR-LEG-003). */
    private final LegacyAnswers legacyAnswers = new LegacyAnswers();
    /** The PSNs of the requests the device was sent on this QP (MR-LEG-002's record). */
    private final SentRequests sent = new SentRequests();
    private ResponderModel model;
    private final List<Receive> receives = new ArrayList<>();
    private final List<Receive> receivesView = Collections.unmodifiableList(receives);
    private long nextReceiveWrId = 1;
    /** The attributes the QP was created with; given again on the first modification after a RESET. */
    private QpAttributes created = QpAttributes.empty();
    /** True from a modification to RESET until the next modification, which re-supplies {@link #created}. */
    private boolean needsAttributes;
    /** True from a modification to RESET until the QP is back in RTS: new rq_psn and sq_psn move the PSN spaces. */
    private boolean restarting;
    /** The work requests posted on the device's send queue, as the wire must show them (requester cases). */
    private SendQueueModel sendQueue;
    /** Checks every request the device sends on this connection; null until the first post_send. */
    private RequesterChecker requester;
    private long nextSendWrId = 1;
    /**
     * Since when (ns since the case's start, as the evidence stamps frames) the case knows the device's QP is in ERROR: moved there by an accepted
     * modify_qp, or seen there by expect_qp; {@link Long#MAX_VALUE} while it is not known to be (MR-QP-005).
     */
    private long inErrorSince = Long.MAX_VALUE;

    Connection(final String name, final int pd, final int deviceQpn, final int peerQpn, final int psnBase,
               final int devicePsnBase, final Encapsulation toDevice, final int tver, final int pkey, final int pmtu,
               final int recvWindow) {
        this(name, pd, deviceQpn, peerQpn, psnBase, devicePsnBase, toDevice, tver, pkey, pmtu, recvWindow, false, 0);
    }

    Connection(final String name, final int pd, final int deviceQpn, final int peerQpn, final int psnBase,
               final int devicePsnBase, final Encapsulation toDevice, final int tver, final int pkey, final int pmtu,
               final int recvWindow, final boolean peer, final int peerPd) {
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
        this.peer = peer;
        this.peerPd = peerPd;
        this.model = new ResponderModel(recvWindow);
    }

    // ---------------------------------------------------------------- the device's QP

    /** Records the attributes the device's QP was created with (spray, udp_sport and those a RESET needs again). */
    void createdWith(final QpAttributes attributes) {
        created = attributes;
        ports.configure(attributes);
    }

    /** The attributes the QP was created with. */
    QpAttributes created() {
        return created;
    }

    /**
     * The attributes a modification to {@code target} starts from: the creation attributes on the first modification
     * after a RESET (the case's own attributes go on top), else none.
     */
    QpAttributes baseAttributesFor(final QpState target) {
        return needsAttributes && target != QpState.RESET ? created : QpAttributes.empty();
    }

    /**
     * The device accepted a modification of its QP to {@code target} with {@code attributes}. A RESET starts the
     * harness's end afresh (MR-QP-010); until the QP is back in RTS, a new rq_psn or sq_psn moves the PSN spaces. The
     * source ports seen so far are forgotten, and a new spray or udp_sport attribute takes effect.
     *
     * @return whether the PSN spaces could move (the QP was restarting after a RESET)
     */
    boolean modified(final QpState target, final QpAttributes attributes) {
        stream.forgetSourcePorts();
        if (target != QpState.ERROR) {
            inErrorSince = Long.MAX_VALUE;
        }
        if (target == QpState.RESET) {
            restart();
            return false;
        }
        needsAttributes = false;
        final boolean moved = restarting;
        if (restarting) {
            if (attributes.has(QpAttribute.RQ_PSN)) {
                psnBase = attributes.getInt(QpAttribute.RQ_PSN, psnBase) & Psn.MASK;
            }
            if (attributes.has(QpAttribute.SQ_PSN)) {
                devicePsnBase = attributes.getInt(QpAttribute.SQ_PSN, devicePsnBase) & Psn.MASK;
            }
            restarting = target != QpState.RTS;
        }
        ports.configure(attributes);
        return moved;
    }

    /** The case saw or put the device's QP in ERROR at {@code now} (an earlier time known stays). */
    void inError(final long now) {
        inErrorSince = Math.min(inErrorSince, now);
    }

    /** Whether the device's QP was known to be in ERROR when it sent a frame stamped {@code time} (MR-QP-005). */
    boolean inErrorAt(final long time) {
        return time >= inErrorSince;
    }

    /**
     * Starts the harness's end of the connection afresh after the device's QP was moved to RESET (MR-QP-010): the next
     * message has PSN 0 (relative), MSN 0 and RSN 0, no receive WQE is posted, and the model holds nothing.
     */
    void restart() {
        numbering.restart();
        receives.clear();
        model = new ResponderModel(recvWindow);
        needsAttributes = true;
        restarting = true;
        stream.restart();
        legacyAnswers.restart();
        sent.restart();
    }

    // ---------------------------------------------------------------- PSN spaces

    /** Initial PSN of the harness's requests (the device's rq_psn): space A. */
    int psnBase() {
        return psnBase;
    }

    /** Initial PSN of the device's requests (its sq_psn): space B. */
    int devicePsnBase() {
        return devicePsnBase;
    }

    /** Absolute PSN of a relative one in space A. */
    int absolute(final long relative) {
        return Psn.add(psnBase, (int) relative);
    }

    // ---------------------------------------------------------------- the harness's end

    /** The PSN, MSN and RSN the harness's next requests get. */
    HarnessNumbering numbering() {
        return numbering;
    }

    /** The udp.sport values of the device's data packets, against the QP's spray and udp_sport attributes. */
    SourcePorts ports() {
        return ports;
    }

    /** The oracle's state of the frames the device sends on this QP. */
    QpStream stream() {
        return stream;
    }

    /** The oracle's state of the TVer 0 acknowledgements the device sends on this QP. */
    LegacyAnswers legacyAnswers() {
        return legacyAnswers;
    }

    /** The PSNs of the requests the device was sent on this QP since its last RESET. */
    SentRequests sent() {
        return sent;
    }

    /** What the oracle is told of the QP: everything, as the case configured it. */
    QpFacts facts() {
        return new QpFacts(tver, pkey, PKEY, ports.spray(), ports.fixed(), psnBase);
    }

    /** What a conforming responder holds after the harness's requests (replaced on a RESET). */
    ResponderModel model() {
        return model;
    }

    /** The receive WQEs posted on the device's QP since the last RESET, in order (read-only). */
    List<Receive> receives() {
        return receivesView;
    }

    /** The work request ID of the next receive WQE posted on either end. */
    long takeReceiveWrId() {
        return nextReceiveWrId++;
    }

    /** A receive WQE was posted on the device's QP. */
    void posted(final Receive receive) {
        receives.add(receive);
    }

    // ---------------------------------------------------------------- the device as requester

    /** Checks every request the device sends on this connection; null until the first post_send. */
    RequesterChecker requester() {
        return requester;
    }

    /** The work requests posted on the device's send queue; null until the first post_send. */
    SendQueueModel sendQueue() {
        return sendQueue;
    }

    /** The device becomes a requester on this connection: its send queue and the checker of what it sends. */
    void startRequester(final SendQueueModel queue, final RequesterChecker checker) {
        sendQueue = queue;
        requester = checker;
    }

    /** The work request ID of the next send WQE the case does not number itself. */
    long takeSendWrId() {
        return nextSendWrId++;
    }
}

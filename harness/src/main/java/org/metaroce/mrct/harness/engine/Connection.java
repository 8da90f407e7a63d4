package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.Psn;

/**
 * One connection of a running case: the QP on the device, the harness's end of it (QPN, PSN spaces, requester
 * counters) and the model of what a conforming responder holds.
 */
final class Connection {
    /** A receive buffer the case posted. */
    record Receive(long wrId, long va, int length, Region region) {
    }

    final String name;
    final int pd;
    final int deviceQpn;
    final int peerQpn;
    /** Initial PSN of the harness's requests (the device's rq_psn): space A. */
    final int psnBase;
    /** Initial PSN of the device's requests (its sq_psn): space B. */
    final int devicePsnBase;
    final Encapsulation toDevice;
    final int tver;
    final int pkey;
    final int pmtu;
    final int recvWindow;
    final ResponderModel model;
    final List<Receive> receives = new ArrayList<>();

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

    /** Absolute PSN of a relative one in space A. */
    int absolute(final long relative) {
        return Psn.add(psnBase, (int) relative);
    }
}

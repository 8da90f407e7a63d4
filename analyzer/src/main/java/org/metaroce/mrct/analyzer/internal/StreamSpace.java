package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.oracle.RequesterAnswers;
import org.metaroce.mrct.oracle.RequesterProbe;
import org.metaroce.mrct.oracle.RequesterState;

/**
 * What a {@link RequesterStream}'s requester knows of its PSN space, as the oracle's requester classes ask it: Table
 * 11-4's view when an answer comes ({@link RequesterAnswers}) and the send queue of section 13.4 ({@link
 * RequesterProbe}). A PSN the capture never showed sent, but that the ring holds, counts as a SEND or WRITE one (so a
 * probe below it is not recognised).
 */
final class StreamSpace implements RequesterState, RequesterProbe.SendQueue {
    private final RequesterStream stream;
    private final boolean legacy;

    StreamSpace(final RequesterStream stream, final boolean legacy) {
        this.stream = stream;
        this.legacy = legacy;
    }

    @Override
    public boolean legacy() {
        return legacy;
    }

    @Override
    public int nextPsn() {
        return stream.next;
    }

    @Override
    public int una() {
        return stream.una;
    }

    @Override
    public boolean outstanding(final int psn) {
        final PsnRing ring = stream.ring;
        return (ring.has(psn, PsnRing.SENT) || ring.has(psn, PsnRing.READ_SPAN)) && !ring.has(psn, PsnRing.DELIVERED);
    }

    @Override
    public boolean inReadSpan(final int psn) {
        return stream.reads.requesterSpanHolds(psn);
    }

    @Override
    public boolean sendOrWrite(final int psn) {
        final PsnRing ring = stream.ring;
        return ring.holds(psn) && (ring.flags[ring.slot(psn)] & (PsnRing.READ_SPAN | PsnRing.ATOMIC)) == 0;
    }
}

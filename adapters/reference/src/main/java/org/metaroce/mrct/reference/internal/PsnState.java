package org.metaroce.mrct.reference.internal;

/** What the requester knows of one sent PSN until una passes it (MetaRoCE v1 section 13.1). */
final class PsnState {
    final SendWork work;
    /** Packet index in the message; for a READ, the index of the response PSN in the span. */
    final int index;
    boolean delivered;
    /** Sequence number of the latest transmission (first or retransmission) of this PSN. */
    long txSeq;
    /** Moment a later PSN sent after this one's latest transmission was first seen delivered; -1 when none yet. */
    long eligibleSince = -1;
    /** A loss event happened and its retransmission is queued. */
    boolean retransmitQueued;

    PsnState(final SendWork work, final int index, final long txSeq) {
        this.work = work;
        this.index = index;
        this.txSeq = txSeq;
    }
}

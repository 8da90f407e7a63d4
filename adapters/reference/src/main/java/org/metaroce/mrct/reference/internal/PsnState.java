package org.metaroce.mrct.reference.internal;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import org.metaroce.mrct.wire.Psn;

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

    /** The PSN this state is of. */
    int psn() {
        return Psn.add(work.firstPsn, index);
    }

    /** Clears the queued mark of {@code state} (when there is one) as its PSN leaves the retransmission queue. */
    static boolean unqueue(final PsnState state) {
        if (state != null) {
            state.retransmitQueued = false;
        }
        return true;
    }

    /** Puts the queued retransmissions in increasing PSN order from {@code una} (section 13.5). */
    static void sortByPsn(final ArrayDeque<Integer> queue, final int una) {
        final Integer[] order = queue.toArray(new Integer[0]);
        Arrays.sort(order, Comparator.comparingInt(p -> Psn.distance(una, p)));
        queue.clear();
        queue.addAll(Arrays.asList(order));
    }
}

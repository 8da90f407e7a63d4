package org.metaroce.mrct.reference.internal;

import java.util.HashMap;
import java.util.Map;
import org.metaroce.mrct.wire.Psn;

/**
 * The responder's arrival state beyond ePSN: which PSNs are recorded, and what each recorded packet was. Allocated
 * only while something is recorded after ePSN, so an idle QP (or one receiving in order) carries none of it.
 */
final class RxWindow {
    private final Map<Integer, Recorded> recorded = new HashMap<>();
    /** PSNs covered by recorded READ spans, mapped to the READ's first PSN. */
    private final Map<Integer, Integer> spanOwner = new HashMap<>();

    boolean isEmpty() {
        return recorded.isEmpty();
    }

    boolean isRecorded(final int psn) {
        return recorded.containsKey(psn) || spanOwner.containsKey(psn);
    }

    void record(final Recorded packet) {
        recorded.put(packet.psn, packet);
        for (int k = 1; k < packet.span; k++) {
            spanOwner.put(Psn.add(packet.psn, k), packet.psn);
        }
    }

    /** Removes and returns the packet recorded at {@code psn} (with its span), or null. */
    Recorded take(final int psn) {
        final Recorded packet = recorded.remove(psn);
        if (packet != null) {
            for (int k = 1; k < packet.span; k++) {
                spanOwner.remove(Psn.add(packet.psn, k));
            }
        }
        return packet;
    }

    /** The bitmap of recorded PSNs in [base, base + 64), most significant bit first. */
    long bitmap(final int base) {
        long bits = 0;
        for (final int psn : recorded.keySet()) {
            bits |= bit(base, psn);
        }
        for (final int psn : spanOwner.keySet()) {
            bits |= bit(base, psn);
        }
        return bits;
    }

    private static long bit(final int base, final int psn) {
        final int i = Psn.distance(base, psn);
        return i < 64 ? Long.MIN_VALUE >>> i : 0;
    }

    /** Number of recorded READ and atomic requests in the window (not executed yet). */
    int pendingReadsAndAtomics() {
        int n = 0;
        for (final Recorded packet : recorded.values()) {
            if (packet.kind() == org.metaroce.mrct.wire.OpKind.RDMA_READ_REQUEST || packet.kind().isAtomic()) {
                n++;
            }
        }
        return n;
    }
}

package org.metaroce.mrct.reference.internal;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The device's QPs by QPN. A map, plus the last QP looked up: nearly every frame names the QP the previous frame
 * named, and the responder's per-packet profile showed the boxed-key map lookup among its costs (ResponderBenchmark).
 */
final class QpTable {
    private final Map<Integer, QueuePair> byQpn = new HashMap<>();
    private QueuePair last;

    /** The QP with this QPN, or null. */
    QueuePair get(final int qpn) {
        final QueuePair cached = last;
        if (cached != null && cached.qpn == qpn) {
            return cached;
        }
        final QueuePair qp = byQpn.get(qpn);
        if (qp != null) {
            last = qp;
        }
        return qp;
    }

    /** Adds or replaces the QP under its QPN. */
    void put(final QueuePair qp) {
        byQpn.put(qp.qpn, qp);
        last = null;
    }

    void remove(final int qpn) {
        byQpn.remove(qpn);
        last = null;
    }

    void clear() {
        byQpn.clear();
        last = null;
    }

    int size() {
        return byQpn.size();
    }

    /** The QPs (a live view: copy it before changing the table while iterating). */
    Collection<QueuePair> values() {
        return byQpn.values();
    }
}

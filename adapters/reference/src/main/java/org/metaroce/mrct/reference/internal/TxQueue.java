package org.metaroce.mrct.reference.internal;

import java.util.ArrayDeque;

/**
 * A QP's pacer (MetaRoCE v1 section 14.4): data frames leave one after another, each no earlier than the previous
 * one's bits at the QP's current rate Rc allow.
 */
final class TxQueue {
    /**
     * A frame waiting for the pacer, and what to do once it has left. A frame that is not {@code data} (a TVer 0 ACK
     * queued behind read responses so that responses leave in PSN order, section 16) leaves in its turn without
     * spending the rate.
     */
    record Pending(byte[] frame, Runnable onSent, boolean data) {
        Pending(final byte[] frame, final Runnable onSent) {
            this(frame, onSent, true);
        }
    }

    final ArrayDeque<Pending> frames = new ArrayDeque<>();
    /** Earliest whole ns the next data frame may leave: {@link #exactFree} rounded up. */
    long nextFree;
    /** When the bits of the last data frame have gone at Rc, in fractional ns (the pacer's exact schedule). */
    double exactFree;
    Scheduler.Event drain;
}

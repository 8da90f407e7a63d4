package org.metaroce.mrct.reference.internal;

import java.util.ArrayDeque;

/**
 * A QP's pacer (MetaRoCE v1 section 14.4): data frames leave one after another, each no earlier than the previous
 * one's bits at the QP's current rate Rc allow.
 */
final class TxQueue {
    /** A frame waiting for the pacer, and what to do once it has left. */
    record Pending(byte[] frame, Runnable onSent) {
    }

    final ArrayDeque<Pending> frames = new ArrayDeque<>();
    long nextFree;
    Scheduler.Event drain;
}

package org.metaroce.mrct.harness.engine;

import java.util.ArrayDeque;
import org.metaroce.mrct.wire.DecodedFrame;

/**
 * The frames the harness sent to a requester device, held until the requester checker has judged every request the
 * device sent before them, so that the checker learns of both in the order of their timestamps. On a real-time adapter
 * the harness may send a frame late (the network's NAK 0x60 or ACK, due earlier) while requests stamped before that
 * send still wait in the adapter's queue: taken in the order the engine met them, the checker would believe the
 * device took the answer before sending those requests. On virtual time every request comes after the frames sent
 * before it, and each frame is handed on at once.
 */
final class HeldAnswers {
    /** Takes a frame the device received. */
    interface Taker {
        void take(DecodedFrame frame, long time, int evidence);
    }

    private record Held(DecodedFrame frame, long time, int evidence) {
    }

    private final ArrayDeque<Held> held = new ArrayDeque<>();

    /** A frame sent to the device at {@code time} ({@code evidence} its index in the case's evidence, or -1). */
    void add(final DecodedFrame frame, final long time, final int evidence) {
        held.addLast(new Held(frame, time, evidence));
    }

    /** Hands {@code taker} every frame sent at or before {@code time}, oldest first. */
    void release(final long time, final Taker taker) {
        while (!held.isEmpty() && held.peekFirst().time() <= time) {
            final Held h = held.pollFirst();
            taker.take(h.frame(), h.time(), h.evidence());
        }
    }

    /** Hands {@code taker} every frame held. */
    void releaseAll(final Taker taker) {
        release(Long.MAX_VALUE, taker);
    }
}

package org.metaroce.mrct.socket.link;

/** What a {@link Link}'s reader thread reports, in order, from that one thread. */
public interface FrameReceiver {
    /**
     * A frame seen on the link.
     *
     * @param bytes the Ethernet frame without FCS (owned by the receiver from now on)
     * @param timestampNanos when it was seen, nanoseconds since the epoch (capture timestamp where the link has one)
     */
    void frame(byte[] bytes, long timestampNanos);

    /**
     * The link had nothing more to deliver when it looked at {@code sweptAtNanos} (epoch nanoseconds, taken before
     * looking): every frame seen on the wire before that instant has been delivered.
     */
    void idle(long sweptAtNanos);

    /**
     * The link's reader waited in the kernel for frames from its last look until {@code untilNanos} and none came
     * before that instant: as {@link #idle} then, and the wait was no pause of the reader (a frame arriving during it
     * would have woken the reader at once). By default reported as a sweep, which a receiver that keeps the reader's
     * pauses counts as a pause.
     */
    default void watched(final long untilNanos) {
        idle(untilNanos);
    }
}

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
}

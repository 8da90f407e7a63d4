package org.metaroce.mrct.socket.link;

/**
 * One end of the path to the wire: frames out with {@link #send}, frames in through the {@link FrameReceiver} given
 * when the link was opened, on the link's own reader thread.
 */
public interface Link extends AutoCloseable {
    /** Sends one Ethernet frame (without FCS) now; throws AdapterException when it cannot. */
    void send(byte[] frame);

    /** One line for logs and messages ({@code pcap on veth0}, {@code udp 127.0.0.1:40000 -> 127.0.0.1:49200}). */
    String describe();

    /** Frames the capture lost so far (kernel buffer full or interface drops); 0 where nothing can be lost unseen. */
    long dropped();

    /** What to do when {@link #dropped()} grows, for messages. */
    default String whenDropping() {
        return "raise --capture-buffer";
    }

    /**
     * Whether this frame, once sent, will be seen again by this end's own capture (so that its presence on the wire
     * can be checked): the capture must see outgoing frames, and its filter must let this one through.
     */
    boolean seesOwn(byte[] frame);

    /**
     * Whether frames are stamped when this end's reader takes them (user space, as a UDP socket's are), so that a
     * pause of the reader makes timestamps late; false where the capture stamps frames on arrival (the kernel's).
     */
    default boolean stampsWhenRead() {
        return false;
    }

    /**
     * Asks the reader to look for frames now rather than at the end of its polling pause (tens of microseconds, more
     * with the kernel's timer slack), and so to report the next {@link FrameReceiver#idle sweep} soon: for a consumer
     * that waits to know that nothing came by a deadline already past. Does nothing where the reader never sleeps.
     */
    default void lookNow() {
    }

    /**
     * Why the link does not work right now (interface down, socket gone), or null when it does. A link may recover
     * (an interface that comes up again).
     */
    String problem();

    @Override
    void close();
}

package org.metaroce.mrct.spi;

/**
 * The frames between the harness and the device. Time is the adapter's: {@link #now()} is virtual for the reference
 * NIC (it only moves when the harness polls) and real (or recorded) for other adapters.
 */
public interface DataPlane {
    /** Current time on the adapter's clock, in nanoseconds. */
    long now();

    /** Sends one Ethernet frame (without FCS) to the device, now. Malformed frames need {@link Capability#RAW_FRAMES}. */
    void send(byte[] frame);

    /**
     * Returns the next frame the device emits, waiting until {@code deadlineNanos} on the adapter's clock at most, or
     * null when none came by then. A virtual clock advances to the frame's time, or to the deadline; timers that fall
     * due on the way fire.
     */
    CapturedFrame poll(long deadlineNanos);

    /**
     * How long the adapter's own receive path was not looking for frames across the moment {@code timeNanos}: a frame
     * that arrived then carries a timestamp up to that much late. 0 where frames carry timestamps taken on arrival
     * (kernel capture timestamps, virtual time, recordings), which is the default.
     */
    default long receivePauseAt(final long timeNanos) {
        return 0;
    }
}

package org.metaroce.mrct.spi;

/**
 * The harness's own end of a connection when the device under test is the requester: a conforming MetaRoCE device
 * (in practice a second reference NIC) that answers the device's requests as the specification says, with its own
 * memory regions and QPs. The engine carries frames between the device and the peer through its network model
 * (drops, duplicates, delays, reordering, CE marks, a congested switch), so requester cases observe the device's
 * whole control loop: acknowledgements, selective retransmission, windows and rate.
 *
 * <p>The peer runs on the engine's clock: the engine tells it when frames reach it and asks it for frames up to a
 * deadline; {@link #nextEventTime()} lets the engine step both sides without either running ahead.
 */
public interface Peer extends AutoCloseable {
    /** The peer's control plane: QPs, regions, receive WQEs, memory, counters. */
    ControlPlane control();

    /** Sets the peer's clock (at the start of a case, to the device's clock). */
    void reset(long now);

    /** A frame from the device reaches the peer at {@code timeNanos} (never earlier than the previous one). */
    void receive(byte[] frame, long timeNanos);

    /** The next frame the peer sends at or before {@code deadlineNanos}, or null (its clock then is the deadline). */
    CapturedFrame poll(long deadlineNanos);

    /** When the peer next does anything on its own (sends a paced frame, fires a timer); Long.MAX_VALUE if never. */
    long nextEventTime();

    @Override
    void close();
}

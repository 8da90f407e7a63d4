package org.metaroce.mrct.replay.internal;

/**
 * One frame of a recorded case, as {@code evidence.pcapng} holds it.
 *
 * @param index its index in the case's evidence (the harness's frame number {@code #index})
 * @param toDut true for a frame the harness sent (or recorded without sending), false for one from the device
 * @param time its time relative to the case's start, on the recorded adapter's clock
 * @param bytes the whole Ethernet frame
 * @param note what the harness made of it ({@code sent}, {@code matched}, {@code dropped by the harness}, ...)
 */
public record RecordedFrame(int index, boolean toDut, long time, byte[] bytes, String note) {
    /**
     * True for a frame the harness recorded but never handed to the device (a loss it simulated): the replay does not
     * expect the harness to send it.
     */
    public boolean undelivered() {
        return toDut && note != null && note.startsWith("dropped");
    }
}

package org.metaroce.mrct.spi;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Verbs-like control of the device under test: QPs, memory, work requests, completions, counters. Operations a device
 * cannot perform throw {@link UnsupportedOperationException}; the adapter's {@link Capability capabilities} say in
 * advance which ones those are, so cases that need them are not run. Failures of the device or of the path to it throw
 * {@link AdapterException}.
 */
public interface ControlPlane {
    /** Allocates a protection domain and returns its number. */
    int allocatePd();

    /** Creates a QP in RESET with the given attributes and returns the QPN the device chose. */
    int createQp(QpAttributes attributes);

    /** Moves a QP to {@code state}, applying {@code attributes} on the way. */
    void modifyQp(int qpn, QpState state, QpAttributes attributes);

    /** The QP's current state. */
    QpState queryQp(int qpn);

    /** Destroys a QP. */
    void destroyQp(int qpn);

    /** Registers {@code length} bytes of zeroed memory in {@code pd} with the given access rights. */
    MemoryRegion registerMr(int pd, long length, Set<Access> access);

    /** Invalidates a region's remote key locally (as a local invalidate work request would). */
    void invalidateRkey(int rkey);

    /** Deregisters a region. */
    void deregisterMr(int lkey);

    /** Posts a receive WQE on a QP's receive queue. */
    void postReceive(int qpn, ReceiveWqe wqe);

    /** Posts a send WQE (needs {@link Capability#REQUESTER_CONTROL}). */
    void postSend(int qpn, SendWqe wqe);

    /** Removes and returns up to {@code max} completions of a QP, oldest first. */
    List<Completion> pollCompletions(int qpn, int max);

    /** Reads device memory (needs {@link Capability#MEMORY_READBACK}). */
    byte[] readMemory(long va, int length);

    /** Writes device memory (needs {@link Capability#MEMORY_WRITE}). */
    void writeMemory(long va, byte[] data);

    /** The device's counters by their Appendix C names; absent names are counters the device does not keep. */
    Map<String, Long> counters();

    /**
     * A QP's own counters (those Appendix C keeps per QP) by their names. The default says the device does not keep
     * them; needs {@link Capability#COUNTERS}.
     */
    default Map<String, Long> qpCounters(final int qpn) {
        throw new UnsupportedOperationException("per-QP counters");
    }

    /** Returns the device to its initial state: no QPs, no regions, counters zero. */
    void reset();
}

package org.metaroce.mrct.spi;

import java.util.Set;

/**
 * How the harness reaches a device under test. Implementations: the in-process reference NIC (virtual time), the
 * replay of a recorded run, and a real device through a network interface plus a control agent.
 *
 * <p>The contract is narrow on purpose: frames in and out ({@link #dataPlane()}), verbs-like control
 * ({@link #controlPlane()}), and the {@link #capabilities()} that tell the harness which cases it can run.
 */
public interface Adapter extends AutoCloseable {
    /** Short name for reports ({@code reference}, {@code socket}, {@code replay}). */
    String name();

    /** What this adapter can do; cases needing anything else are NOT_APPLICABLE. */
    Set<Capability> capabilities();

    /** The device's identity as the adapter knows it (the DUT profile may complete it). */
    DeviceIdentity identity();

    /** Addresses of the device and of the harness. */
    Endpoints endpoints();

    DataPlane dataPlane();

    ControlPlane controlPlane();

    /**
     * Called before each case with its ID, so that adapters that record or replay can file what follows under it.
     * The default does nothing.
     */
    default void beginCase(final String caseId) {
    }

    /**
     * Asked after each case: null when the adapter's own evidence of the case is complete, else why it is not (the
     * capture dropped frames, timestamps went backwards, a frame the harness sent never appeared on the wire). Such a
     * case says nothing about the device: the runner runs it again, a bounded number of times, and then gives it the
     * verdict INCONCLUSIVE with this reason, never FAIL. The default (in-process adapters) is always complete.
     */
    default String evidenceProblem() {
        return null;
    }

    /**
     * Asked after a case that failed: what the device itself reports about its timeline during the case, or null when
     * it reports nothing (the default, and every hardware device). A software device on a loaded host (the reference
     * NIC behind {@code mrct serve}) says when it fell behind its timeline or its capture lost frames; the runner then
     * runs the failed case again when that exceeds the run's tolerance, a bounded number of times, and gives it the
     * verdict INCONCLUSIVE with the device's report when every attempt was disturbed. A device cannot turn a failure
     * into a pass this way, only into no verdict.
     */
    default DeviceTimeline deviceTimeline() {
        return null;
    }

    @Override
    void close();
}

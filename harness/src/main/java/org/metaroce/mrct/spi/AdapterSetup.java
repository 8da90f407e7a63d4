package org.metaroce.mrct.spi;

import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;

/**
 * An adapter configured for one run by {@link AdapterProvider#configure}: it opens the device once the run's DUT
 * profile is known, and may fix what the run itself would otherwise choose (a replay takes the recorded run's seed
 * and timing).
 */
public interface AdapterSetup {
    /**
     * What a recorded run fixes for its replay.
     *
     * @param seed the recorded run seed (generated cases must be generated again identically)
     * @param strict whether the recorded run gated on SHOULD failures
     * @param timing the recorded timeouts and tolerances, or null when the recording does not say
     * @param realTime whether the recorded device answered in real time (the timing defaults when it does not say)
     */
    record Recorded(long seed, boolean strict, RunInfo.Timing timing, boolean realTime) {
    }

    /** What a recorded run fixes, or null for a live device (the default). */
    default Recorded recorded() {
        return null;
    }

    /**
     * Checks the run's DUT profile before anything runs (a replay needs the recorded run's).
     *
     * @throws AdapterSetupException the profile cannot be used with this device
     */
    default void checkProfile(final DeviceProfile profile) throws AdapterSetupException {
    }

    /**
     * The device for the run: opened now (or already opened by {@link AdapterProvider#configure}). Providers with
     * {@link AdapterProvider.Trait#REPEATABLE} give a fresh device each call.
     *
     * @throws AdapterException the device cannot be reached
     */
    Adapter open(DeviceProfile profile);

    /** The fault profile the device runs with, for the report ({@code RunInfo.fault}), or null. */
    default String fault() {
        return null;
    }

    /** A listener of the run's events besides the reports (a replay compares verdicts), or null. */
    default RunListener listener() {
        return null;
    }

    /** Called once the run's summary is out, to add what this device has to say (on the request's out). */
    default void afterRun() {
    }
}

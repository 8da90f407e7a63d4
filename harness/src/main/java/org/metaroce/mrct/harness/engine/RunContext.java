package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.PeerFactory;

/**
 * What every case of a run shares.
 *
 * @param adapter the device
 * @param spec the specification
 * @param profile the DUT profile
 * @param seed the run seed
 * @param strict whether SHOULD failures gate
 * @param expectTimeoutNs how long an expectation waits when the case does not say (positive timeout)
 * @param toleranceNs absolute timing tolerance (0 on virtual time)
 * @param tolerancePercent relative timing tolerance in percent of the window (0 on virtual time)
 * @param peers creates the harness's peer for requester cases that talk to one; null: those cases are not applicable
 */
public record RunContext(Adapter adapter, Specification spec, DeviceProfile profile, long seed, boolean strict,
                         long expectTimeoutNs, long toleranceNs, int tolerancePercent, PeerFactory peers) {
    /** A context without a peer factory. */
    public RunContext(final Adapter adapter, final Specification spec, final DeviceProfile profile, final long seed,
                      final boolean strict, final long expectTimeoutNs, final long toleranceNs,
                      final int tolerancePercent) {
        this(adapter, spec, profile, seed, strict, expectTimeoutNs, toleranceNs, tolerancePercent, null);
    }

    /** The same context with a peer factory. */
    public RunContext withPeers(final PeerFactory factory) {
        return new RunContext(adapter, spec, profile, seed, strict, expectTimeoutNs, toleranceNs, tolerancePercent,
            factory);
    }
}

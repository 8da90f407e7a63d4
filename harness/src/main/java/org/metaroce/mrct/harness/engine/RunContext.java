package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Adapter;

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
 */
public record RunContext(Adapter adapter, Specification spec, DeviceProfile profile, long seed, boolean strict,
                         long expectTimeoutNs, long toleranceNs, int tolerancePercent) {
}

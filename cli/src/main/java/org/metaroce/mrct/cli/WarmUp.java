package org.metaroce.mrct.cli;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;

/**
 * Runs cases once against the embedded reference NIC, unreported, so that the code of a real-time run (the engine's on
 * the harness's side, the device's on {@code mrct serve}'s) is loaded and compiled before it meets real time. A cold
 * JVM took 35 ms between the first frames of the first case, and the reference device as long to answer them, which
 * says nothing about either.
 */
final class WarmUp {
    private WarmUp() {
    }

    /** Runs {@code plan} {@code passes} times in process; failures are irrelevant and ignored. */
    static void run(final List<Runner.Planned> plan, final Specification spec, final DeviceProfile profile,
                    final Set<Fault> faults, final int passes) {
        run(plan, spec, profile, faults, passes, done -> { });
    }

    /** As {@link #run(List, Specification, DeviceProfile, Set, int)}, telling {@code progress} the case runs done. */
    static void run(final List<Runner.Planned> plan, final Specification spec, final DeviceProfile profile,
                    final Set<Fault> faults, final int passes, final IntConsumer progress) {
        int done = 0;
        for (int pass = 0; pass < passes; pass++) {
            try (ReferenceAdapter adapter = ReferenceAdapter.fromProfile(profile, spec, faults)) {
                final Runner runner = new Runner(new RunContext(adapter, spec, profile, 1, false, 2_000_000, 0, 0),
                    List.of(), Clock.systemUTC());
                for (final Runner.Planned planned : plan) {
                    try {
                        runner.runOne(planned);
                    } catch (RuntimeException e) {
                        // a warm-up only; the real run reports what matters
                    }
                    progress.accept(++done);
                }
            }
        }
    }
}

package org.metaroce.mrct.cli;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.function.IntConsumer;
import org.metaroce.mrct.harness.cases.ConnectionDef;
import org.metaroce.mrct.harness.cases.Expr;
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
 *
 * <p>Scale cases are left out ({@link #warms}): QP-011-max-qp-in-rts creates 65,536 QPs, which compiles nothing the
 * other cases do not, and took most of the warm-up's time and heap: over UDP (2026-12-03, {@code -Xlog:gc*} and a JFR
 * allocation profile of {@code mrct run --adapter socket}) the harness's heap grew to 433 MB in its first 8 s with
 * young pauses of 30-430 ms and a full one of 444 ms, nearly all of it QP-011's QPs in the warm-up, before the first
 * case; {@code mrct serve}'s two passes did the same twice.
 */
final class WarmUp {
    private WarmUp() {
    }

    /** QPs of one connection of a case beyond which the case is left out of the warm-up. */
    static final long MAX_WARM_UP_QPS = 64;

    /**
     * Whether {@code planned} is run in the warm-up: not when a connection of it is a set of QPs whose number is not a
     * constant of {@value #MAX_WARM_UP_QPS} or fewer (a scale case, sized by the profile's max_qp).
     */
    static boolean warms(final Runner.Planned planned) {
        for (final ConnectionDef connection : planned.def().connections()) {
            final Expr count = connection.count();
            if (count != null && (count.constantValue() == null || count.constantValue() > MAX_WARM_UP_QPS)) {
                return false;
            }
        }
        return true;
    }

    /** Runs {@code plan} {@code passes} times in process (scale cases aside); failures are irrelevant and ignored. */
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
                    if (!warms(planned)) {
                        progress.accept(++done);
                        continue;
                    }
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

package org.metaroce.mrct.cases;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.testing.Fixtures;

/** The suite as the module's tests see it: the specification, the cases, the reference profile, runners. */
final class Suite {
    static final long SEED = 20261129L;

    final Specification spec;
    final List<CaseDef> cases;
    final DeviceProfile profile;

    Suite() throws Exception {
        spec = Specification.bundled();
        cases = new CaseLoader(spec).load(List.of(casesDir()));
        profile = ProfileLoader.load(Fixtures.root().resolve("fixtures/profiles/reference.yaml"), spec);
    }

    static Path casesDir() {
        return Fixtures.root().resolve("spec-cases");
    }

    /** A runner against a fresh reference NIC with the given faults. */
    Runner runner(final Set<Fault> faults) {
        return runner(faults, List.of());
    }

    /** A runner against a fresh reference NIC with the given faults, telling {@code listeners} of each case. */
    Runner runner(final Set<Fault> faults, final List<RunListener> listeners) {
        final ReferenceAdapter adapter = ReferenceAdapter.fromProfile(profile, spec, faults);
        return new Runner(new RunContext(adapter, spec, profile, SEED, false, 2_000_000, 0, 0,
            org.metaroce.mrct.reference.ReferencePeer.FACTORY), listeners,
            Clock.systemUTC());
    }
}

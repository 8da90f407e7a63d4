package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.testing.Fixtures;

/** Every spec-derived case against the unfaulted reference NIC: each must PASS (or be NOT_APPLICABLE). */
class ReferenceConformanceTest {
    @TestFactory
    Stream<DynamicTest> everyCasePassesAgainstTheReference() throws Exception {
        final Specification spec = Specification.bundled();
        final List<CaseDef> cases = new CaseLoader(spec).load(List.of(Fixtures.root().resolve("spec-cases")));
        final DeviceProfile profile = ProfileLoader.load(Fixtures.root().resolve("fixtures/profiles/reference.yaml"),
            spec);
        final ReferenceAdapter adapter = ReferenceAdapter.fromProfile(profile, spec, Set.of());
        final Runner runner = new Runner(new RunContext(adapter, spec, profile, 42L, false, 2_000_000, 0, 0),
            List.of(), Clock.systemUTC());
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Runner.Planned planned : Runner.plan(cases)) {
            tests.add(DynamicTest.dynamicTest(planned.id() + " " + planned.def().title(), () -> {
                final CaseResult result = runner.runOne(planned);
                assertThat(result.verdict()).as(result.reason()).isIn(Verdict.PASS, Verdict.NOT_APPLICABLE);
            }));
        }
        return tests.stream();
    }

    static Path casesDir() {
        return Fixtures.root().resolve("spec-cases");
    }
}

package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * Every spec-derived case against the unfaulted reference NIC, as one JUnit dynamic test per case named "ID title":
 * each must PASS (the reference claims every PICS item, so nothing is NOT_APPLICABLE for want of a claim; a case the
 * reference adapter cannot run would show as NOT_APPLICABLE and fail here, since the reference can run them all).
 */
class ReferenceConformanceTest {
    @TestFactory
    Stream<DynamicTest> everyCasePassesAgainstTheReference() throws Exception {
        final Suite suite = new Suite();
        final Runner runner = suite.runner(Set.of());
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Runner.Planned planned : Runner.plan(suite.cases)) {
            tests.add(DynamicTest.dynamicTest(planned.id() + " " + planned.def().title(), () -> {
                final CaseResult result = runner.runOne(planned);
                assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.PASS);
            }));
        }
        return tests.stream();
    }
}

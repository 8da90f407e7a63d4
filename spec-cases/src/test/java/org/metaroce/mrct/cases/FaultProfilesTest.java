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
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.reference.Fault;

/**
 * The suite catches every fault profile of the reference NIC: with the fault on, at least one MUST case fails, and
 * some failing case names the rule the fault breaks. The cases citing that rule run first and the search stops at the
 * first such failure, so the test costs a few cases per fault rather than the whole suite (`./mrct run --fault NAME`
 * runs them all).
 */
class FaultProfilesTest {
    @TestFactory
    Stream<DynamicTest> everyFaultIsCaughtByAMustCaseNamingItsRule() throws Exception {
        final Suite suite = new Suite();
        final List<Runner.Planned> plan = Runner.plan(suite.cases);
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Fault fault : Fault.values()) {
            tests.add(DynamicTest.dynamicTest(fault.label() + " breaks " + fault.rule(), () -> {
                final Runner runner = suite.runner(Set.of(fault));
                // cases citing the fault's rule first; stop at the first MUST failure that names it
                final List<Runner.Planned> ordered = new ArrayList<>(plan);
                ordered.sort(java.util.Comparator.comparing(p -> p.def().rules().contains(fault.rule()) ? 0 : 1));
                final List<CaseResult> failing = new ArrayList<>();
                for (final Runner.Planned planned : ordered) {
                    final CaseResult result = runner.runOne(planned);
                    if (result.verdict() == Verdict.FAIL && result.level() == Level.MUST) {
                        failing.add(result);
                        if (result.rules().contains(fault.rule())
                            || result.failure() != null && fault.rule().equals(result.failure().rule())) {
                            break;
                        }
                    }
                }
                assertThat(failing).as("MUST cases failing with fault %s", fault.label()).isNotEmpty();
                assertThat(failing).as("a failure naming %s (failures: %s)", fault.rule(), failing.stream()
                    .map(r -> r.id() + ": " + r.reason()).toList())
                    .anySatisfy(r -> assertThat(r.rules().contains(fault.rule())
                        || r.failure() != null && fault.rule().equals(r.failure().rule())).isTrue());
            }));
        }
        return tests.stream();
    }
}

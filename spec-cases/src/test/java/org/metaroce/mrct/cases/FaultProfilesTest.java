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
import org.metaroce.mrct.reference.Fault;

/**
 * The suite catches every fault profile of the reference NIC: with the fault on, at least one MUST case fails, and
 * some failing case names the rule the fault breaks.
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
                final List<CaseResult> failing = new ArrayList<>();
                for (final Runner.Planned planned : plan) {
                    final CaseResult result = runner.runOne(planned);
                    if (result.verdict() == Verdict.FAIL && "MUST".equals(result.level())) {
                        failing.add(result);
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

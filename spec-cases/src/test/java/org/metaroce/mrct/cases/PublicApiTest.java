package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.testing.Fixtures;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The vendor API, exercised as a vendor would: bundled cases, own adapter, own profile. */
class PublicApiTest {
    @Test
    void aConformingAdapterPassesAndABrokenOneFailsThroughTheApi() throws Throwable {
        final Suite suite = new Suite();
        final List<DynamicTest> good = Conformance.suite()
            .adapter(() -> ReferenceAdapter.fromProfile(suite.profile, suite.spec, Set.of()))
            .profile(Fixtures.root().resolve("fixtures/profiles/reference.yaml"))
            .select("ORD-").dynamicTests().collect(Collectors.toList());
        assertThat(good).isNotEmpty().allSatisfy(t -> assertThat(t.getDisplayName()).startsWith("ORD-"));
        for (final DynamicTest test : good) {
            test.getExecutable().execute();
        }
        final List<DynamicTest> broken = Conformance.suite()
            .adapter(() -> ReferenceAdapter.fromProfile(suite.profile, suite.spec, Set.of(Fault.GO_BACK_N)))
            .profile(suite.profile).select("ORD-").dynamicTests().collect(Collectors.toList());
        int failures = 0;
        for (final DynamicTest test : broken) {
            try {
                test.getExecutable().execute();
            } catch (AssertionFailedError e) {
                failures++;
                assertThat(e.getMessage()).startsWith("FAIL: MR-");
            }
        }
        assertThat(failures).isPositive();
    }

    @Test
    void notApplicableCasesAreAbortedWithTheirReason() throws Throwable {
        final Suite suite = new Suite();
        final var profile = org.metaroce.mrct.harness.profile.DeviceProfile.of("bare", List.of());
        final List<DynamicTest> tests = Conformance.suite()
            .adapter(() -> ReferenceAdapter.fromProfile(profile, suite.spec, Set.of()))
            .profile(profile).dynamicTests().collect(Collectors.toList());
        int aborted = 0;
        for (final DynamicTest test : tests) {
            try {
                test.getExecutable().execute();
            } catch (TestAbortedException e) {
                aborted++;
                assertThat(e.getMessage()).contains("PICS item");
            } catch (AssertionFailedError e) {
                // a case may fail on a profile that claims nothing; this test only checks the abort path
            }
        }
        assertThat(aborted).as("cases needing PICS items the bare profile lacks").isPositive();
    }
}

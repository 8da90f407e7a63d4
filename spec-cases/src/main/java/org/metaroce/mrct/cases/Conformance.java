package org.metaroce.mrct.cases;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoadException;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Adapter;

/**
 * The public entry point for running the MetaRoCE conformance suite from a Java build: a vendor whose implementation
 * lives in Java implements {@link Adapter} and returns the suite's cases as JUnit 5 dynamic tests.
 *
 * <pre>{@code
 * class MyNicConformanceTest {
 *     @TestFactory
 *     Stream<DynamicTest> metaroce() throws Exception {
 *         return Conformance.suite()
 *             .adapter(MyNicAdapter::new)
 *             .profile(Path.of("src/test/resources/my-nic-profile.yaml"))
 *             .exclude("LEG-")
 *             .dynamicTests();
 *     }
 * }
 * }</pre>
 *
 * Each dynamic test is named {@code ID title}; it fails for FAIL, ERROR and INCONCLUSIVE with the verdict's reason as
 * the message, is aborted (skipped) for NOT_APPLICABLE with its reason, and passes for PASS and WARN (SHOULD warnings
 * fail too with {@link Builder#strict(boolean)}).
 */
public final class Conformance {
    private Conformance() {
    }

    /** A suite over the bundled specification and cases. */
    public static Builder suite() {
        return new Builder();
    }

    /** Configures a run of the suite. */
    public static final class Builder {
        private Supplier<? extends Adapter> adapter;
        private DeviceProfile profile;
        private Path profilePath;
        private long seed = 1;
        private boolean strict;
        private final List<String> select = new ArrayList<>();
        private final List<String> exclude = new ArrayList<>();
        private final List<Path> extraCases = new ArrayList<>();
        private long expectTimeoutNs = 2_000_000;
        private org.metaroce.mrct.spi.PeerFactory peers = org.metaroce.mrct.reference.ReferencePeer.FACTORY;

        private Builder() {
        }

        /** Creates the adapter; it is called once, and the adapter is closed after the last case. */
        public Builder adapter(final Supplier<? extends Adapter> factory) {
            this.adapter = Objects.requireNonNull(factory);
            return this;
        }

        /** The DUT profile file (PICS claims and declared parameters). */
        public Builder profile(final Path path) {
            this.profilePath = path;
            return this;
        }

        /** The DUT profile. */
        public Builder profile(final DeviceProfile value) {
            this.profile = value;
            return this;
        }

        /** The run's seed (default 1). */
        public Builder seed(final long value) {
            this.seed = value;
            return this;
        }

        /** Whether SHOULD failures fail. */
        public Builder strict(final boolean value) {
            this.strict = value;
            return this;
        }

        /** Runs only cases whose ID starts with one of these prefixes. */
        public Builder select(final String... prefixes) {
            select.addAll(List.of(prefixes));
            return this;
        }

        /** Leaves out cases whose ID starts with one of these prefixes. */
        public Builder exclude(final String... prefixes) {
            exclude.addAll(List.of(prefixes));
            return this;
        }

        /** Adds the cases of a directory ({@code <dir>/<area>/*.yaml}) to the bundled ones. */
        public Builder cases(final Path directory) {
            extraCases.add(directory);
            return this;
        }

        /** How long an expectation waits when a case does not say (default 2 ms; raise it for slow devices). */
        public Builder expectTimeoutNanos(final long nanos) {
            this.expectTimeoutNs = nanos;
            return this;
        }

        /**
         * The harness's peer for requester cases that talk to one (default: a reference NIC, which is what the
         * suite's requester cases are written against); null runs those cases as not applicable.
         */
        public Builder peers(final org.metaroce.mrct.spi.PeerFactory factory) {
            this.peers = factory;
            return this;
        }

        /** The selected cases, each a dynamic test. Loading problems throw before any test runs. */
        public Stream<DynamicTest> dynamicTests() throws CaseLoadException, ProfileLoader.ProfileException {
            final Specification spec = Specification.bundled();
            final DeviceProfile device = resolveProfile(spec);
            final List<Runner.Planned> plan = plan(spec);
            final Adapter instance = Objects.requireNonNull(adapter, "adapter(...) is required").get();
            final Runner runner = new Runner(new RunContext(instance, spec, device, seed, strict, expectTimeoutNs, 0,
                0, peers), List.of(), Clock.systemUTC());
            final List<DynamicTest> tests = new ArrayList<>();
            for (int i = 0; i < plan.size(); i++) {
                final Runner.Planned planned = plan.get(i);
                final boolean last = i == plan.size() - 1;
                tests.add(DynamicTest.dynamicTest(planned.id() + " " + planned.def().title(), () -> {
                    try {
                        check(runner.runOne(planned));
                    } finally {
                        if (last) {
                            instance.close();
                        }
                    }
                }));
            }
            return tests.stream();
        }

        private void check(final CaseResult result) {
            Assumptions.assumeFalse(result.verdict() == Verdict.NOT_APPLICABLE, result.reason());
            final boolean passes = result.verdict() == Verdict.PASS
                || result.verdict() == Verdict.WARN && !strict;
            if (!passes) {
                Assertions.fail(result.verdict() + ": " + result.reason());
            }
        }

        private DeviceProfile resolveProfile(final Specification spec) throws ProfileLoader.ProfileException {
            if (profile != null) {
                return profile;
            }
            Objects.requireNonNull(profilePath, "profile(...) is required");
            return ProfileLoader.load(profilePath, spec);
        }

        private List<Runner.Planned> plan(final Specification spec) throws CaseLoadException {
            final CaseLoader loader = new CaseLoader(spec);
            final List<CaseDef> cases = new ArrayList<>(loader.loadBundled());
            if (!extraCases.isEmpty()) {
                cases.addAll(loader.load(extraCases));
            }
            final List<Runner.Planned> out = new ArrayList<>();
            for (final Runner.Planned planned : Runner.plan(cases)) {
                final String id = planned.id();
                if ((select.isEmpty() || select.stream().anyMatch(id::startsWith))
                    && exclude.stream().noneMatch(id::startsWith)) {
                    out.add(planned);
                }
            }
            return out;
        }
    }
}

package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.DeviceTimeline;

/**
 * A software device that says it fell behind its own timeline (the reference NIC behind {@code mrct serve} on a
 * loaded host): a case that failed while the device was late beyond the run's tolerance, or lost frames in its
 * capture, runs again and is INCONCLUSIVE when every attempt was disturbed, never FAIL; within the tolerance the
 * failure stands, and a passing case never asks. The device is the reference NIC on its virtual clock presented as a
 * real-time adapter, whose reports (and, to stand for the lateness, the frames it swallows) the test controls exactly.
 */
class DeviceLatenessTest {
    private static final Specification SPEC = Specification.bundled();
    private static final long MS = 1_000_000;

    /**
     * The reference NIC without virtual time, reporting {@code report} about its timeline for each of its first
     * {@code disturbedAttempts} case runs (and nothing after), and swallowing every frame it sends in those runs when
     * {@code swallow} is set (as a device stalled past every deadline would seem).
     */
    private static final class SelfReporting extends RealTimeReference {
        final DeviceTimeline report;
        final boolean swallow;
        int disturbedAttempts;
        int attempt;
        int asked;

        SelfReporting(final ReferenceAdapter inner, final DeviceTimeline report, final boolean swallow,
                      final int disturbedAttempts) {
            super(inner);
            this.report = report;
            this.swallow = swallow;
            this.disturbedAttempts = disturbedAttempts;
        }

        private boolean disturbed() {
            return attempt <= disturbedAttempts;
        }

        @Override
        public void beginCase(final String caseId) {
            inner.beginCase(caseId);
            attempt++;
        }

        @Override
        public DeviceTimeline deviceTimeline() {
            asked++;
            return disturbed() ? report : new DeviceTimeline(0, "", 0, 0);
        }

        @Override
        public CapturedFrame poll(final long deadlineNanos) {
            CapturedFrame frame = inner.dataPlane().poll(deadlineNanos);
            while (frame != null && swallow && disturbed()) {
                frame = inner.dataPlane().poll(deadlineNanos);
            }
            return frame;
        }

    }

    private static final DeviceTimeline LATE_5_MS = new DeviceTimeline(5 * MS, "a timer ran after it fell due by", 4,
        0);

    private record Outcome(CaseResult result, int asked) {
    }

    private static Outcome run(final String id, final Set<Fault> faults, final DeviceTimeline report,
                               final boolean swallow, final int disturbedAttempts) throws Exception {
        return run(id, faults, report, swallow, disturbedAttempts, 2 * MS, 0);
    }

    private static Outcome run(final String id, final Set<Fault> faults, final DeviceTimeline report,
                               final boolean swallow, final int disturbedAttempts, final long expectTimeout,
                               final int tolerancePercent) throws Exception {
        final DeviceProfile profile = ReferenceServer.profile(null, SPEC);
        final Runner.Planned planned = Runner.plan(new CaseLoader(SPEC).loadBundled()).stream()
            .filter(p -> p.id().equals(id)).findFirst().orElseThrow();
        try (SelfReporting adapter = new SelfReporting(ReferenceAdapter.fromProfile(profile, SPEC, faults), report,
            swallow, disturbedAttempts)) {
            final CaseResult result = new Runner(new RunContext(adapter, SPEC, profile, 1, false, expectTimeout, MS,
                tolerancePercent),
                List.of(), Clock.systemUTC()).runOne(planned);
            return new Outcome(result, adapter.asked);
        }
    }

    private static final String CASE = "ACK-005-ackreq-in-order";

    @Test
    void aFailureWhileTheDeviceWasLateBeyondTheToleranceIsInconclusiveAfterEveryAttempt() throws Exception {
        final Outcome always = run(CASE, Set.of(Fault.NO_ACK_ON_ACKREQ), LATE_5_MS, false, 99);
        assertThat(always.result().verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(always.result().attempts()).isEqualTo(Runner.MAX_ATTEMPTS);
        assertThat(always.result().failure()).as("nothing is blamed on the device").isNull();
        assertThat(always.result().reason())
            .contains("the device reports that it fell behind its own timeline: a timer ran after it fell due by "
                + "5 ms (4 time(s) late by 100 us or more); the run tolerates 1 ms")
            .contains("it would have been FAIL: MR-ACK-005");
        assertThat(always.result().notes()).anySatisfy(n -> assertThat(n).startsWith("attempt 1 of 3: the device "
            + "reports"));
    }

    @Test
    void aDeviceLateWithinTheMissingFramesOwnWindowToleranceIsStillJudged() throws Exception {
        // the ACK never comes (the fault); the device reports 1.5 ms of lateness, beyond the run's absolute 1 ms but
        // within the 4 ms the 20 ms window tolerates (20 %): no lateness of 1.5 ms explains an answer missing from it
        final DeviceTimeline late = new DeviceTimeline(1_500_000, "late by", 3, 0);
        final Outcome judged = run(CASE, Set.of(Fault.NO_ACK_ON_ACKREQ), late, false, 99, 20 * MS, 20);
        assertThat(judged.result().verdict()).isEqualTo(Verdict.FAIL);
        assertThat(judged.result().attempts()).isEqualTo(1);
        assertThat(judged.result().failure().rule()).isEqualTo("MR-ACK-005");
        assertThat(judged.result().reason()).contains("(24 ms with the run's tolerance of 4 ms)");
        assertThat(judged.result().notes()).anySatisfy(n -> assertThat(n).startsWith("judged with both ends within "
            + "the run's tolerance of 4 ms: the device reported its worst lateness as late by 1.5"));

        // a 2 ms window tolerates only the run's 1 ms: the same report leaves the failure uncertain
        final Outcome uncertain = run(CASE, Set.of(Fault.NO_ACK_ON_ACKREQ), late, false, 99, 2 * MS, 20);
        assertThat(uncertain.result().verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void theNextAttemptJudgesTheDeviceOnceItKeepsItsTimeline() throws Exception {
        // the first run: the device was late and its answers missed every window; the second: on time, and right
        final Outcome once = run(CASE, Set.of(), LATE_5_MS, true, 1);
        assertThat(once.result().verdict()).isEqualTo(Verdict.PASS);
        assertThat(once.result().attempts()).isEqualTo(2);
        assertThat(once.result().notes()).anySatisfy(n -> assertThat(n).startsWith("attempt 1 of 3: the device "
            + "reports that it fell behind its own timeline").contains("it was FAIL: "));

        // the same, but a real failure: the second attempt judges the device and the FAIL stands
        final Outcome broken = run(CASE, Set.of(Fault.NO_ACK_ON_ACKREQ), LATE_5_MS, false, 1);
        assertThat(broken.result().verdict()).isEqualTo(Verdict.FAIL);
        assertThat(broken.result().attempts()).isEqualTo(2);
        assertThat(broken.result().failure().rule()).isEqualTo("MR-ACK-005");
    }

    @Test
    void framesTheDevicesCaptureDroppedMakeAFailureInconclusiveToo() throws Exception {
        final Outcome dropped = run(CASE, Set.of(Fault.NO_ACK_ON_ACKREQ), new DeviceTimeline(0, "", 0, 2), false,
            99);
        assertThat(dropped.result().verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(dropped.result().reason()).contains("the device reports that its capture dropped 2 frame(s) "
            + "during the case");
    }

    @Test
    void latenessWithinTheToleranceLeavesTheFailureStanding() throws Exception {
        final Outcome within = run(CASE, Set.of(Fault.NO_ACK_ON_ACKREQ),
            new DeviceTimeline(MS / 2, "a timer ran after it fell due by", 1, 0), false, 99);
        assertThat(within.result().verdict()).isEqualTo(Verdict.FAIL);
        assertThat(within.result().attempts()).isEqualTo(1);
        assertThat(within.result().failure().rule()).isEqualTo("MR-ACK-005");
    }

    @Test
    void aPassingCaseNeverAsksTheDevice() throws Exception {
        final Outcome passing = run(CASE, Set.of(), LATE_5_MS, false, 99);
        assertThat(passing.result().verdict()).as("a device that passes while late passes").isEqualTo(Verdict.PASS);
        assertThat(passing.result().attempts()).isEqualTo(1);
        assertThat(passing.asked()).isZero();
    }
}

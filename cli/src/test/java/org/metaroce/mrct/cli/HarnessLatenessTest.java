package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.spi.CapturedFrame;

/**
 * The harness's own lateness on a real-time adapter: when it kept the case's timeline worse than the run's tolerance,
 * a failed expectation is INCONCLUSIVE and the case runs again (bounded), never FAIL; within the tolerance the failure
 * stands. The device is the reference NIC on its virtual clock, presented as a real-time adapter whose harness side
 * is late in ways the test controls exactly, so every outcome here is deterministic.
 */
class HarnessLatenessTest {
    private static final Specification SPEC = Specification.bundled();
    private static final long MS = 1_000_000;

    /**
     * The reference NIC without virtual time: sends number {@code lateSend} of each of the first {@code lateAttempts}
     * case runs take {@code sendNanos} (the device's clock runs on meanwhile, as a real one would), and the receive
     * path reports a pause of {@code pauseNanos} around every moment.
     */
    private static final class LateHarness extends RealTimeReference {
        final int lateSend;
        final long sendNanos;
        final long pauseNanos;
        int lateAttempts;
        int sends;
        final ArrayDeque<CapturedFrame> held = new ArrayDeque<>();

        LateHarness(final ReferenceAdapter inner, final int lateSend, final long sendNanos, final long pauseNanos,
                    final int lateAttempts) {
            super(inner);
            this.lateSend = lateSend;
            this.sendNanos = sendNanos;
            this.pauseNanos = pauseNanos;
            this.lateAttempts = lateAttempts;
        }

        @Override
        public void beginCase(final String caseId) {
            inner.beginCase(caseId);
            if (sends > 0) {
                lateAttempts--;
            }
            sends = 0;
            held.clear();
        }

        @Override
        public void send(final byte[] frame) {
            if (++sends == lateSend && lateAttempts > 0) {
                final long until = now() + sendNanos;
                CapturedFrame out;
                while ((out = inner.dataPlane().poll(until)) != null) {
                    held.addLast(out);
                }
            }
            inner.dataPlane().send(frame);
        }

        @Override
        public CapturedFrame poll(final long deadlineNanos) {
            if (!held.isEmpty()) {
                return held.pollFirst();
            }
            return inner.dataPlane().poll(deadlineNanos);
        }

        @Override
        public long receivePauseAt(final long timeNanos) {
            return lateAttempts > 0 ? pauseNanos : 0;
        }

        @Override
        public String name() {
            return "late harness";
        }

    }

    private static Runner.Planned planned(final String id) throws Exception {
        return Runner.plan(new CaseLoader(SPEC).loadBundled()).stream().filter(p -> p.id().equals(id)).findFirst()
            .orElseThrow();
    }

    private static CaseResult run(final String id, final Set<Fault> faults, final int lateSend, final long sendNanos,
                                  final long pauseNanos, final int lateAttempts, final long toleranceNs)
        throws Exception {
        final DeviceProfile profile = ReferenceServer.profile(null, SPEC);
        try (LateHarness adapter = new LateHarness(ReferenceAdapter.fromProfile(profile, SPEC, faults), lateSend,
            sendNanos, pauseNanos, lateAttempts)) {
            return new Runner(new RunContext(adapter, SPEC, profile, 1, false, 2 * MS, toleranceNs, 0), List.of(),
                Clock.systemUTC()).runOne(planned(id));
        }
    }

    private static final String READ_CASE = "WIRE-001-transmit-vlan-every-kind";
    private static final String ACK_CASE = "ACK-005-ackreq-in-order";

    /** The results in the order the listeners had them. */
    private record Whole(RunSummary summary, List<CaseResult> results, List<String> started) {
    }

    /**
     * {@link #READ_CASE} then {@link #ACK_CASE} through {@link Runner#run}, the READ case's fourth send late by 5 ms
     * in the first {@code lateAttempts} case runs (of either case: ACK_CASE sends fewer frames, so it is never late);
     * {@code stopAt} is the question of the run's stop condition from which on it says stop (0: never), as a
     * Ctrl-C's does once given.
     */
    private static Whole runBoth(final int lateAttempts, final int stopAt) throws Exception {
        final DeviceProfile profile = ReferenceServer.profile(null, SPEC);
        final List<CaseResult> results = new ArrayList<>();
        final List<String> started = new ArrayList<>();
        final RunListener recorder = new RunListener() {
            @Override
            public void caseStarted(final String id, final int index, final int total) {
                started.add(id + "@" + index);
            }

            @Override
            public void caseFinished(final CaseResult result) {
                results.add(result);
            }
        };
        final int[] asked = {0};
        try (LateHarness adapter = new LateHarness(ReferenceAdapter.fromProfile(profile, SPEC, Set.of()), 4, 5 * MS,
            0, lateAttempts)) {
            final RunSummary summary = new Runner(new RunContext(adapter, SPEC, profile, 1, false, 2 * MS, MS, 0),
                List.of(recorder), Clock.systemUTC()).run(null, List.of(planned(READ_CASE), planned(ACK_CASE)),
                r -> stopAt > 0 && ++asked[0] >= stopAt, null);
            return new Whole(summary, results, started);
        }
    }

    @Test
    void aCaseLateInEveryAttemptOfItsPlaceRunsAgainAfterTheOtherCases() throws Exception {
        final Whole whole = runBoth(3, 0);
        assertThat(whole.results()).extracting(CaseResult::id).as("reported after its second round")
            .containsExactly(ACK_CASE, READ_CASE);
        assertThat(whole.started()).containsExactly(READ_CASE + "@0", ACK_CASE + "@1", READ_CASE + "@0");
        final CaseResult read = whole.results().get(1);
        assertThat(read.verdict()).as("its fourth attempt kept the timeline").isEqualTo(Verdict.PASS);
        assertThat(read.attempts()).isEqualTo(4);
        assertThat(read.notes()).hasSize(3).allSatisfy(n -> assertThat(n).contains("sending its frame took 5 ms"));
        assertThat(read.notes().get(0)).startsWith("attempt 1 of 3: ");
        assertThat(whole.results().get(0).attempts()).isEqualTo(1);
        assertThat(whole.summary().complete()).isTrue();
        assertThat(whole.summary().counts().get(Verdict.PASS)).isEqualTo(2);
    }

    @Test
    void lateInBothRoundsTheCaseIsInconclusiveAfterSixAttempts() throws Exception {
        final Whole whole = runBoth(99, 0);
        final CaseResult read = whole.results().get(1);
        assertThat(read.id()).isEqualTo(READ_CASE);
        assertThat(read.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(read.failure()).isNull();
        assertThat(read.attempts()).isEqualTo(Runner.ROUNDS * Runner.MAX_ATTEMPTS);
        assertThat(read.reason()).startsWith("in every one of 6 attempts (3 in the case's place in the run, 3 after "
            + "the run's other cases) the harness was late beyond the run's tolerance");
        final List<String> attempts = read.notes().stream().filter(n -> n.startsWith("attempt ")).toList();
        assertThat(attempts).hasSize(6);
        assertThat(attempts.get(3)).startsWith("attempt 4 of 6: ");
        assertThat(whole.results().get(0).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aRunStoppedBeforeTheSecondRoundReportsTheFirstRoundsResult() throws Exception {
        // the stop condition says stop from its question about the ACK case on (Ctrl-C during it): the run has no other
        // case to stop before, but the READ case's second round does not run
        final Whole stopped = runBoth(99, 2);
        assertThat(stopped.results()).extracting(CaseResult::id).containsExactly(ACK_CASE, READ_CASE);
        assertThat(stopped.results().get(1).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(stopped.results().get(1).attempts()).isEqualTo(Runner.MAX_ATTEMPTS);
        assertThat(stopped.results().get(1).reason()).startsWith("in every one of 3 attempts the harness was late");
        assertThat(stopped.started()).as("no second round").hasSize(2);
        assertThat(stopped.summary().complete()).isFalse();

        // stopped at the READ case itself: reported at once, the ACK case never runs
        final Whole first = runBoth(99, 1);
        assertThat(first.results()).extracting(CaseResult::id).containsExactly(READ_CASE);
        assertThat(first.results().get(0).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(first.summary().complete()).isFalse();
    }

    @Test
    void aFrameThatLeftLateBeyondTheToleranceMakesTheCaseInconclusiveAndItRunsAgain() throws Exception {
        // send 4 of the case is a READ REQUEST; leaving 5 ms late, its response cannot come within 2 ms + 1 ms
        final CaseResult always = run(READ_CASE, Set.of(), 4, 5 * MS, 0, 99, MS);
        assertThat(always.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(always.attempts()).isEqualTo(Runner.MAX_ATTEMPTS);
        assertThat(always.failure()).as("no failure is blamed on the device").isNull();
        assertThat(always.reason()).contains("the harness was late beyond the run's tolerance")
            .contains("sending its frame took 5 ms; the run tolerates 1 ms")
            .contains("no frame arrived within 2 ms (3 ms with the run's tolerance of 1 ms)");
        assertThat(always.notes()).anySatisfy(n -> assertThat(n).startsWith("attempt 1 of 3: "));

        final CaseResult once = run(READ_CASE, Set.of(), 4, 5 * MS, 0, 1, MS);
        assertThat(once.verdict()).as("the second run kept its timeline").isEqualTo(Verdict.PASS);
        assertThat(once.attempts()).isEqualTo(2);
        assertThat(once.notes()).anySatisfy(n -> assertThat(n).startsWith("attempt 1 of 3: ")
            .contains("sending its frame took 5 ms"));
    }

    @Test
    void lateWithinTheToleranceTheFailureStands() throws Exception {
        // the device never acknowledges AckReq; the harness's half-millisecond lateness is within what the run allows
        final CaseResult result = run("ACK-005-ackreq-in-order", Set.of(Fault.NO_ACK_ON_ACKREQ), 1, MS / 2, 0, 99,
            MS);
        assertThat(result.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(result.attempts()).isEqualTo(1);
        assertThat(result.failure().rule()).isEqualTo("MR-ACK-005");
        assertThat(result.reason()).contains("(3 ms with the run's tolerance of 1 ms)");
    }

    @Test
    void aMissedDeadlineTheReceivePathDidNotWatchIsInconclusiveNotFail() throws Exception {
        final CaseResult blind = run("ACK-005-ackreq-in-order", Set.of(Fault.NO_ACK_ON_ACKREQ), 99, 0, 2 * MS, 99,
            MS);
        assertThat(blind.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(blind.attempts()).isEqualTo(Runner.MAX_ATTEMPTS);
        assertThat(blind.reason()).contains("the receive path did not look across the deadline for 2 ms");

        final CaseResult polling = run("ACK-005-ackreq-in-order", Set.of(Fault.NO_ACK_ON_ACKREQ), 99, 0, 50_000, 99,
            MS);
        assertThat(polling.verdict()).as("a pause of ordinary polling hides nothing").isEqualTo(Verdict.FAIL);
    }

    @Test
    void aFrameStampedAfterAReceivePauseIsTheHarnessesLateness() throws Exception {
        // on a link that stamps frames when it reads them, a frame taken after the reader had not looked for 2 ms may
        // have come up to 2 ms earlier: judging it late would say nothing certain, so the pause counts as lateness
        final CaseResult passing = run("ACK-005-ackreq-in-order", Set.of(), 99, 0, 2 * MS, 99, MS);
        assertThat(passing.verdict()).isEqualTo(Verdict.PASS);
        assertThat(passing.notes()).anySatisfy(n -> assertThat(n).contains("the harness was late beyond the run's "
            + "tolerance").contains("a frame from the device was stamped after the receive path had not looked for 2 ms"));
        final CaseResult polling = run("ACK-005-ackreq-in-order", Set.of(), 99, 0, 50_000, 99, MS);
        assertThat(polling.notes()).as("ordinary polling").noneSatisfy(n -> assertThat(n).contains("was late"));
    }

    @Test
    void aGapTheCaseAsksForIsNotLateness() throws Exception {
        // ACK-005 sends its write's packets 10 us apart; with a tolerance of 5 us, waiting out a gap must not count
        final CaseResult result = run("ACK-005-ackreq-in-order", Set.of(), 99, 0, 0, 99, 5_000);
        assertThat(result.verdict()).isEqualTo(Verdict.PASS);
        assertThat(result.notes()).noneSatisfy(n -> assertThat(n).contains("the harness was late"));
    }

    @Test
    void aPassingCaseIsNotRunAgainButSaysTheHarnessWasLate() throws Exception {
        final CaseResult result = run("ORD-002-write-reverse-order", Set.of(), 2, 5 * MS, 0, 99, MS);
        assertThat(result.verdict()).isEqualTo(Verdict.PASS);
        assertThat(result.attempts()).isEqualTo(1);
        // the second frame's send took 5 ms (the third then leaves its gap after it: waiting out a gap is not late)
        assertThat(result.notes()).anySatisfy(n -> assertThat(n).contains("the harness was late beyond the run's "
            + "tolerance (step 1: sending its frame took 5 ms; the run tolerates 1 ms)"));
    }
}

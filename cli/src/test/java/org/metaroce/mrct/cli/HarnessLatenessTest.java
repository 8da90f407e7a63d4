package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.ArrayDeque;
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

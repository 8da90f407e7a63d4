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
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.spi.CapturedFrame;

/**
 * On a live link a "no frame arrived" failure says whether the frame came late or not at all: the harness listens on
 * for 20 ms after the expectation gave up, keeps what came in the evidence and says so in a note, without changing the
 * verdict or its blame. The device is the reference NIC on its virtual clock presented as a real-time adapter, its
 * frames all held back by a chosen delay, so every moment here is exact.
 */
class AfterMissingFrameTest {
    private static final Specification SPEC = Specification.bundled();
    private static final long MS = 1_000_000;
    private static final String CASE = "ACK-005-ackreq-in-order";

    /** Holds every frame of the device back by {@code delay} (a slow path: their timestamps moved by as much). */
    private static final class SlowPath extends RealTimeReference {
        final long delay;
        final java.util.ArrayDeque<CapturedFrame> held = new java.util.ArrayDeque<>();

        SlowPath(final ReferenceAdapter inner, final long delay) {
            super(inner);
            this.delay = delay;
        }

        @Override
        public CapturedFrame poll(final long deadlineNanos) {
            if (delay == 0) {
                return inner.dataPlane().poll(deadlineNanos);
            }
            while (true) {
                if (!held.isEmpty() && held.peekFirst().timestampNanos() <= deadlineNanos) {
                    return held.pollFirst();
                }
                final long until = held.isEmpty() ? deadlineNanos
                    : Math.min(deadlineNanos, held.peekFirst().timestampNanos());
                final CapturedFrame frame = inner.dataPlane().poll(until);
                if (frame == null) {
                    if (!held.isEmpty() && held.peekFirst().timestampNanos() <= deadlineNanos) {
                        continue;
                    }
                    return null;
                }
                held.addLast(new CapturedFrame(frame.bytes(), frame.timestampNanos() + delay));
            }
        }

        @Override
        public String name() {
            return "slow-path";
        }
    }

    private static CaseResult run(final Set<Fault> faults, final long delay) throws Exception {
        final DeviceProfile profile = ReferenceServer.profile(null, SPEC);
        final Runner.Planned planned = Runner.plan(new CaseLoader(SPEC).loadBundled()).stream()
            .filter(p -> p.id().equals(CASE)).findFirst().orElseThrow();
        try (SlowPath adapter = new SlowPath(ReferenceAdapter.fromProfile(profile, SPEC, faults),
            delay)) {
            return new Runner(new RunContext(adapter, SPEC, profile, 1, false, 2 * MS, MS, 0), List.of(),
                Clock.systemUTC()).runOne(planned);
        }
    }

    @Test
    void anAcknowledgementThatCameLateIsNamedWithHowLate() throws Exception {
        // the ACK of the case's first AckReq, due within ack_delay_max_ns (8 us) plus the 1 ms tolerance, comes 5 ms
        // late, and so does every frame after it
        final CaseResult late = run(Set.of(), 5 * MS);
        assertThat(late.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(late.reason()).contains("no frame arrived within");
        // the window is 2 ms here (the run's expect timeout) plus the 1 ms tolerance: the ACK, held back 5 ms, came
        // about 2 ms after the harness gave up (exactly 1980 us on the reference's virtual clock)
        assertThat(late.reason()).contains("no frame arrived within 2 ms (3 ms with the run's tolerance of 1 ms)");
        assertThat(late.notes()).anySatisfy(n -> assertThat(n)
            .startsWith("after the failure the device sent 2 frame(s) in the 20 ms the harness went on listening, the "
                + "first #4 (ACKNOWLEDGE psn ")
            .endsWith(") 1980 us after the expectation gave up"));
        final List<FrameRecord> after = late.evidence().stream()
            .filter(f -> f.note().equals("after the failure (not judged)")).toList();
        assertThat(after).hasSize(2);
        assertThat(after).allSatisfy(f -> assertThat(f.direction().name()).isEqualTo("FROM_DUT"));
        assertThat(late.evidence().indexOf(after.get(0))).isEqualTo(4);

        // the same failure on time: the blame is what it was without the look
        final CaseResult never = run(Set.of(Fault.NO_ACK_ON_ACKREQ), 0);
        assertThat(never.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(never.failure().rule()).isEqualTo("MR-ACK-005");
        assertThat(late.failure().rule()).isEqualTo(never.failure().rule());
        assertThat(never.notes()).contains("after the failure the device sent nothing in the 20 ms the harness went "
            + "on listening (a frame never sent, or lost on the way)");
    }
}

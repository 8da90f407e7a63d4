package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.socket.SocketAdapter;
import org.metaroce.mrct.socket.SocketOptions;
import org.metaroce.mrct.socket.agent.AgentLimits;
import org.metaroce.mrct.spi.Adapter;

/**
 * What the engine does when the path to a device fails: incomplete evidence reruns the case and ends INCONCLUSIVE,
 * never FAIL; a lost agent makes the case ERROR and the run goes on, with a complete report.
 */
class RealTimeFailuresTest {
    private static final Specification SPEC = Specification.bundled();

    private static List<Runner.Planned> ord002(final int copies) throws Exception {
        final List<Runner.Planned> plan = new ArrayList<>();
        final Runner.Planned original = Runner.plan(new CaseLoader(SPEC).loadBundled()).stream()
            .filter(p -> p.id().equals("ORD-002-write-reverse-order")).findFirst().orElseThrow();
        for (int i = 0; i < copies; i++) {
            plan.add(new Runner.Planned(original.def(), Map.of(), original.id() + "#" + i));
        }
        return plan;
    }

    /** The reference NIC, whose evidence is said to be incomplete a given number of times. */
    private static final class Doubtful extends ForwardingAdapter {
        int doubts;
        int asked;

        Doubtful(final ReferenceAdapter inner, final int doubts) {
            super(inner);
            this.doubts = doubts;
        }

        @Override
        public String evidenceProblem() {
            asked++;
            return doubts-- > 0 ? "the capture dropped 2 frame(s)" : null;
        }

        @Override
        public String name() {
            return "doubtful";
        }
    }

    private static Runner runner(final Adapter adapter, final DeviceProfile profile, final List<RunListener> listeners) {
        return new Runner(new RunContext(adapter, SPEC, profile, 1, false, 20_000_000, 20_000_000, 20), listeners,
            Clock.systemUTC());
    }

    @Test
    void incompleteEvidenceIsRerunAndThenInconclusiveNeverFail() throws Exception {
        final DeviceProfile profile = ReferenceServer.profile(null, SPEC);
        final Runner.Planned planned = ord002(1).get(0);
        try (Doubtful once = new Doubtful(ReferenceAdapter.fromProfile(profile, SPEC, Set.of()), 1)) {
            final CaseResult result = runner(once, profile, List.of()).runOne(planned);
            assertThat(result.verdict()).isEqualTo(Verdict.PASS);
            assertThat(result.attempts()).isEqualTo(2);
            assertThat(result.notes()).anySatisfy(n -> assertThat(n).contains("attempt 1 of 3")
                .contains("dropped 2 frame(s)"));
        }
        try (Doubtful always = new Doubtful(ReferenceAdapter.fromProfile(profile, SPEC, Set.of()), 99)) {
            final CaseResult result = runner(always, profile, List.of()).runOne(planned);
            assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(result.attempts()).isEqualTo(Runner.MAX_ATTEMPTS);
            assertThat(always.asked).isEqualTo(Runner.MAX_ATTEMPTS);
            assertThat(result.reason()).contains("incomplete in every one of 3 attempts")
                .contains("dropped 2 frame(s)").contains("would have been PASS");
            assertThat(result.failure()).isNull();
        }
        try (Doubtful never = new Doubtful(ReferenceAdapter.fromProfile(profile, SPEC, Set.of()), 0)) {
            assertThat(runner(never, profile, List.of()).runOne(planned).attempts()).isEqualTo(1);
        }
    }

    @Test
    void aLostAgentMakesTheCaseErrorAndTheRunGoesOn() throws Exception {
        final DeviceProfile profile = ReferenceServer.profile(null, SPEC);
        final ReferenceServer server = ReferenceServer.start(new ReferenceServer.Wire(null,
            SocketEndToEndTest.freeHighPort(), 0), new ReferenceServer.Port(-1, null, null), profile, SPEC, Set.of(),
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null, AgentLimits.DEFAULTS, line -> { });
        final InetSocketAddress device = new InetSocketAddress(server.port().ipv4(),
            ((org.metaroce.mrct.socket.link.UdpLink) server.link()).localAddress().getPort());
        final List<CaseResult> results = new ArrayList<>();
        final RunListener stopAfterFirst = new RunListener() {
            @Override
            public void runStarted(final RunInfo info) {
            }

            @Override
            public void caseStarted(final String id, final int index, final int total) {
            }

            @Override
            public void caseFinished(final CaseResult result) {
                results.add(result);
                if (results.size() == 1) {
                    server.close();
                }
            }

            @Override
            public void runFinished(final RunInfo info, final RunSummary summary) {
            }
        };
        final long start = System.nanoTime();
        try (SocketAdapter adapter = SocketAdapter.open(SocketOptions.udp(device, server.agentAddress(), null)
            .withAgentTimeout(Duration.ofSeconds(2), 3))) {
            final RunSummary summary = runner(adapter, profile, List.of(stopAfterFirst)).run(null, ord002(3),
                r -> false, null);
            assertThat(summary.complete()).isTrue();
        } finally {
            server.close();
        }
        assertThat(results).hasSize(3);
        assertThat(results.get(0).verdict()).isEqualTo(Verdict.PASS);
        assertThat(results.subList(1, 3)).allSatisfy(r -> {
            assertThat(r.verdict()).isEqualTo(Verdict.ERROR);
            assertThat(r.reason()).startsWith("adapter: ").contains("agent");
        });
        assertThat(results.get(1).reason()).contains("connection lost during reset");
        assertThat(results.get(2).reason()).contains("after 3 attempt(s)").contains("connection refused");
        // bounded, not fast: without the agent timeout the run would wait for ever; 5 minutes leaves a loaded host room
        assertThat(System.nanoTime() - start).as("bounded waits").isLessThan(300_000_000_000L);
    }
}

package org.metaroce.mrct.bench;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.reference.ReferencePeer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the harness costs per case: one small case run end to end through {@link Runner#runOne} against the embedded
 * reference NIC (reset, connection setup, frames crafted, sent, matched, memory and completions read back, the
 * result with its evidence and control journal). {@code kind}: {@code responder} (a 4-packet RDMA WRITE out of order,
 * its ACK and the memory), {@code requester} (a 4-packet RDMA WRITE to the harness's peer through the network model,
 * checked on every frame, then its completion and the peer's memory). The score is cases per second; its inverse is
 * the per-case overhead the suite's run time is made of.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CaseOverheadBenchmark {
    private static final String RESPONDER = """
        id: BENCH-responder
        title: a 4-packet RDMA WRITE out of order
        rules: [MR-ORD-002]
        setup:
          connections:
            - {name: q, psn: 0}
          regions:
            - {name: m, length: 4 * pmtu, access: [remote_write]}
        steps:
          - message: {qp: q, op: write, mr: m, length: 4 * pmtu, order: [1, 0, 3, 2], ackreq: last}
          - expect: {ack: {psn: 4, msn: 1}, skip_others: true, within: ack_delay_max_ns}
          - expect_memory: {mr: m, model: true}
        exhaustive: false
        """;
    private static final String REQUESTER = """
        id: BENCH-requester
        title: a 4-packet RDMA WRITE to the peer
        rules: [MR-REQ-005]
        role: requester
        setup:
          connections:
            - {name: q, peer: true}
          regions:
            - {name: src, length: 4 * pmtu, access: [local_write], fill: {seq: 1}}
            - {name: dst, on: peer, length: 4 * pmtu, access: [local_write, remote_write]}
        steps:
          - post_send: {qp: q, op: write, mr: src, length: 4 * pmtu, remote_mr: dst}
          - advance: 50us
          - expect_completions: {qp: q, exact: true, entries: [{opcode: RDMA_WRITE, status: SUCCESS}]}
          - expect_memory: {mr: dst, model: true}
        """;

    /** Which case. */
    @Param({"responder", "requester"})
    public String kind;

    private Runner runner;
    private Runner.Planned planned;

    /** Loads the case and builds the runner (the adapter lives across cases, as in a run). */
    @Setup
    public void setUp() {
        final Specification spec = Specification.bundled();
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = new CaseLoader(spec).parse("bench/" + kind + ".yaml", "BENCH",
            "responder".equals(kind) ? RESPONDER : REQUESTER, problems);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the benchmark's case does not load: " + problems);
        }
        final DeviceProfile profile = DeviceProfile.of("bench", List.of());
        final ReferenceAdapter adapter = ReferenceAdapter.fromProfile(profile, spec, Set.of());
        runner = new Runner(new RunContext(adapter, spec, profile, 1, false, 2_000_000, 0, 0, ReferencePeer.FACTORY),
            List.of(), Clock.systemUTC());
        planned = new Runner.Planned(def, Map.of(), def.id());
        final CaseResult first = runner.runOne(planned);
        if (first.verdict() != Verdict.PASS) {
            throw new IllegalStateException("the benchmark's case does not pass: " + first.reason());
        }
    }

    /** Runs the case once. */
    @Benchmark
    public Verdict runCase() {
        return runner.runOne(planned).verdict();
    }
}

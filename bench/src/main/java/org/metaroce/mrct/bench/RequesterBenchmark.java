package org.metaroce.mrct.bench;

import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.metaroce.mrct.reference.ReferenceLink;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reference NIC as requester, with its whole loop running: one 4 MiB RDMA WRITE (4096 packets of 1 KiB) per
 * operation to a reference responder over a link of 2 us latency, on virtual time, with pacing at line rate, SACK
 * acknowledgements, loss inference and selective retransmission. {@code loss}: the percentage of first transmissions
 * the link loses (seeded), with 1 us of jitter, which reorders. The score times 4096 is the requester's packets per
 * second of CPU time (first transmissions; retransmissions come on top).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequesterBenchmark {
    /** Packets per write. */
    public static final int PACKETS = 4096;

    /** Percentage of first transmissions lost. */
    @Param({"0", "1"})
    public int loss;

    private ReferenceLink link;
    private ReferenceLink.Pair pair;
    private MemoryRegion source;
    private MemoryRegion sink;
    private long wrId;

    /** A fresh link and QP pair per iteration, so PSNs and timers never carry over. */
    @Setup(Level.Iteration)
    public void setUp() {
        link = new ReferenceLink(2_000, Set.of()).jitter(1_000, 7);
        final SplittableRandom random = new SplittableRandom(11);
        final java.util.Set<Integer> seen = new java.util.HashSet<>();
        if (loss > 0) {
            link.losing(f -> f.isRoce() && f.opcode().kind().isRequest() && seen.add(f.bth().psn())
                && random.nextInt(100) < loss);
        }
        pair = link.connect(0, QpAttributes.empty());
        source = link.requester().registerMr(pair.requesterPd(), (long) PACKETS * 1024, Set.of(Access.LOCAL_WRITE));
        sink = link.responder().registerMr(pair.responderPd(), (long) PACKETS * 1024, Set.of(Access.LOCAL_WRITE,
            Access.REMOTE_WRITE));
    }

    /** Releases the link. */
    @TearDown(Level.Iteration)
    public void tearDown() {
        link.close();
    }

    /** Posts one 4 MiB write and runs the link until it has completed; returns the completions polled. */
    @Benchmark
    public int write4MiB() {
        link.requester().postSend(pair.requesterQpn(), new SendWqe(++wrId, WorkOpcode.RDMA_WRITE, source.va(),
            (long) PACKETS * 1024, source.lkey(), sink.va(), sink.rkey(), 0, 0, 0, true));
        int completions = 0;
        while (completions == 0) {
            link.run(link.now() + 100_000);
            completions = link.requester().pollCompletions(pair.requesterQpn(), 4).size();
        }
        return completions;
    }
}

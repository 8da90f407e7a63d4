package org.metaroce.mrct.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Opcode;

/**
 * The reference requester against the reference responder over a small lossy, reordering link: every work request
 * completes once, in order, and memory on both sides ends as the operations say. The engine's own network (with its
 * invariant checks) is tested through the requester cases; this test pins the two devices' behaviour alone.
 */
class RequesterLoopTest {
    private static final long LATENCY = 1_000;

    /** A link counting the transmissions of each PSN and losing what {@code lose} says. */
    private static final class Link {
        final ReferenceLink link = new ReferenceLink(LATENCY, Set.of());
        final Map<Integer, Integer> transmissions = new HashMap<>();
        Predicate<DecodedFrame> drop = f -> false;

        Link() {
            link.losing(f -> {
                if (f.isRoce() && f.opcode().kind().isRequest()) {
                    transmissions.merge(f.bth().psn(), 1, Integer::sum);
                }
                return drop.test(f);
            });
        }
    }

    private record Pair(int dutQpn, int peerQpn, int dutPd, int peerPd) {
    }

    private static Pair connect(final Link link) {
        final ReferenceLink.Pair pair = link.link.connect(0xFFFFF0, QpAttributes.empty());
        return new Pair(pair.requesterQpn(), pair.responderQpn(), pair.requesterPd(), pair.responderPd());
    }

    private static byte[] pattern(final int length, final int seed) {
        final byte[] bytes = new byte[length];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    private static void assertSame(final String what, final byte[] actual, final byte[] expected) {
        int first = 0;
        while (first < Math.min(actual.length, expected.length) && actual[first] == expected[first]) {
            first++;
        }
        assertThat(first).as("%s: first differing byte", what).isEqualTo(expected.length);
    }

    private static List<Completion> drain(final ControlPlane control, final int qpn) {
        final List<Completion> out = new ArrayList<>();
        List<Completion> batch;
        while (!(batch = control.pollCompletions(qpn, 64)).isEmpty()) {
            out.addAll(batch);
        }
        return out;
    }

    /** A mixed workload over a link that drops and reorders; returns the requester's completions. */
    private static List<Completion> workload(final Link link, final int seed) {
        final Pair pair = connect(link);
        final ControlPlane d = link.link.requester();
        final ControlPlane p = link.link.responder();
        final MemoryRegion local = d.registerMr(pair.dutPd, 1 << 16, Set.of(Access.LOCAL_WRITE));
        final MemoryRegion remote = p.registerMr(pair.peerPd, 1 << 16, Set.of(Access.LOCAL_WRITE,
            Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC));
        final MemoryRegion sink = p.registerMr(pair.peerPd, 1 << 14, Set.of(Access.LOCAL_WRITE));
        d.writeMemory(local.va(), pattern(1 << 15, seed));
        p.writeMemory(remote.va() + (1 << 15), pattern(1 << 14, seed + 1));
        p.postReceive(pair.peerQpn, new ReceiveWqe(1, sink.va(), 1 << 13, sink.lkey()));
        p.postReceive(pair.peerQpn, new ReceiveWqe(2, sink.va() + (1 << 13), 1 << 13, sink.lkey()));
        d.postSend(pair.dutQpn, new SendWqe(1, WorkOpcode.RDMA_WRITE, local.va(), 5000, local.lkey(), remote.va(),
            remote.rkey(), 0, 0, 0, true));
        d.postSend(pair.dutQpn, new SendWqe(2, WorkOpcode.SEND, local.va() + 5000, 3000, local.lkey(), 0, 0, 0, 0,
            0, true));
        d.postSend(pair.dutQpn, new SendWqe(3, WorkOpcode.RDMA_READ, local.va() + (1 << 15), 6000, local.lkey(),
            remote.va() + (1 << 15), remote.rkey(), 0, 0, 0, true));
        d.postSend(pair.dutQpn, new SendWqe(4, WorkOpcode.FETCH_ADD, local.va() + 60_000, 8, local.lkey(),
            remote.va() + 50_000, remote.rkey(), 0, 5, 0, true));
        d.postSend(pair.dutQpn, new SendWqe(5, WorkOpcode.RDMA_WRITE_WITH_IMM, local.va() + 8000, 2500, local.lkey(),
            remote.va() + 20_000, remote.rkey(), 0x01020304, 0, 0, true));
        link.link.run(20_000_000);
        assertSame("WRITE", p.readMemory(remote.va(), 5000), d.readMemory(local.va(), 5000));
        assertSame("SEND", p.readMemory(sink.va(), 3000), d.readMemory(local.va() + 5000, 3000));
        assertSame("READ", d.readMemory(local.va() + (1 << 15), 6000), p.readMemory(remote.va() + (1 << 15), 6000));
        assertThat(p.readMemory(remote.va() + 50_000, 8)).isEqualTo(new byte[] {5, 0, 0, 0, 0, 0, 0, 0}); // atomic_memory_order little-endian
        assertSame("WRITE WITH IMMEDIATE", p.readMemory(remote.va() + 20_000, 2500),
            d.readMemory(local.va() + 8000, 2500));
        return drain(d, pair.dutQpn);
    }

    @Test
    void everyOperationCompletesInOrderOnACleanLink() {
        final Link link = new Link();
        final List<Completion> completions = workload(link, 1);
        assertThat(completions).extracting(Completion::wrId).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(completions).extracting(Completion::status).containsOnly(CompletionStatus.SUCCESS);
        assertThat(link.transmissions.values()).as("no retransmission on a clean link").containsOnly(1);
    }

    @Test
    void selectiveRetransmissionRepairsDropsAndReordering() {
        for (int seed = 1; seed <= 20; seed++) {
            final Link link = new Link();
            final SplittableRandom random = new SplittableRandom(seed);
            link.link.jitter(20_000, seed * 31L);
            final Map<Integer, Integer> seen = new HashMap<>();
            link.drop = f -> f.isRoce() && f.opcode().kind().isRequest()
                && seen.merge(f.bth().psn(), 1, Integer::sum) <= 1 && random.nextInt(8) == 0;
            final List<Completion> completions = workload(link, seed);
            assertThat(completions).as("seed %d", seed).extracting(Completion::wrId).containsExactly(1L, 2L, 3L, 4L,
                5L);
            assertThat(completions).as("seed %d", seed).extracting(Completion::status)
                .containsOnly(CompletionStatus.SUCCESS);
        }
    }

    @Test
    void reorderingWithinTheBoundsCausesNoRetransmission() {
        final Link link = new Link();
        link.link.jitter(20_000, 7);
        workload(link, 3);
        assertThat(link.transmissions.values()).containsOnly(1);
    }

    @Test
    void retriesExhaustIntoRetryExceededThenFlushed() {
        final Link link = new Link();
        link.drop = f -> f.isRoce() && f.opcode() != Opcode.ACKNOWLEDGE;
        final Pair pair = connect(link);
        final ControlPlane d = link.link.requester();
        final MemoryRegion local = d.registerMr(pair.dutPd, 4096, Set.of(Access.LOCAL_WRITE));
        d.postSend(pair.dutQpn, new SendWqe(1, WorkOpcode.RDMA_WRITE, local.va(), 100, local.lkey(), 0x1000, 1, 0, 0,
            0, true));
        d.postSend(pair.dutQpn, new SendWqe(2, WorkOpcode.RDMA_WRITE, local.va(), 100, local.lkey(), 0x1000, 1, 0, 0,
            0, true));
        link.link.run(50_000_000);
        final List<Completion> completions = drain(d, pair.dutQpn);
        assertThat(completions).extracting(Completion::status).containsExactly(CompletionStatus.RETRY_EXCEEDED,
            CompletionStatus.FLUSHED);
        assertThat(d.queryQp(pair.dutQpn)).isEqualTo(QpState.ERROR);
        // first PSN sent once plus retry_cnt (7) timeouts
        assertThat(link.transmissions.get(0xFFFFF0)).isEqualTo(8);
    }
}

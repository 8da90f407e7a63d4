package org.metaroce.mrct.analyzer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.TrafficGenerator;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * {@link Shards} spreads a capture's groups of hosts over shards, and gives up (for the caller's one-thread analysis)
 * when a frame joins two groups already on different shards. That the findings are the same as on one thread is
 * {@code ParallelAnalysisTest}'s business; this test makes sure the sharded path is the one taken there.
 */
public class ShardsTest {
    private static final Specification SPEC = Specification.bundled();

    @TempDir
    Path dir;

    private static Session session(final Path path, final Parameters parameters) {
        return new Session(path, path.toString(), Session.judge(false, false, parameters), parameters,
            Session.Mode.AUTO);
    }

    @Test
    void independentHostPairsAreSpreadOverTheShardsAndCountedWhole() throws IOException {
        final Path capture = dir.resolve("pairs.pcap");
        final long written = TrafficGenerator.writePairs(capture, TrafficGenerator.Options.eventful(20_000, 3), 4);
        final Parameters parameters = new Parameters(SPEC, null);
        final ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            final Shards.Result result = Shards.run(capture, 2, workers, () -> session(capture, parameters), null);
            assertThat(result).as("four independent host pairs on two shards").isNotNull();
            assertThat(result.failure()).isNull();
            assertThat(result.session().frames).isEqualTo(written);
            assertThat(result.connections()).hasSize(4);
            assertThat(result.connections()).allSatisfy(c -> assertThat(c.flows).hasSize(2));
        } finally {
            workers.shutdownNow();
        }
    }

    @Test
    void theRouterKeepsAGroupOnOneShardAndRefusesToJoinTwoShards() {
        final Shards.Router router = new Shards.Router(2);
        final int ab = router.route(0, 1, 0, 2);
        final int cd = router.route(0, 3, 0, 4);
        assertThat(ab).isNotEqualTo(cd);
        assertThat(router.route(0, 2, 0, 1)).isEqualTo(ab);
        assertThat(router.route(0, 2, 0, 5)).as("a new host joins B's group").isEqualTo(ab);
        assertThat(router.route(0, 5, 0, 1)).isEqualTo(ab);
        assertThat(router.route(0, 1, 0, 3)).as("A's group and C's are on different shards").isEqualTo(-1);
    }

    @Test
    void theRouterTakesBothDirectionsOfAHostPairInTurnAndStillSeesAJoin() {
        final Shards.Router router = new Shards.Router(2);
        final int ab = router.route(0, 1, 0, 2);
        for (int i = 0; i < 3; i++) {
            assertThat(router.route(0, 2, 0, 1)).as("B to A after A to B").isEqualTo(ab);
            assertThat(router.route(0, 1, 0, 2)).as("A to B after B to A").isEqualTo(ab);
        }
        final int cd = router.route(0, 3, 0, 4);
        assertThat(cd).as("a new group goes to the shard with fewer frames").isNotEqualTo(ab);
        assertThat(router.route(0, 4, 0, 3)).isEqualTo(cd);
        // not the last pair reversed (the halves of an address swapped): a new host pair
        assertThat(router.route(3, 0, 4, 0)).as("fewest frames: C and D's shard").isEqualTo(cd);
        assertThat(router.route(0, 3, 0, 1)).as("C's group and A's are on different shards").isEqualTo(-1);
    }

    @Test
    void aFrameJoiningGroupsOnTwoShardsMakesTheCaptureAnalysedOnOneThread() throws IOException {
        final Path capture = dir.resolve("joined.pcap");
        writeJoined(capture);
        final Parameters parameters = new Parameters(SPEC, null);
        final ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            assertThat(Shards.run(capture, 2, workers, () -> session(capture, parameters), null)).isNull();
        } finally {
            workers.shutdownNow();
        }
    }

    /** A to B, C to D, then A to C: the last frame joins the two groups. */
    public static void writeJoined(final Path file) throws IOException {
        final List<String[]> pairs = List.of(new String[] {"10.9.0.1", "10.9.0.2"},
            new String[] {"10.9.0.3", "10.9.0.4"}, new String[] {"10.9.0.1", "10.9.0.3"});
        long ts = 1_700_000_000_000_000_000L;
        try (PcapWriter writer = PcapWriter.create(file,
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            int qp = 0x40;
            for (final String[] pair : pairs) {
                final byte[] frame = FrameBuilder.of(Encapsulation.ipv4(pair[0], pair[1]), Opcode.RDMA_WRITE_ONLY)
                    .payload(new byte[64]).psn(100).destQp(qp++).ackReq(true).with("pleth.msn", 0)
                    .with("pleth.offset", 0).with("reth.va", 0x7f00_0000_0000L).with("reth.rkey", 0x1234)
                    .with("reth.dmalen", 64).build();
                writer.write(ts, ByteBuffer.wrap(frame), 0, frame.length);
                ts += 1_000;
            }
        }
    }
}

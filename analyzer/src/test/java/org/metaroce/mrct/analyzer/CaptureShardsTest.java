package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;

/**
 * A capture analysed in shards ({@link CaptureShards}) and merged gives exactly what its analysis in one piece gives:
 * every field of every case (the canonical form of {@link FindingsUnchangedTest}), the violations and the file's
 * counts; on a capture of several units of hosts (eventful conversations, two of them sharing the host that sends
 * their CNPs, a real soft-RoCE capture beside them), the same damaged, the fixtures and the mrct evidence fixture.
 */
class CaptureShardsTest {
    @TempDir
    Path dir;

    private static final CaptureAnalyzer.Options OPTIONS = CaptureAnalyzer.Options.defaults().withThreads(1);

    /** The whole analysis and the sharded one, as lines; asserts the plan has {@code minShards} shards at least. */
    private static void sameInShards(final Path capture, final int maxShards, final int minShards) {
        final String prefix = "x.pcap/";
        final CaptureAnalysis whole = new CaptureAnalyzer(Analyses.SPEC, OPTIONS).analyzeCapture(capture,
            capture.toString(), prefix);
        final CaptureShards.Plan plan = CaptureShards.plan(Analyses.SPEC, OPTIONS, capture, maxShards);
        assertThat(plan.shards()).as("shards of %s", capture).isBetween(minShards, maxShards);
        final List<CaptureShards.Shard> shards = new ArrayList<>();
        for (int s = plan.shards() - 1; s >= 0; s--) {
            shards.add(CaptureShards.analyze(Analyses.SPEC, OPTIONS, capture, capture.toString(), prefix, plan, s));
        }
        final CaptureAnalysis merged = CaptureShards.merge(shards, prefix);
        assertThat(lines(merged)).as("%s in %d shards", capture, plan.shards()).containsExactlyElementsOf(
            lines(whole));
        assertThat(merged.violations()).isEqualTo(whole.violations());
    }

    private static List<String> lines(final CaptureAnalysis a) {
        final List<String> out = new ArrayList<>();
        final FileOutcome f = a.file();
        out.add(f.name() + " " + f.frames() + " " + f.roceFrames() + " " + f.connections() + " " + f.cutFrames() + " "
            + f.otherLinkFrames() + " " + f.evidence() + " " + f.problem() + " " + f.oversizedFrames() + " "
            + f.oversized());
        for (final CaseResult c : a.cases()) {
            out.add(FindingsUnchangedTest.canonical(c));
        }
        return out;
    }

    @Test
    void severalUnitsOfHostsGiveTheWholeFindingsInShards() throws IOException {
        final List<Captures.Record> records = new ArrayList<>();
        records.addAll(moved(TrafficGenerator.Options.eventful(5_000, 3), 0x0A000101, 0x0A000102));
        records.addAll(moved(TrafficGenerator.Options.eventful(4_000, 5), 0x0A000201, 0x0A000202));
        // two conversations to one host, which sends the CNPs of both: one unit (the CNP scope of a port)
        records.addAll(moved(TrafficGenerator.Options.eventful(3_000, 7), 0x0A000301, 0x0A000309));
        records.addAll(moved(new TrafficGenerator.Options(3_000, 9, 0, 150, false), 0x0A000302, 0x0A000309));
        records.addAll(moved(TrafficGenerator.Options.clean(2_000, 11), 0x0A000401, 0x0A000402));
        // a real capture beside them, with its own clock: the capture's first timestamp is its
        records.addAll(Captures.read(Fixtures.fixtures().resolve("captures/soft-roce/rdma_send_bw.pcap")));
        records.sort(Comparator.comparingLong(Captures.Record::tsNs));
        final Path fleet = Captures.write(dir.resolve("fleet.pcap"), records);
        assertThat(CaptureShards.plan(Analyses.SPEC, OPTIONS, fleet, 99).units()).isEqualTo(5);
        sameInShards(fleet, 2, 2);
        sameInShards(fleet, 3, 3);
        sameInShards(fleet, 8, 5);
        final Path damaged = Captures.write(dir.resolve("damaged.pcap"), FindingsUnchangedTest.damage(records, 9));
        final CaptureAnalysis whole = new CaptureAnalyzer(Analyses.SPEC, OPTIONS).analyzeCapture(damaged, "d", "");
        assertThat(whole.cases()).as("the comparison covers findings, not only passes")
            .anyMatch(c -> !c.rules().isEmpty() && c.verdict() == Verdict.FAIL)
            .anyMatch(c -> !c.rules().isEmpty() && c.verdict() == Verdict.INCONCLUSIVE);
        sameInShards(damaged, 8, 2);
    }

    /**
     * Two connections to one host, whose CNPs for the second are left out of the capture: the first one's CNPs, from
     * the same host's port, answer the second one's CE marks (the checks' widest CNP scope). Judged apart, the second
     * connection's CNP checks find otherwise; in shards, its unit keeps both, and the findings are the whole's.
     */
    @Test
    void aHostsCnpScopeTiesItsConnectionsIntoOneShard() throws IOException {
        final List<Captures.Record> busy = moved(new TrafficGenerator.Options(4_000, 21, 0, 10, false), 0x0A000501,
            0x0A000509);
        final List<Captures.Record> quiet = new ArrayList<>(moved(new TrafficGenerator.Options(4_000, 23, 0, 40,
            false), 0x0A000502, 0x0A000509));
        quiet.removeIf(r -> Captures.opcode(r.bytes()) == 0x81);
        final List<Captures.Record> other = moved(TrafficGenerator.Options.eventful(3_000, 25), 0x0A000601,
            0x0A000602);
        final List<Captures.Record> records = new ArrayList<>(busy);
        records.addAll(quiet);
        records.addAll(other);
        records.sort(Comparator.comparingLong(Captures.Record::tsNs));
        final Path hub = Captures.write(dir.resolve("hub.pcap"), records);
        final Path alone = Captures.write(dir.resolve("alone.pcap"), quiet);
        final CaptureAnalyzer analyzer = new CaptureAnalyzer(Analyses.SPEC, OPTIONS);
        final String together = cnpCase(analyzer.analyzeCapture(hub, "hub", ""), "10.0.5.2 ");
        final String apart = cnpCase(analyzer.analyzeCapture(alone, "alone", ""), "10.0.5.2 ");
        assertThat(together).as("the quiet connection's CE marks are answered by the busy one's CNPs")
            .isNotEqualTo(apart);
        assertThat(CaptureShards.plan(Analyses.SPEC, OPTIONS, hub, 8).units()).isEqualTo(2);
        sameInShards(hub, 8, 2);
    }

    /** The verdict and reason of the CNP-after-CE check of the connection whose label starts with {@code host}. */
    private static String cnpCase(final CaptureAnalysis analysis, final String host) {
        return analysis.cases().stream().filter(c -> c.title().startsWith(host) && c.rules().contains("MR-CC-003"))
            .map(c -> c.verdict() + " " + c.reason()).findFirst().orElse("none");
    }

    @Test
    void theFixturesGiveTheWholeFindingsInShards() {
        for (final Path capture : Fixtures.softRoceCaptures()) {
            sameInShards(capture, 4, 1);
        }
        // an mrct evidence file is not split: shard 0 analyses it whole
        sameInShards(Fixtures.fixtures().resolve("captures/evidence/requester-cases.pcapng"), 4, 1);
    }

    @Test
    void manyOneFrameConnectionsGiveTheWholeFindingsInShards() throws IOException {
        final Path many = dir.resolve("many.pcap");
        TrafficGenerator.writeConnections(many, 400, 2);
        sameInShards(many, 4, 1);
    }

    /** A generated conversation between two other hosts ({@code a} requests, {@code b} responds), sealed again. */
    private static List<Captures.Record> moved(final TrafficGenerator.Options options, final int a, final int b)
        throws IOException {
        final List<Captures.Record> out = new ArrayList<>();
        TrafficGenerator.generateBetween(options, a, b, (ts, bytes) -> out.add(new Captures.Record(ts, bytes)));
        return out;
    }
}

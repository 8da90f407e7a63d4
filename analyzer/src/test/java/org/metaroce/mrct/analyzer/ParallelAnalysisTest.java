package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.testing.Fixtures;

/**
 * The analysis on several threads (reading and ICRCs ahead of the analysing thread) reports exactly what it reports on
 * one: every event, every field of every case (canonical form of {@link FindingsUnchangedTest}), the run's info and
 * summary, on the fixtures (soft-RoCE captures and mrct evidence), the shared captures when present, generated traffic
 * (eventful, damaged) and a capture of many connections. Captures analysed apart and reported together
 * ({@link CaptureAnalyzer#analyzeCapture}, {@link CaptureAnalyzer#report}) report the same again.
 */
class ParallelAnalysisTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    /** Every event a listener receives, as text (also {@link ConnectionReleaseTest}'s). */
    static class Recorder implements RunListener {
        final List<String> events = new ArrayList<>();

        @Override
        public void runStarted(final RunInfo info) {
            events.add("started " + info);
        }

        @Override
        public void caseStarted(final String id, final int index, final int total) {
            events.add("case " + id + " " + index + "/" + total);
        }

        @Override
        public void caseFinished(final CaseResult result) {
            events.add(FindingsUnchangedTest.canonical(result));
        }

        @Override
        public void runFinished(final RunInfo info, final RunSummary summary) {
            events.add("finished " + summary);
        }
    }

    private static List<String> run(final List<Path> captures, final int threads) {
        final Recorder recorder = new Recorder();
        final Outcome outcome = new CaptureAnalyzer(Analyses.SPEC, CaptureAnalyzer.Options.defaults()
            .withThreads(threads), CLOCK).analyze(captures, recorder);
        recorder.events.add("outcome " + outcome.checks() + " " + outcome.violations() + " " + outcome.views());
        outcome.files().forEach(f -> recorder.events.add(f.name() + " " + f.frames() + " " + f.roceFrames() + " "
            + f.connections() + " " + f.cutFrames() + " " + f.otherLinkFrames() + " " + f.evidence() + " "
            + f.problem() + " " + f.oversizedFrames()));
        return recorder.events;
    }

    private static void sameOnEveryThreadCount(final List<Path> captures) {
        final List<String> one = run(captures, 1);
        assertThat(one).hasSizeGreaterThan(3);
        for (final int threads : new int[] {2, 4}) {
            final List<String> many = run(captures, threads);
            assertThat(many).as("%d threads on %s", threads, captures).hasSameSizeAs(one);
            for (int i = 0; i < one.size(); i++) {
                assertThat(many.get(i)).as("%d threads on %s, event %d", threads, captures, i).isEqualTo(one.get(i));
            }
        }
    }

    @Test
    void theFixturesGiveTheSameFindingsOnEveryThreadCount() {
        for (final Path capture : Fixtures.softRoceCaptures()) {
            sameOnEveryThreadCount(List.of(capture));
        }
        sameOnEveryThreadCount(List.of(Fixtures.fixtures().resolve("captures/evidence/requester-cases.pcapng")));
        sameOnEveryThreadCount(Fixtures.softRoceCaptures());
    }

    @Test
    void theSharedCapturesGiveTheSameFindingsOnEveryThreadCount() {
        final List<Path> shared = Fixtures.sharedCaptures();
        org.junit.jupiter.api.Assumptions.assumeFalse(shared.isEmpty(), "no ../shared/captures beside the checkout");
        for (final Path capture : shared) {
            sameOnEveryThreadCount(List.of(capture));
        }
    }

    @Test
    void generatedAndDamagedTrafficGivesTheSameFindingsOnEveryThreadCount() throws IOException {
        final Path eventful = dir.resolve("eventful.pcap");
        // more records than a batch holds, so that batches hand over mid-connection
        TrafficGenerator.write(eventful, TrafficGenerator.Options.eventful(12_000, 5));
        sameOnEveryThreadCount(List.of(eventful));
        final List<Captures.Record> records = Captures.read(eventful);
        final Path damaged = Captures.write(dir.resolve("damaged.pcap"), FindingsUnchangedTest.damage(records, 9));
        sameOnEveryThreadCount(List.of(damaged));
        final Path many = dir.resolve("many.pcap");
        TrafficGenerator.writeConnections(many, 600, 2);
        sameOnEveryThreadCount(List.of(many));
    }

    @Test
    void oneCaptureOfSeveralHostPairsSpreadOverThreadsGivesTheSameFindings() throws IOException {
        // independent host pairs: their connections are analysed on several shards (internal.ShardsTest checks that
        // this capture is sharded), with losses, CE marks, CNPs and spraying in each
        final Path pairs = dir.resolve("pairs.pcap");
        TrafficGenerator.writePairs(pairs, TrafficGenerator.Options.eventful(24_000, 11), 5);
        sameOnEveryThreadCount(List.of(pairs));
        final List<Captures.Record> records = Captures.read(pairs);
        final Path damaged = Captures.write(dir.resolve("pairs-damaged.pcap"),
            FindingsUnchangedTest.damage(records, 13));
        sameOnEveryThreadCount(List.of(damaged));
        // a first record larger than any frame, refused before it sets the capture's origin (shard 0 gets it)
        final Path big = dir.resolve("pairs-oversized-first.pcapng");
        try (org.metaroce.mrct.wire.capture.PcapngWriter writer = org.metaroce.mrct.wire.capture.PcapngWriter.create(
            big, org.metaroce.mrct.wire.capture.PcapngWriter.Options.defaults())) {
            final int id = writer.addInterface(1, "eth0", 0);
            final byte[] oversized = new byte[300 * 1024];
            writer.write(id, records.get(0).tsNs() - 5_000, java.nio.ByteBuffer.wrap(oversized), 0, oversized.length,
                null);
            for (final Captures.Record r : records.subList(0, 6_000)) {
                writer.write(id, r.tsNs(), java.nio.ByteBuffer.wrap(r.bytes()), 0, r.bytes().length, null);
            }
        }
        sameOnEveryThreadCount(List.of(big));
        // a frame that joins two host groups already on different shards: the capture is analysed on one thread
        final Path joined = dir.resolve("joined.pcap");
        org.metaroce.mrct.analyzer.internal.ShardsTest.writeJoined(joined);
        sameOnEveryThreadCount(List.of(joined));
    }

    @Test
    void capturesAnalysedApartReportTheSameAsTogether() throws IOException {
        final Path eventful = dir.resolve("eventful.pcap");
        TrafficGenerator.write(eventful, TrafficGenerator.Options.eventful(5_000, 8));
        final List<Path> captures = new ArrayList<>(Fixtures.softRoceCaptures());
        captures.add(eventful);
        final CaptureAnalyzer.Options options = CaptureAnalyzer.Options.defaults().withMatchWindowNs(0);
        final Recorder together = new Recorder();
        new CaptureAnalyzer(Analyses.SPEC, options, CLOCK).analyze(captures, together);
        final CaptureAnalyzer analyzer = new CaptureAnalyzer(Analyses.SPEC, options, CLOCK);
        final List<CaptureAnalysis> apart = captures.parallelStream().map(p -> analyzer.analyzeCapture(p,
            p.toString(), CaptureAnalyzer.casePrefix(p.toString(), captures.size()))).toList();
        final Recorder reported = new Recorder();
        analyzer.report(apart, reported);
        assertThat(reported.events).hasSameSizeAs(together.events);
        for (int i = 0; i < together.events.size(); i++) {
            assertThat(reported.events.get(i)).as("event %d", i).isEqualTo(together.events.get(i));
        }
    }
}

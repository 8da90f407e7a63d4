package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * Connections released before the capture's end (issue 12): an idle connection judged and released early gives the
 * same events, every field of every case, as one held to the end, on one thread and on shards; a QP that resumes after
 * its connection was released is a new segment, judged like a connection first seen mid-capture, never failed for the
 * history it lacks, and counted; beyond the cap on the flows held, connections are released before their window ran
 * out, counted and noted, with no violation found for it.
 */
class ConnectionReleaseTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Every event a listener receives (canonical cases), the cases, and the outcome. */
    private static final class Run extends ParallelAnalysisTest.Recorder {
        final List<CaseResult> cases = new ArrayList<>();
        Outcome outcome;

        @Override
        public void caseFinished(final CaseResult result) {
            super.caseFinished(result);
            cases.add(result);
        }

        FileOutcome file() {
            return outcome.files().get(0);
        }
    }

    private static Run run(final List<Path> captures, final CaptureAnalyzer.Options options) {
        final Run run = new Run();
        run.outcome = new CaptureAnalyzer(Analyses.SPEC, options, CLOCK).analyze(captures, run);
        run.events.add("outcome " + run.outcome.checks() + " " + run.outcome.violations());
        run.outcome.files().forEach(f -> run.events.add(f.name() + " " + f.frames() + " " + f.roceFrames() + " "
            + f.connections() + " " + f.cutFrames() + " " + f.otherLinkFrames() + " " + f.problem()));
        return run;
    }

    private static void assertSame(final Run expected, final Run actual, final String what) {
        assertThat(actual.events).as(what).hasSameSizeAs(expected.events);
        for (int i = 0; i < expected.events.size(); i++) {
            assertThat(actual.events.get(i)).as("%s, event %d", what, i).isEqualTo(expected.events.get(i));
        }
    }

    private static CaptureAnalyzer.Options options(final int threads, final long windowNs, final long maxFlows) {
        return CaptureAnalyzer.Options.defaults().withThreads(threads).withRelease(windowNs, maxFlows);
    }

    /** Two host pairs' eventful conversations, the second starting {@code gapNs} after the first's last frame. */
    private Path oneAfterTheOther(final long gapNs) throws IOException {
        return oneAfterTheOther(gapNs, false);
    }

    /** As {@link #oneAfterTheOther(long)}, the first conversation damaged ({@link FindingsUnchangedTest#damage}). */
    private Path oneAfterTheOther(final long gapNs, final boolean damaged) throws IOException {
        final List<Captures.Record> generated = new ArrayList<>();
        TrafficGenerator.generateBetween(TrafficGenerator.Options.eventful(3_000, 21), 0x0A000001, 0x0A000002,
            (ts, bytes) -> generated.add(new Captures.Record(ts, bytes)));
        final List<Captures.Record> first = damaged ? FindingsUnchangedTest.damage(generated, 9) : generated;
        final List<Captures.Record> second = new ArrayList<>();
        TrafficGenerator.generateBetween(TrafficGenerator.Options.eventful(3_000, 22), 0x0A000101, 0x0A000102,
            (ts, bytes) -> second.add(new Captures.Record(ts, bytes)));
        final long shift = first.get(first.size() - 1).tsNs() + gapNs - second.get(0).tsNs();
        final List<Captures.Record> all = new ArrayList<>(first);
        second.forEach(r -> all.add(r.at(r.tsNs() + shift)));
        return Captures.write(dir.resolve("one-after-the-other.pcap"), all);
    }

    private static long largestGap(final List<Captures.Record> records) {
        long gap = 0;
        for (int i = 1; i < records.size(); i++) {
            gap = Math.max(gap, records.get(i).tsNs() - records.get(i - 1).tsNs());
        }
        return gap;
    }

    @Test
    void anIdleConnectionReleasedBeforeTheEndGivesTheSameFindingsOnEveryThreadCount() throws IOException {
        final Path capture = oneAfterTheOther(50 * MS);
        final List<Captures.Record> records = Captures.read(capture);
        // within each conversation no frame waits for the window: only the first conversation is idle that long
        assertThat(largestGap(records.subList(0, 3_000))).isLessThan(20 * MS);
        assertThat(largestGap(records.subList(3_000, records.size()))).isLessThan(20 * MS);
        final Run held = run(List.of(capture), options(1, 0, 0));
        assertThat(held.file().released()).isZero();
        assertThat(held.file().connections()).isEqualTo(2);
        for (final int threads : new int[] {1, 2, 4}) {
            final Run released = run(List.of(capture), options(threads, 20 * MS, 0));
            // on one thread the first conversation is released at the second's first frame; on shards, each of
            // which holds one conversation, a shard's clock is its own frames' (docs/analyze-at-scale.md)
            assertThat(released.file().released()).as("%d threads", threads).isEqualTo(threads == 1 ? 1 : 0);
            assertThat(released.file().releasedEarly()).isZero();
            assertThat(released.file().resumedFlows()).isZero();
            assertSame(held, released, threads + " threads, released after 20 ms idle");
        }
    }

    private static void sameWithAndWithoutRelease(final List<Path> captures) {
        for (final Path capture : captures) {
            final Run held = run(List.of(capture), options(1, 0, 0));
            for (final int threads : new int[] {1, 2}) {
                final Run released = run(List.of(capture), options(threads, -1, 0));
                assertSame(held, released, capture + ", the default window, " + threads + " threads");
            }
        }
    }

    @Test
    void aReleasedConnectionsViolationsAndTheirFramesAreReportedAsWhenHeld() throws IOException {
        // the first conversation damaged: its FAIL cases, with their frames and fields, go through the spill
        final Path capture = oneAfterTheOther(50 * MS, true);
        final Run held = run(List.of(capture), options(1, 0, 0).withComplete(true));
        assertThat(held.cases).anyMatch(c -> c.verdict() == Verdict.FAIL && c.id().startsWith("C1/")
            && c.failure() != null);
        for (final int threads : new int[] {1, 2}) {
            final Run released = run(List.of(capture), options(threads, 20 * MS, 0).withComplete(true));
            if (threads == 1) {
                // the conversation, and the connections its damaged frames made of their own
                assertThat(released.file().released()).isGreaterThanOrEqualTo(1);
            }
            assertSame(held, released, threads + " threads, a damaged conversation released after 20 ms idle");
        }
    }

    @Test
    void theFixturesGiveTheSameReportWithAndWithoutRelease() {
        final List<Path> captures = new ArrayList<>(Fixtures.softRoceCaptures());
        captures.add(Fixtures.fixtures().resolve("captures/evidence/requester-cases.pcapng"));
        sameWithAndWithoutRelease(captures);
    }

    @Test
    void theSharedCapturesGiveTheSameReportWithAndWithoutRelease() {
        final List<Path> shared = Fixtures.sharedCaptures();
        Assumptions.assumeFalse(shared.isEmpty(), "no capture in ../shared/captures");
        sameWithAndWithoutRelease(shared);
    }

    /** The number a FAIL case's reason starts with ({@code 60 violations, first at ...}), else 1. */
    private static long violations(final CaseResult c) {
        final String reason = c.reason();
        final int space = reason.indexOf(" violations");
        return space > 0 && reason.substring(0, space).chars().allMatch(Character::isDigit)
            ? Long.parseLong(reason.substring(0, space)) : 1;
    }

    @Test
    void aRealCaptureIdleLongerThanTheWindowSplitsIntoSegmentsWithTheSameViolations() throws Exception {
        // nccl_ring2_node0.pcap: its QPs idle longer than the reference profile's window (the declared timers): its
        // two connections become four segments, the device's ECN violations split between them, none added
        final Path capture = Fixtures.softRoceCaptures().stream()
            .filter(p -> p.getFileName().toString().equals("nccl_ring2_node0.pcap")).findFirst().orElseThrow();
        final var profile = org.metaroce.mrct.harness.profile.ProfileLoader.load(
            Fixtures.fixtures().resolve("profiles/reference.yaml"), Analyses.SPEC);
        final Run held = run(List.of(capture), options(1, 0, 0).withProfile(profile));
        final Run released = run(List.of(capture), options(1, -1, 0).withProfile(profile));
        assertThat(held.file().connections()).isEqualTo(2);
        assertThat(released.file().connections()).isEqualTo(4);
        assertThat(released.file().resumedFlows()).isEqualTo(4);
        for (final String rule : List.of("MR-CC-001")) {
            final long before = held.cases.stream().filter(c -> c.verdict() == Verdict.FAIL && c.rules().contains(rule))
                .mapToLong(ConnectionReleaseTest::violations).sum();
            final long after = released.cases.stream().filter(c -> c.verdict() == Verdict.FAIL
                && c.rules().contains(rule)).mapToLong(ConnectionReleaseTest::violations).sum();
            assertThat(before).isEqualTo(120);
            assertThat(after).as(rule).isEqualTo(before);
        }
        assertThat(released.cases.stream().filter(c -> c.verdict() == Verdict.FAIL && !c.rules().isEmpty())
            .flatMap(c -> c.rules().stream()).distinct()).containsExactly("MR-CC-001");
    }

    /** A clean conversation whose frames from {@code at} on are {@code gapNs} later: its QPs idle in between. */
    private Path pausedConversation(final int frames, final int at, final long gapNs) throws IOException {
        final Path whole = dir.resolve("whole.pcap");
        TrafficGenerator.write(whole, TrafficGenerator.Options.eventful(frames, 31));
        final List<Captures.Record> records = Captures.read(whole);
        final List<Captures.Record> paused = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            paused.add(i < at ? records.get(i) : records.get(i).at(records.get(i).tsNs() + gapNs));
        }
        return Captures.write(dir.resolve("paused.pcap"), paused);
    }

    @Test
    void aConnectionResumingAfterItsReleaseIsANewSegmentJudgedAsIfSeenMidCapture() throws IOException {
        // 30 s idle: longer than the window the defaults of Appendix B give (13.264 s)
        final Path capture = pausedConversation(4_000, 2_000, 30_000 * MS);
        for (final boolean complete : new boolean[] {false, true}) {
            final Run held = run(List.of(capture), options(1, 0, 0).withComplete(complete));
            assertThat(held.file().connections()).isEqualTo(1);
            for (final int threads : new int[] {1, 2}) {
                final Run released = run(List.of(capture), options(threads, -1, 0).withComplete(complete));
                final String what = (complete ? "complete, " : "") + threads + " threads";
                assertThat(released.file().connections()).as(what).isEqualTo(2);
                assertThat(released.file().released()).as(what).isEqualTo(1);
                assertThat(released.file().resumedFlows()).as(what).isEqualTo(2);
                assertThat(released.cases).as(what).noneMatch(c -> c.verdict() == Verdict.FAIL);
                final CaseResult second = released.cases.stream().filter(c -> c.id().equals("C2/summary"))
                    .findFirst().orElseThrow();
                assertThat(second.notes()).as(what).anyMatch(n -> n.contains("resumes after an idle time longer "
                    + "than the window of 13.264 s"));
                assertThat(released.cases.stream().filter(c -> c.id().equals("C1/summary")).findFirst()
                    .orElseThrow().notes()).noneMatch(n -> n.contains("resumes"));
            }
            if (!complete) {
                // without --complete the held analysis finds nothing either: the segments lose no violation
                assertThat(held.cases).noneMatch(c -> c.verdict() == Verdict.FAIL);
            }
        }
    }

    @Test
    void connectionsIdleBeforeTheCapIsReachedAreReleasedOnTimeNotEarly() throws IOException {
        // 1 ms apart, a window of 100 ms: about 100 held at once, under the cap of 256 flows, whatever the sweeps' lag
        final Path capture = dir.resolve("spaced.pcap");
        TrafficGenerator.writeConnections(capture, 1_000, 7, MS);
        final Run held = run(List.of(capture), options(1, 0, 0));
        for (final int threads : new int[] {1, 2}) {
            final Run released = run(List.of(capture), options(threads, 100 * MS, 256));
            assertThat(released.file().releasedEarly()).as("%d threads", threads).isZero();
            assertThat(released.file().released()).as("%d threads", threads).isGreaterThan(850);
            assertSame(held, released, threads + " threads, 1 ms apart, window 100 ms, cap 256");
        }
    }

    @Test
    void beyondTheCapConnectionsAreReleasedBeforeTheirWindowAndSaySo() throws IOException {
        final Path capture = dir.resolve("many.pcap");
        TrafficGenerator.writeConnections(capture, 1_000, 7);
        final Run held = run(List.of(capture), options(1, 0, 0));
        final Run capped = run(List.of(capture), options(1, -1, 128));
        assertThat(capped.file().connections()).isEqualTo(1_000);
        assertThat(capped.file().releasedEarly()).isGreaterThan(850).isEqualTo(capped.file().released());
        assertThat(capped.cases).noneMatch(c -> c.verdict() == Verdict.FAIL);
        // the same cases, in the same order, with the same verdicts; an early release is noted in its summary
        assertThat(capped.cases).hasSameSizeAs(held.cases);
        for (int i = 0; i < held.cases.size(); i++) {
            assertThat(capped.cases.get(i).id()).isEqualTo(held.cases.get(i).id());
            assertThat(capped.cases.get(i).verdict()).isEqualTo(held.cases.get(i).verdict());
        }
        assertThat(capped.cases.stream().filter(c -> c.id().equals("C1/summary")).findFirst().orElseThrow()
            .notes()).anyMatch(n -> n.contains("released before the end of the capture"));
        // on one thread the early releases follow the frames alone: the same events, every field, run after run (on
        // shards they follow the shards' progress, which the terminal line says)
        assertSame(capped, run(List.of(capture), options(1, -1, 128)), "a second run on one thread beyond the cap");
        // its hosts are one group (256 sources, 4 destinations, each source to two of them): on shards one shard holds
        // it whole with the whole cap as its part, and decides as the one thread does, whatever the other threads do
        for (final int threads : new int[] {2, 4}) {
            assertSame(capped, run(List.of(capture), options(threads, -1, 128)),
                "one group of hosts on " + threads + " threads beyond the cap");
        }
    }

    /**
     * {@code connections} one-frame connections 1 us apart over {@code pairs} host pairs that share no host (as many
     * groups of hosts), each its own QP.
     */
    private Path manyGroups(final int connections, final int pairs) throws IOException {
        final List<Captures.Record> records = new ArrayList<>();
        final byte[] payload = new byte[64];
        for (int i = 0; i < connections; i++) {
            final int k = i % pairs;
            final byte[] frame = FrameBuilder.of(Encapsulation.ipv4("10.3." + k + ".1", "10.4." + k + ".1")
                    .withUdpSourcePort(0xC000 + (i & 0x3FFF)), Opcode.RDMA_WRITE_ONLY)
                .payload(payload).psn(i * 7).destQp(0x100 + i).ackReq(true).with("pleth.msn", 0)
                .with("pleth.offset", 0).with("reth.va", 0x7f00_0000_0000L).with("reth.rkey", 0x1234)
                .with("reth.dmalen", payload.length).build();
            records.add(new Captures.Record(1_700_000_000_000_000_000L + i * 1_000L, frame));
        }
        return Captures.write(dir.resolve("groups.pcap"), records);
    }

    @Test
    void beyondTheCapShardsGiveTheSameReportEveryRun() throws IOException {
        // 16 groups spread over 2 shards, each holding its part of the cap of 128 flows (its groups' hosts among all):
        // which connections are released early follows the frames each shard was given, not the threads' progress
        final Path capture = manyGroups(2_000, 16);
        final Run first = run(List.of(capture), options(2, -1, 128));
        assertThat(first.file().connections()).isEqualTo(2_000);
        assertThat(first.file().releasedEarly()).isGreaterThan(1_500);
        assertThat(first.cases).noneMatch(c -> c.verdict() == Verdict.FAIL);
        for (int again = 0; again < 3; again++) {
            assertSame(first, run(List.of(capture), options(2, -1, 128)), "run " + (again + 2) + " on 2 threads");
        }
    }
}

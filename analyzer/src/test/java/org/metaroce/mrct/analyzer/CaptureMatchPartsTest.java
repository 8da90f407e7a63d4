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
 * The matching of several captures done in parts (the sightings grouped by host pair, each group matched apart, the
 * flows numbered across the parts, as the Spark job does it) gives the whole matching's cases and findings, field by
 * field, with 1, 2, 3 and 7 parts: three views of a switch port carrying eight host pairs (one whole, two later with
 * frames missing, one of them starting late and ending early), and two views of a real capture with a frame lost.
 * A capture whose frames are out of timestamp order says so in its span.
 */
class CaptureMatchPartsTest {
    private static final Path WRITE = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");

    @TempDir
    Path dir;

    @Test
    void partsGiveTheWholeMatchingOfASwitchPortsViews() throws IOException {
        final Path port = dir.resolve("port.pcap");
        TrafficGenerator.writePairs(port, TrafficGenerator.Options.eventful(12_000, 5), 8);
        final List<Captures.Record> records = Captures.read(port);
        final List<Captures.Record> second = new ArrayList<>();
        final List<Captures.Record> third = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            final Captures.Record r = records.get(i);
            if (i % 101 != 50) {
                second.add(r.at(r.tsNs() + 3_000));
            }
            if (i > records.size() / 10 && i < records.size() * 9 / 10 && i % 37 != 5) {
                third.add(r.at(r.tsNs() + 7_000 + i % 3 * 100));
            }
        }
        third.sort(Comparator.comparingLong(Captures.Record::tsNs));
        final List<Path> paths = List.of(port, Captures.write(dir.resolve("b.pcap"), second),
            Captures.write(dir.resolve("c.pcap"), third));
        final CaptureMatch whole = compareParts(paths, List.of("port.pcap", "b.pcap", "c.pcap"), true);
        assertThat(whole.cases()).hasSizeGreaterThanOrEqualTo(16);
        assertThat(whole.cases()).extracting(CaseResult::verdict).contains(Verdict.WARN);
        assertThat(whole.findings()).extracting(ViewFinding::kind).contains(ViewFinding.Kind.LOST);
    }

    @Test
    void partsGiveTheWholeMatchingOfARealCapturesTwoEnds() throws IOException {
        final List<Captures.Record> records = Captures.read(WRITE);
        final List<Captures.Record> later = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (i != records.size() / 2) {
                later.add(records.get(i).at(records.get(i).tsNs() + 5_000));
            }
        }
        final List<Path> paths = List.of(Captures.write(dir.resolve("a.pcap"), records),
            Captures.write(dir.resolve("b.pcap"), later));
        final CaptureMatch whole = compareParts(paths, List.of("a.pcap", "b.pcap"), false);
        assertThat(whole.findings()).isNotEmpty();
    }

    @Test
    void aCaptureOutOfTimestampOrderSaysSo() throws IOException {
        final List<Captures.Record> records = new ArrayList<>(Captures.read(WRITE));
        final Path sorted = Captures.write(dir.resolve("sorted.pcap"), records);
        final Captures.Record moved = records.remove(records.size() / 2);
        records.add(moved);
        final Path unsorted = Captures.write(dir.resolve("unsorted.pcap"), records);
        assertThat(span(sorted, 0).inOrder()).isTrue();
        assertThat(span(unsorted, 1).inOrder()).isFalse();
        assertThat(span(dir.resolve("missing.pcap"), 2).readable()).isFalse();
    }

    private static CaptureMatchParts.Span span(final Path path, final int index) {
        try (CaptureMatchParts.Reader reader = CaptureMatchParts.Reader.open(path, index)) {
            while (reader.next()) {
                assertThat(reader.number()).isPositive();
            }
            return reader.span();
        }
    }

    /** A sighting as the Spark job shuffles it: its order key and bytes. */
    private record Keyed(long ts, int capture, long number, byte[] bytes) {
    }

    /**
     * Matches {@code paths} whole and in 1, 2, 3 and 7 parts; asserts the parts give the whole's (and, when
     * {@code spread}, that 3 parts got frames of several host pairs); returns the whole's.
     */
    private static CaptureMatch compareParts(final List<Path> paths, final List<String> names,
                                             final boolean spread) {
        final CaptureMatch whole = new CaptureAnalyzer(Analyses.SPEC, CaptureAnalyzer.Options.defaults())
            .match(paths, names);
        for (final int parts : new int[] {1, 2, 3, 7}) {
            final List<List<Keyed>> byPart = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                byPart.add(new ArrayList<>());
            }
            final List<CaptureMatchParts.Span> spans = new ArrayList<>();
            for (int i = 0; i < paths.size(); i++) {
                try (CaptureMatchParts.Reader reader = CaptureMatchParts.Reader.open(paths.get(i), i)) {
                    while (reader.next()) {
                        byPart.get(Math.floorMod(reader.hostPair(), parts)).add(new Keyed(reader.ts(), i,
                            reader.number(), reader.sighting()));
                    }
                    spans.add(reader.span());
                    assertThat(reader.span().inOrder()).isTrue();
                }
            }
            final List<CaptureMatchParts.Flow> flows = new ArrayList<>();
            int nonEmpty = 0;
            for (final List<Keyed> part : byPart) {
                part.sort(Comparator.comparingLong(Keyed::ts).thenComparingInt(Keyed::capture)
                    .thenComparingLong(Keyed::number));
                final CaptureMatchParts.Matcher matcher = new CaptureMatchParts.Matcher(names,
                    CaptureAnalyzer.Options.MATCH_WINDOW_NS, spans);
                part.forEach(k -> matcher.add(k.bytes()));
                flows.addAll(matcher.finish());
                nonEmpty += part.isEmpty() ? 0 : 1;
            }
            if (parts == 3 && spread) {
                assertThat(nonEmpty).as("host pairs spread over the parts").isGreaterThan(1);
            }
            flows.sort(Comparator.comparingLong(CaptureMatchParts.Flow::firstTs)
                .thenComparingInt(CaptureMatchParts.Flow::firstCapture)
                .thenComparingLong(CaptureMatchParts.Flow::firstNumber));
            final List<CaseResult> cases = new ArrayList<>();
            final List<ViewFinding> findings = new ArrayList<>();
            for (int n = 0; n < flows.size(); n++) {
                if (flows.get(n).match() != null) {
                    final CaptureMatch numbered = CaptureMatchParts.numbered(flows.get(n).match(), n + 1);
                    cases.addAll(numbered.cases());
                    findings.addAll(numbered.findings());
                }
            }
            assertThat(cases).as("cases in %d parts", parts).usingRecursiveFieldByFieldElementComparator()
                .containsExactlyElementsOf(whole.cases());
            assertThat(findings).as("findings in %d parts", parts).containsExactlyElementsOf(whole.findings());
        }
        return whole;
    }
}

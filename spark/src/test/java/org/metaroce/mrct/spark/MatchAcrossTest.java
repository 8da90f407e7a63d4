package org.metaroce.mrct.spark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.CaptureMatch;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.analyzer.TrafficGenerator;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reports.ReportFormat;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.spark.internal.AnalyseWork;
import org.metaroce.mrct.spark.internal.Capture;
import org.metaroce.mrct.spark.internal.MatchAcross;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * The matching across captures spread over Spark tasks by host pair gives the one-task matching's cases and findings,
 * flow for flow, in 1, 3 and 8 tasks: three views of a switch port carrying eight host pairs (the second view later,
 * with frames missing; the third later still, shorter, with other frames missing). A capture out of timestamp order
 * makes it give up (null), and the job then matches in one task: the reports are still the local analysis's.
 */
class MatchAcrossTest {
    private static final ObjectMapper JSON = JsonMapper.builder()
        .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true).build();
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = TestSpark.session();
    }

    @Test
    void tasksByHostPairGiveTheOneTaskMatching(@TempDir final Path tmp) throws IOException {
        final List<Path> paths = views(tmp, false);
        final List<String> names = paths.stream().map(p -> p.getFileName().toString()).toList();
        final CaptureMatch local = new CaptureAnalyzer(Specification.bundled(), CaptureAnalyzer.Options.defaults())
            .match(paths, names);
        assertThat(local.cases()).hasSizeGreaterThanOrEqualTo(16);
        assertThat(local.cases()).extracting(c -> c.verdict()).contains(Verdict.WARN);
        assertThat(local.findings()).extracting(ViewFinding::kind).contains(ViewFinding.Kind.LOST);
        for (final int tasks : new int[] {1, 3, 8}) {
            final CaptureMatch spread = MatchAcross.match(context(), captures(paths), work(),
                CaptureAnalyzer.Options.MATCH_WINDOW_NS, tasks);
            assertThat(spread).as("%d tasks", tasks).isNotNull();
            // every field of every case and finding, as the reports write them (the JSON the tasks return the cases
            // in turns their numeric parameters into the narrowest type and their maps' order is unspecified)
            assertThat(JSON.writeValueAsString(spread)).as("cases and findings in %d tasks", tasks)
                .isEqualTo(JSON.writeValueAsString(local));
            assertThat(spread.findings()).as("findings in %d tasks", tasks)
                .containsExactlyElementsOf(local.findings());
        }
    }

    @Test
    void aCaptureOutOfTimeOrderIsMatchedInOneTaskWithTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final List<Path> paths = views(tmp, true);
        assertThat(MatchAcross.match(context(), captures(paths), work(), CaptureAnalyzer.Options.MATCH_WINDOW_NS, 3))
            .isNull();
        final Specification spec = Specification.bundled();
        final Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
        final List<String> names = paths.stream().map(Path::toString).toList();
        final Outcome local = new CaptureAnalyzer(spec, CaptureAnalyzer.Options.defaults(), clock).analyze(paths,
            names, Reports.open(tmp.resolve("local"), EnumSet.of(ReportFormat.JSON), spec));
        final Outcome fleet = FleetAnalysis.run(spark, new FleetAnalysis.Request(names,
                CaptureAnalyzer.Options.defaults(), null, null, 0, 3),
            Reports.open(tmp.resolve("spark"), EnumSet.of(ReportFormat.JSON), spec), clock);
        assertThat(Files.readString(tmp.resolve("spark/report.json")))
            .isEqualTo(Files.readString(tmp.resolve("local/report.json")));
        assertThat(fleet.views()).isEqualTo(local.views()).isNotEmpty();
    }

    private static JavaSparkContext context() {
        return JavaSparkContext.fromSparkContext(spark.sparkContext());
    }

    private static AnalyseWork work() {
        return new AnalyseWork(CaptureAnalyzer.Options.defaults(), null,
            AnalyseWork.HadoopConf.bytes(context().hadoopConfiguration()));
    }

    private static List<Capture> captures(final List<Path> paths) throws IOException {
        final List<Capture> out = new ArrayList<>();
        for (final Path p : paths) {
            out.add(new Capture(out.size(), p.getFileName().toString(), p.toUri().toString(), Files.size(p)));
        }
        return out;
    }

    /**
     * A switch port's capture of eight host pairs and two later views of it with frames missing; with
     * {@code unordered}, the third view has one frame moved to its end (out of timestamp order).
     */
    private static List<Path> views(final Path tmp, final boolean unordered) throws IOException {
        final Path port = tmp.resolve("a-port.pcap");
        TrafficGenerator.writePairs(port, TrafficGenerator.Options.eventful(8_000, 3), 8);
        final List<long[]> stamps = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(port)) {
            while (reader.next()) {
                final byte[] bytes = new byte[reader.capturedLength()];
                reader.buffer().get(reader.offset(), bytes);
                stamps.add(new long[] {reader.timestampNanos()});
                frames.add(bytes);
            }
        }
        final Path b = tmp.resolve("b-downstream.pcap");
        final Path c = tmp.resolve("c-further.pcap");
        try (PcapWriter wb = writer(b); PcapWriter wc = writer(c)) {
            for (int i = 0; i < frames.size(); i++) {
                if (i % 97 != 40) {
                    wb.write(stamps.get(i)[0] + 2_000, frames.get(i));
                }
                if (i > frames.size() / 8 && i < frames.size() * 7 / 8 && i % 41 != 7) {
                    wc.write(stamps.get(i)[0] + 4_000, frames.get(i));
                }
            }
            if (unordered) {
                wc.write(stamps.get(frames.size() / 2)[0] + 4_000, frames.get(frames.size() / 2));
            }
        }
        return List.of(port, b, c);
    }

    private static PcapWriter writer(final Path file) throws IOException {
        return PcapWriter.create(file, PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO));
    }
}

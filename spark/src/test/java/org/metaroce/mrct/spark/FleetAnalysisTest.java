package org.metaroce.mrct.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.FileOutcome;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.analyzer.TrafficGenerator;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reports.ReportFormat;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * The Spark job on a local master finds what {@code mrct analyze} finds: the same report.json, byte for byte (one
 * fixed clock for both), the same per-file counts and failing checks, over the fixtures, ../shared/captures and
 * larger captures made here; and its Parquet table holds one row per report case.
 */
class FleetAnalysisTest {
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private static final Path ROOT = Path.of(System.getProperty("mrct.root", "..")).toAbsolutePath().normalize();
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[2]").appName("mrct-spark-test")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.hadoop.fs." + OtherSchemeFileSystem.SCHEME + ".impl", OtherSchemeFileSystem.class.getName())
            .config("spark.hadoop.fs." + OtherSchemeFileSystem.SCHEME + ".impl.disable.cache", "true")
            .getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    void fixtureCapturesGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = ROOT.resolve("fixtures/captures");
        final Compared compared = compare(tmp, List.of(dir.toString()), captures(dir), null);
        assertThat(compared.local.files()).hasSizeGreaterThanOrEqualTo(7);
    }

    @Test
    void capturesOnAnotherFileSystemAreCopiedAndGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = ROOT.resolve("fixtures/captures/soft-roce");
        final List<Path> files = captures(dir);
        final List<String> names = files.stream().map(p -> OtherSchemeFileSystem.SCHEME + ":" + p)
            .collect(Collectors.toList());
        final Compared compared = compare(tmp, List.of(OtherSchemeFileSystem.SCHEME + "://" + dir), files, names,
            null);
        assertThat(compared.spark.files()).extracting(FileOutcome::name).first().asString()
            .startsWith(OtherSchemeFileSystem.SCHEME + ":/");
        assertThat(compared.spark.files()).allSatisfy(f -> assertThat(f.problem()).isNull());
    }

    @Test
    void sharedCapturesGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = ROOT.resolve("../shared/captures").normalize();
        assumeTrue(Files.isDirectory(dir) && !captures(dir).isEmpty(), "../shared/captures is absent: " + dir);
        compare(tmp, List.of(dir.toString()), captures(dir), null);
    }

    @Test
    void largeAndTiledCapturesGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve("fleet"));
        TrafficGenerator.write(dir.resolve("host-a.pcap"), TrafficGenerator.Options.eventful(40_000, 7));
        TrafficGenerator.write(dir.resolve("host-b.pcap"), TrafficGenerator.Options.eventful(25_000, 11));
        TrafficGenerator.write(dir.resolve("host-c.pcap"), TrafficGenerator.Options.clean(20_000, 13));
        // a real capture repeated 20 times, a second apart: every PSN seen 40 times, findings the capture cannot prove
        tile(ROOT.resolve("fixtures/captures/soft-roce/rdma_write_bw.pcap"), dir.resolve("tiled-write.pcap"), 20);
        // a real capture with one frame in the middle left out
        drop(ROOT.resolve("fixtures/captures/soft-roce/rdma_send_bw.pcap"), dir.resolve("dropped-send.pcap"));
        final Compared compared = compare(tmp, List.of(dir + "/*.pcap"), captures(dir), tmp.resolve("findings"));
        assertThat(compared.local.files()).extracting(FileOutcome::frames)
            .allSatisfy(frames -> assertThat(frames).isPositive());
        assertThat(compared.local.files().stream().mapToLong(FileOutcome::frames).sum()).isGreaterThan(80_000L);
        assertThat(compared.local.checks().get(Verdict.FAIL) + compared.local.checks().get(Verdict.INCONCLUSIVE))
            .as("the comparison covers findings, not only passes").isPositive();

        final List<Row> rows = spark.read().parquet(tmp.resolve("findings").toString()).collectAsList();
        final long cases = Files.readString(compared.sparkReport).split("\"verdict\"", -1).length;
        assertThat(rows).isNotEmpty();
        assertThat(rows.stream().filter(r -> r.isNullAt(r.fieldIndex("rule"))).count())
            .as("one summary row per connection")
            .isEqualTo(compared.local.files().stream().mapToLong(FileOutcome::connections).sum());
        assertThat(rows.stream().filter(r -> !r.isNullAt(r.fieldIndex("rule"))
            && "FAIL".equals(r.getString(r.fieldIndex("verdict")))).count())
            .isEqualTo(compared.local.checks().get(Verdict.FAIL).longValue());
        assertThat(rows.stream().filter(r -> !r.isNullAt(r.fieldIndex("rule"))
            && "INCONCLUSIVE".equals(r.getString(r.fieldIndex("verdict")))).count())
            .isEqualTo(compared.local.checks().get(Verdict.INCONCLUSIVE).longValue());
        assertThat(cases).isGreaterThan(rows.size());
        assertThat(rows.stream().map(r -> r.getString(r.fieldIndex("capture"))).distinct().count())
            .as("rows of every capture").isEqualTo(5);
    }

    /** Both analyses of the same captures; asserts they agree. */
    private record Compared(Outcome local, Outcome spark, Path sparkReport) {
    }

    private Compared compare(final Path tmp, final List<String> args, final List<Path> files, final Path parquet)
        throws Exception {
        return compare(tmp, args, files, files.stream().map(Path::toString).collect(Collectors.toList()), parquet);
    }

    /** As above, the local analysis naming the captures {@code names}. */
    private Compared compare(final Path tmp, final List<String> args, final List<Path> files, final List<String> names,
                             final Path parquet) throws Exception {
        final Specification spec = Specification.bundled();
        final CaptureAnalyzer.Options options = CaptureAnalyzer.Options.defaults().withMatchWindowNs(0);
        final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
        final Path localDir = tmp.resolve("local");
        final Path sparkDir = tmp.resolve("spark");
        final Outcome local = new CaptureAnalyzer(spec, options, clock).analyze(files, names,
            Reports.open(localDir, EnumSet.of(ReportFormat.JSON, ReportFormat.MARKDOWN), spec));
        final Outcome fleet = FleetAnalysis.run(spark, new FleetAnalysis.Request(args, options, null,
                parquet == null ? null : parquet.toString()),
            Reports.open(sparkDir, EnumSet.of(ReportFormat.JSON, ReportFormat.MARKDOWN), spec), clock);

        assertThat(Files.readString(sparkDir.resolve("report.json")))
            .as("report.json of the Spark job and of the local analysis")
            .isEqualTo(Files.readString(localDir.resolve("report.json")));
        assertThat(Files.readString(sparkDir.resolve(ReportFormat.MARKDOWN.fileName())))
            .isEqualTo(Files.readString(localDir.resolve(ReportFormat.MARKDOWN.fileName())));
        assertThat(fleet.violations()).isEqualTo(local.violations());
        assertThat(fleet.checks()).isEqualTo(local.checks());
        assertThat(fleet.summary().overall()).isEqualTo(local.summary().overall());
        assertThat(withoutTimes(fleet.files())).isEqualTo(withoutTimes(local.files()));
        return new Compared(local, fleet, sparkDir.resolve("report.json"));
    }

    private static List<FileOutcome> withoutTimes(final List<FileOutcome> files) {
        final List<FileOutcome> out = new ArrayList<>();
        for (final FileOutcome f : files) {
            out.add(new FileOutcome(f.name(), f.frames(), f.roceFrames(), f.connections(), f.cutFrames(),
                f.otherLinkFrames(), f.evidence(), 0, f.problem()));
        }
        return out;
    }

    /** The capture files under {@code dir}, as the job lists them (recursively, sorted by path). */
    private static List<Path> captures(final Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(Files::isRegularFile).filter(p -> {
                final String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
                return name.endsWith(".pcap") || name.endsWith(".pcapng") || name.endsWith(".cap");
            }).map(p -> p.toAbsolutePath().normalize()).sorted((a, b) -> a.toUri().toString()
                .compareTo(b.toUri().toString())).collect(Collectors.toList());
        }
    }

    private static void tile(final Path source, final Path target, final int times) throws IOException {
        final List<long[]> stamps = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        final int link = read(source, stamps, frames);
        final long span = stamps.get(stamps.size() - 1)[0] - stamps.get(0)[0] + 1_000_000_000L;
        try (PcapWriter writer = PcapWriter.create(target, PcapWriter.Options.defaults()
            .withFormat(CaptureFormat.PCAP_NANO).withLinkType(link))) {
            for (int t = 0; t < times; t++) {
                for (int i = 0; i < frames.size(); i++) {
                    writer.write(stamps.get(i)[0] + t * span, frames.get(i));
                }
            }
        }
    }

    private static void drop(final Path source, final Path target) throws IOException {
        final List<long[]> stamps = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        final int link = read(source, stamps, frames);
        try (PcapWriter writer = PcapWriter.create(target, PcapWriter.Options.defaults()
            .withFormat(CaptureFormat.PCAP_NANO).withLinkType(link))) {
            for (int i = 0; i < frames.size(); i++) {
                if (i != frames.size() / 2) {
                    writer.write(stamps.get(i)[0], frames.get(i));
                }
            }
        }
    }

    private static int read(final Path source, final List<long[]> stamps, final List<byte[]> frames)
        throws IOException {
        int link = CaptureReader.LINKTYPE_ETHERNET;
        try (CaptureReader reader = CaptureReader.open(source)) {
            while (reader.next()) {
                final byte[] bytes = new byte[reader.capturedLength()];
                reader.buffer().get(reader.offset(), bytes);
                stamps.add(new long[] {reader.timestampNanos()});
                frames.add(bytes);
                link = reader.linkType();
            }
        }
        return link;
    }
}

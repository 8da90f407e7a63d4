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
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.FileOutcome;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.analyzer.TrafficGenerator;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reports.ReportFormat;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * The Spark job on a local master finds what {@code mrct analyze} finds: the same report.json and summary.md, byte
 * for byte (one fixed clock for both), the same per-file counts, failing checks and frames missing between captures,
 * over the fixtures, ../shared/captures and captures made here: a capture of five units of hosts analysed in shards
 * (and its copy with frames left out), a tiled and a cut real capture, a sender's and a receiver's view with a frame
 * lost between them; and its Parquet table holds one row per report case. Large captures are split in shards here
 * whatever their size (shardBytes 1).
 */
class FleetAnalysisTest {
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private static final Path ROOT = Path.of(System.getProperty("mrct.root", "..")).toAbsolutePath().normalize();
    private static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = TestSpark.session();
    }

    @Test
    void fixtureCapturesGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = ROOT.resolve("fixtures/captures");
        final Compared compared = compare(tmp, List.of(dir.toString()), captures(dir), null, 1);
        assertThat(compared.local.files()).hasSizeGreaterThanOrEqualTo(7);
    }

    @Test
    void capturesOnAnotherFileSystemAreCopiedAndGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = ROOT.resolve("fixtures/captures/soft-roce");
        final List<Path> files = captures(dir);
        final List<String> names = files.stream().map(p -> OtherSchemeFileSystem.SCHEME + ":" + p)
            .collect(Collectors.toList());
        final Compared compared = compare(tmp, List.of(OtherSchemeFileSystem.SCHEME + "://" + dir), files, names,
            null, 1, 3);
        assertThat(compared.spark.files()).extracting(FileOutcome::name).first().asString()
            .startsWith(OtherSchemeFileSystem.SCHEME + ":/");
        assertThat(compared.spark.files()).allSatisfy(f -> assertThat(f.problem()).isNull());
    }

    @Test
    void sharedCapturesGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = ROOT.resolve("../shared/captures").normalize();
        assumeTrue(Files.isDirectory(dir) && !captures(dir).isEmpty(), "../shared/captures is absent: " + dir);
        compare(tmp, List.of(dir.toString()), captures(dir), null, 1);
    }

    @Test
    void shardedTiledAndDamagedCapturesGiveTheLocalFindings(@TempDir final Path tmp) throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve("fleet"));
        // a switch port's capture: four units of hosts, one of them a host receiving two connections (their CNPs
        // share its port's scope), analysed in shards
        final List<long[]> stamps = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        moved(TrafficGenerator.Options.eventful(6_000, 7), 0x0A000101, 0x0A000102, stamps, frames);
        moved(TrafficGenerator.Options.eventful(4_000, 11), 0x0A000201, 0x0A000202, stamps, frames);
        moved(new TrafficGenerator.Options(3_000, 13, 500, 10, true), 0x0A000301, 0x0A000309, stamps, frames);
        // the second one's CNPs left out: the first one's, from the same port, answer its CE marks
        final int before = frames.size();
        moved(new TrafficGenerator.Options(3_000, 17, 0, 40, false), 0x0A000302, 0x0A000309, stamps, frames);
        for (int i = frames.size() - 1; i >= before; i--) {
            if ((frames.get(i)[42] & 0xFF) == 0x81) {
                frames.remove(i);
                stamps.remove(i);
            }
        }
        moved(TrafficGenerator.Options.clean(2_000, 19), 0x0A000401, 0x0A000402, stamps, frames);
        write(dir.resolve("port-1.pcap"), stamps, frames, CaptureReader.LINKTYPE_ETHERNET, -1);
        // the same with every 997th frame left out: failing and inconclusive checks too
        write(dir.resolve("port-2.pcap"), stamps, frames, CaptureReader.LINKTYPE_ETHERNET, 997);
        // a real capture repeated 6 times, a second apart: every PSN seen 6 times, findings it cannot prove
        tile(ROOT.resolve("fixtures/captures/soft-roce/rdma_write_bw.pcap"), dir.resolve("tiled-write.pcap"), 6);
        // a real capture with one frame in the middle left out
        drop(ROOT.resolve("fixtures/captures/soft-roce/rdma_send_bw.pcap"), dir.resolve("dropped-send.pcap"));
        // the frames matched across the five captures in 5 tasks, each a share of the host pairs
        final Compared compared = compare(tmp, List.of(dir + "/*.pcap"), captures(dir), tmp.resolve("findings"), 1,
            5);
        assertThat(compared.local.files().stream().mapToLong(FileOutcome::frames).sum()).isGreaterThan(30_000L);
        assertThat(compared.local.checks().get(Verdict.FAIL)).as("failing checks compared").isPositive();
        assertThat(compared.local.checks().get(Verdict.INCONCLUSIVE)).as("inconclusive checks compared")
            .isPositive();

        final List<Row> rows = spark.read().parquet(tmp.resolve("findings").toString()).collectAsList();
        final long cases = Files.readString(compared.sparkReport).split("\"verdict\"", -1).length;
        assertThat(rows).isNotEmpty();
        assertThat(rows.stream().filter(r -> r.isNullAt(r.fieldIndex("rule"))
            && r.getString(r.fieldIndex("case_id")).endsWith("/summary")).count())
            .as("one summary row per connection")
            .isEqualTo(compared.local.files().stream().mapToLong(FileOutcome::connections).sum());
        assertThat(rows.stream().filter(r -> !r.isNullAt(r.fieldIndex("rule"))
            && "FAIL".equals(r.getString(r.fieldIndex("verdict")))).count())
            .isEqualTo(compared.local.checks().get(Verdict.FAIL).longValue());
        assertThat(rows.stream().filter(r -> !r.isNullAt(r.fieldIndex("rule"))
            && "INCONCLUSIVE".equals(r.getString(r.fieldIndex("verdict")))).count())
            .isEqualTo(compared.local.checks().get(Verdict.INCONCLUSIVE).longValue());
        assertThat(cases).isGreaterThan(rows.size());
        assertThat(rows.stream().map(r -> r.isNullAt(r.fieldIndex("capture")) ? "views"
            : r.getString(r.fieldIndex("capture"))).distinct().count())
            .as("rows of every capture, and of the views across them").isEqualTo(5);
    }

    @Test
    void framesLostBetweenTwoCapturesAreFoundAsLocally(@TempDir final Path tmp) throws Exception {
        // the sender's and the receiver's views of the same traffic: the receiver's 5 us later, one request lost
        final Path dir = Files.createDirectories(tmp.resolve("views"));
        final List<long[]> stamps = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        final int link = read(ROOT.resolve("fixtures/captures/soft-roce/rdma_write_bw.pcap"), stamps, frames);
        write(dir.resolve("a-sender.pcap"), stamps, frames, link, -1);
        final List<long[]> later = new ArrayList<>();
        for (final long[] stamp : stamps) {
            later.add(new long[] {stamp[0] + 5_000});
        }
        int lost = frames.size() / 2;
        while (frames.get(lost).length < 1000) {
            lost++;
        }
        final List<long[]> receivedStamps = new ArrayList<>(later);
        final List<byte[]> received = new ArrayList<>(frames);
        receivedStamps.remove(lost);
        received.remove(lost);
        write(dir.resolve("b-receiver.pcap"), receivedStamps, received, link, -1);
        final Compared compared = compare(tmp, List.of(dir.toString()), captures(dir), null, 0);
        final long lostFrame = lost + 1L;
        assertThat(compared.spark.views()).isEqualTo(compared.local.views()).isNotEmpty();
        assertThat(compared.spark.views()).anySatisfy(v -> {
            assertThat(v.kind()).isEqualTo(ViewFinding.Kind.LOST);
            assertThat(v.seenIn()).endsWith("a-sender.pcap");
            assertThat(v.missingIn()).endsWith("b-receiver.pcap");
            assertThat(v.frame()).isEqualTo(lostFrame);
        });
        assertThat(Files.readString(compared.sparkReport)).contains("\"views/F1\"");
    }

    /** Both analyses of the same captures; asserts they agree. */
    private record Compared(Outcome local, Outcome spark, Path sparkReport) {
    }

    private Compared compare(final Path tmp, final List<String> args, final List<Path> files, final Path parquet,
                             final long shardBytes) throws Exception {
        return compare(tmp, args, files, parquet, shardBytes, 0);
    }

    /** As above, the frames matched across the captures in {@code matchTasks} tasks (0: the default). */
    private Compared compare(final Path tmp, final List<String> args, final List<Path> files, final Path parquet,
                             final long shardBytes, final int matchTasks) throws Exception {
        return compare(tmp, args, files, files.stream().map(Path::toString).collect(Collectors.toList()), parquet,
            shardBytes, matchTasks);
    }

    /** As above, the local analysis naming the captures {@code names}. */
    private Compared compare(final Path tmp, final List<String> args, final List<Path> files, final List<String> names,
                             final Path parquet, final long shardBytes, final int matchTasks) throws Exception {
        final Specification spec = Specification.bundled();
        final CaptureAnalyzer.Options options = CaptureAnalyzer.Options.defaults();
        final Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
        final Path localDir = tmp.resolve("local");
        final Path sparkDir = tmp.resolve("spark");
        final Outcome local = new CaptureAnalyzer(spec, options, clock).analyze(files, names,
            Reports.open(localDir, EnumSet.of(ReportFormat.JSON, ReportFormat.MARKDOWN), spec));
        final Outcome fleet = FleetAnalysis.run(spark, new FleetAnalysis.Request(args, options, null,
                parquet == null ? null : parquet.toString(), shardBytes, matchTasks),
            Reports.open(sparkDir, EnumSet.of(ReportFormat.JSON, ReportFormat.MARKDOWN), spec), clock);

        assertThat(Files.readString(sparkDir.resolve("report.json")))
            .as("report.json of the Spark job and of the local analysis")
            .isEqualTo(Files.readString(localDir.resolve("report.json")));
        assertThat(Files.readString(sparkDir.resolve(ReportFormat.MARKDOWN.fileName())))
            .isEqualTo(Files.readString(localDir.resolve(ReportFormat.MARKDOWN.fileName())));
        assertThat(fleet.violations()).isEqualTo(local.violations());
        assertThat(fleet.views()).isEqualTo(local.views());
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
        final List<long[]> keptStamps = new ArrayList<>(stamps);
        final List<byte[]> kept = new ArrayList<>(frames);
        keptStamps.remove(frames.size() / 2);
        kept.remove(frames.size() / 2);
        write(target, keptStamps, kept, link, -1);
    }

    /** Writes the frames in timestamp order (stable), leaving out every {@code dropEvery}th (-1: none). */
    private static void write(final Path target, final List<long[]> stamps, final List<byte[]> frames, final int link,
                              final int dropEvery) throws IOException {
        final List<Integer> order = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> stamps.get(i)[0]));
        try (PcapWriter writer = PcapWriter.create(target, PcapWriter.Options.defaults()
            .withFormat(CaptureFormat.PCAP_NANO).withLinkType(link))) {
            int n = 0;
            for (final int i : order) {
                if (dropEvery < 0 || ++n % dropEvery != 0) {
                    writer.write(stamps.get(i)[0], frames.get(i));
                }
            }
        }
    }

    /** A generated conversation between two other hosts ({@code a} requests, {@code b} responds), sealed again. */
    private static void moved(final TrafficGenerator.Options options, final int a, final int b,
                              final List<long[]> stamps, final List<byte[]> frames) throws IOException {
        TrafficGenerator.generateBetween(options, a, b, (ts, bytes) -> {
            stamps.add(new long[] {ts});
            frames.add(bytes);
        });
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

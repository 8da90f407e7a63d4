package org.metaroce.mrct.spark;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.metaroce.mrct.analyzer.CaptureAnalysis;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spark.internal.AnalyseCapture;
import org.metaroce.mrct.spark.internal.AnalyzerSeam;
import org.metaroce.mrct.spark.internal.Capture;
import org.metaroce.mrct.spark.internal.CaptureFindings;
import org.metaroce.mrct.spark.internal.CaseCodec;
import org.metaroce.mrct.spark.internal.FindingsTable;
import org.metaroce.mrct.spark.internal.FleetCommand;
import org.metaroce.mrct.spark.internal.Inputs;

/**
 * {@code mrct analyze} on Apache Spark: the captures of a fleet (one per host or mirror port, on any Hadoop-compatible
 * file system) analysed in parallel, one task per capture, by the same analyzer and oracle as {@code mrct analyze};
 * the same reports (report.json and the others, through a {@link RunListener}) and a Parquet table of the findings.
 *
 * <pre>{@code
 * SparkSession spark = SparkSession.builder().master("local[2]").getOrCreate();
 * Outcome outcome = FleetAnalysis.run(spark, new FleetAnalysis.Request(List.of("hdfs:///traces/2026-12-01/"),
 *     CaptureAnalyzer.Options.defaults(), null, "hdfs:///traces/findings.parquet"), Reports.open(dir, formats, spec));
 * }</pre>
 *
 * <p>The command line ({@link #main}) takes the options of {@code mrct analyze} and {@code --master}; it is what
 * {@code mrct analyze --spark MASTER} starts in a child JVM, and what {@code spark-submit} runs on a cluster.
 */
public final class FleetAnalysis {
    /**
     * What to analyse.
     *
     * @param captures files, directories or globs, as Hadoop paths ({@code hdfs://...}, {@code s3a://...}, local)
     * @param options  the analysis options; their profile, when set, must come with {@code profile}
     * @param profile  the profile file (executors parse it again), or null for none
     * @param parquet  where to write the findings table (a Hadoop path), or null for none
     */
    public record Request(List<String> captures, CaptureAnalyzer.Options options, ProfileFile profile,
                          String parquet) {
        public Request {
            captures = List.copyOf(captures);
            Objects.requireNonNull(options, "options");
        }
    }

    /** A device profile file as read on the driver: its name, text and SHA-256 (as {@code ProfileLoader} gives). */
    public record ProfileFile(String name, String text, String sha256) {
        /** Reads and checks a profile file. */
        public static ProfileFile read(final java.nio.file.Path file, final Specification spec)
            throws ProfileLoader.ProfileException, IOException {
            final byte[] bytes = java.nio.file.Files.readAllBytes(file);
            final ProfileFile profile = new ProfileFile(file.getFileName().toString(),
                new String(bytes, java.nio.charset.StandardCharsets.UTF_8), ProfileLoader.sha256(bytes));
            profile.load(spec);
            return profile;
        }

        /** The profile. */
        public org.metaroce.mrct.harness.profile.DeviceProfile load(final Specification spec)
            throws ProfileLoader.ProfileException {
            return ProfileLoader.parse(name, text, sha256, spec);
        }
    }

    private FleetAnalysis() {
    }

    /** {@code mrct analyze} options plus {@code --master}: see {@code --help}. Exits 0, 1 (violations) or 2. */
    public static void main(final String[] args) {
        if (System.getProperty("log4j2.configurationFile") == null && System.getenv("SPARK_HOME") == null) {
            // started by mrct analyze --spark: Spark's warnings only (spark-submit keeps the cluster's logging)
            final java.net.URL quiet = FleetAnalysis.class.getResource("log4j2.properties");
            if (quiet != null) {
                System.setProperty("log4j2.configurationFile", quiet.toString());
            }
        }
        System.exit(FleetCommand.run(args));
    }

    /**
     * Analyses the captures on {@code spark}, one task per capture (the largest first), then reports on the driver
     * as {@code CaptureAnalyzer} does: {@code runStarted}, every case in capture order, {@code runFinished}.
     *
     * @throws Inputs.NoCapture when a directory or glob yields no capture
     * @throws IOException      when the captures cannot be listed
     */
    public static Outcome run(final SparkSession spark, final Request request, final RunListener listener)
        throws IOException, Inputs.NoCapture {
        return run(spark, request, listener, Clock.systemUTC());
    }

    /** As {@link #run(SparkSession, Request, RunListener)}, with a clock for the reports' times (tests). */
    public static Outcome run(final SparkSession spark, final Request request, final RunListener listener,
                              final Clock clock) throws IOException, Inputs.NoCapture {
        final Specification spec = Specification.bundled();
        final JavaSparkContext context = JavaSparkContext.fromSparkContext(spark.sparkContext());
        final org.apache.hadoop.conf.Configuration conf = context.hadoopConfiguration();
        final List<Capture> captures = Inputs.expand(request.captures(), conf);
        final List<Capture> bySize = new ArrayList<>(captures);
        bySize.sort(Comparator.comparingLong(Capture::bytes).reversed().thenComparingInt(Capture::index));
        final ProfileFile profile = request.profile();
        final String[] profileParts = profile == null ? null
            : new String[] {profile.name(), profile.text(), profile.sha256()};
        final JavaRDD<Capture> rdd = context.parallelize(bySize, Math.max(1, bySize.size()));
        final List<CaptureFindings> found = new ArrayList<>(rdd.map(new AnalyseCapture(request.options(),
            profileParts, AnalyseCapture.HadoopConf.bytes(conf), captures.size())).collect());
        found.sort(Comparator.comparingInt(CaptureFindings::index));

        final List<CaptureAnalysis> analyses = new ArrayList<>();
        final List<String> caseCaptures = new ArrayList<>();
        final List<CaseResult> cases = new ArrayList<>();
        for (final CaptureFindings findings : found) {
            final Capture capture = captures.get(findings.index());
            final List<CaseResult> own = new ArrayList<>();
            for (final String json : findings.cases()) {
                own.add(CaseCodec.readCase(json));
                caseCaptures.add(capture.name());
            }
            cases.addAll(own);
            analyses.add(new CaptureAnalysis(CaseCodec.readFile(findings.file()), own, findings.violations()));
        }
        final Outcome outcome = AnalyzerSeam.report(spec, request.options(), clock, analyses, listener);
        if (request.parquet() != null) {
            FindingsTable.write(spark, FindingsTable.rows(caseCaptures, cases), request.parquet());
        }
        return outcome;
    }
}

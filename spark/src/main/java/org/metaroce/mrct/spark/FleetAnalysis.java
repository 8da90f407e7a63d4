package org.metaroce.mrct.spark;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.metaroce.mrct.analyzer.CaptureAnalysis;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.CaptureMatch;
import org.metaroce.mrct.analyzer.CaptureShards;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spark.internal.AnalyseWork;
import org.metaroce.mrct.spark.internal.AnalyzerSeam;
import org.metaroce.mrct.spark.internal.Capture;
import org.metaroce.mrct.spark.internal.Work;
import org.metaroce.mrct.spark.internal.CaseCodec;
import org.metaroce.mrct.spark.internal.FindingsTable;
import org.metaroce.mrct.spark.internal.FleetCommand;
import org.metaroce.mrct.spark.internal.Inputs;
import org.metaroce.mrct.spark.internal.MatchAcross;

/**
 * {@code mrct analyze} on Apache Spark: the captures of a fleet (one per host or mirror port, on any Hadoop-compatible
 * file system) analysed in parallel (one task per capture, or per shard of hosts of a large one, and the frames
 * matched across the captures in tasks that each take a share of the host pairs) by the same analyzer and oracle as
 * {@code mrct analyze}; the same reports (report.json and the others, through a {@link RunListener}) and a Parquet
 * table of the findings.
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
     * @param shardBytes a capture larger than this is analysed in shards of whole units of hosts, about this many
     *                 bytes of it each (0: every capture whole)
     * @param matchTasks with several captures, the tasks matching their frames across them, each a share of the host
     *                 pairs (0: as many as the job's size asks)
     */
    public record Request(List<String> captures, CaptureAnalyzer.Options options, ProfileFile profile,
                          String parquet, long shardBytes, int matchTasks) {
        public Request {
            captures = List.copyOf(captures);
            Objects.requireNonNull(options, "options");
            if (shardBytes < 0) {
                throw new IllegalArgumentException("shardBytes must be 0 (no shards) or more");
            }
            if (matchTasks < 0) {
                throw new IllegalArgumentException("matchTasks must be 0 (as many as the job's size asks) or more");
            }
        }

        /** Captures matched in as many tasks as the job's size asks ({@link #matchTasks(List, JavaSparkContext)}). */
        public Request(final List<String> captures, final CaptureAnalyzer.Options options, final ProfileFile profile,
                       final String parquet, final long shardBytes) {
            this(captures, options, profile, parquet, shardBytes, 0);
        }

        /** Captures larger than {@value FleetAnalysis#SHARD_BYTES} bytes analysed in shards. */
        public Request(final List<String> captures, final CaptureAnalyzer.Options options, final ProfileFile profile,
                       final String parquet) {
            this(captures, options, profile, parquet, SHARD_BYTES);
        }

        /**
         * The tasks matching the captures: {@link #matchTasks()} when set, else the cluster's default parallelism or
         * one per {@value FleetAnalysis#SHARD_BYTES} bytes of captures, whichever is more, at most
         * {@value FleetAnalysis#MAX_SHARDS}.
         */
        int matchTasks(final List<Capture> listed, final JavaSparkContext context) {
            if (matchTasks > 0) {
                return matchTasks;
            }
            final long bytes = listed.stream().mapToLong(c -> Math.max(0, c.bytes())).sum();
            return (int) Math.min(MAX_SHARDS, Math.max(context.defaultParallelism(),
                (bytes + SHARD_BYTES - 1) / SHARD_BYTES));
        }
    }

    /** The default {@link Request#shardBytes()}: 256 MiB. */
    public static final long SHARD_BYTES = 256L << 20;
    /** Shards of one capture at most. */
    static final int MAX_SHARDS = 1024;

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
     * Analyses the captures on {@code spark}, then reports on the driver as {@code CaptureAnalyzer} does:
     * {@code runStarted}, every case in capture order, the matching's cases, {@code runFinished}. A capture larger
     * than {@link Request#shardBytes()} is first read once to find its units of hosts, then analysed in shards of
     * whole units, one task each; the others one task each; then the frames of several captures matched across them
     * by host pair ({@link MatchAcross}; in one task when a capture's frames are out of timestamp order).
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
        final int count = captures.size();
        final ProfileFile profile = request.profile();
        final String[] profileParts = profile == null ? null
            : new String[] {profile.name(), profile.text(), profile.sha256()};
        final AnalyseWork task = new AnalyseWork(request.options(), profileParts,
            AnalyseWork.HadoopConf.bytes(conf));

        // 1. the large captures' units of hosts, dealt to shards of about shardBytes each
        final Map<Integer, Work.ShardPlan> plans = new HashMap<>();
        final List<Work> planning = new ArrayList<>();
        for (final Capture capture : captures) {
            if (request.shardBytes() > 0 && capture.bytes() > request.shardBytes()) {
                final long shards = Math.min(MAX_SHARDS, (capture.bytes() + request.shardBytes() - 1)
                    / request.shardBytes());
                planning.add(new Work(Work.Kind.PLAN, capture, count, (int) shards, null, List.of()));
            }
        }
        for (final Work.Result result : execute(context, planning, task)) {
            plans.put(result.index(), CaseCodec.read(result.json(), Work.ShardPlan.class));
        }

        // 2. every capture whole or in shards, the longest tasks first
        final List<Work> work = new ArrayList<>();
        for (final Capture capture : captures) {
            final Work.ShardPlan plan = plans.get(capture.index());
            if (plan == null || plan.shards() < 2) {
                work.add(new Work(Work.Kind.WHOLE, capture, count, 0, null, List.of()));
            } else {
                for (int s = 0; s < plan.shards(); s++) {
                    work.add(new Work(Work.Kind.SHARD, capture, count, s, plan, List.of()));
                }
            }
        }
        final Map<Integer, CaptureAnalysis> whole = new HashMap<>();
        final Map<Integer, List<CaptureShards.Shard>> sharded = new HashMap<>();
        final List<Work.Result> results = new ArrayList<>(execute(context, work, task));
        // 3. the matching across captures, spread by host pair; in one task when a capture is out of time order
        CaptureMatch match = null;
        if (count > 1 && request.options().matchWindowNs() > 0) {
            match = MatchAcross.match(context, captures, task, request.options().matchWindowNs(),
                request.matchTasks(captures, context));
            if (match == null) {
                results.addAll(execute(context, List.of(new Work(Work.Kind.MATCH, captures.get(0), count, 0, null,
                    captures)), task));
            }
        }
        // shard 0 first: its counts name the capture's frames and damage
        results.sort(Comparator.comparingInt(Work.Result::index).thenComparingInt(Work.Result::shard));
        for (final Work.Result result : results) {
            switch (result.kind()) {
                case MATCH -> match = CaseCodec.read(result.json(), CaptureMatch.class);
                case SHARD -> sharded.computeIfAbsent(result.index(), k -> new ArrayList<>())
                    .add(CaseCodec.read(result.json(), CaptureShards.Shard.class));
                default -> whole.put(result.index(), CaseCodec.read(result.json(), CaptureAnalysis.class));
            }
        }

        // 4. the reports, in capture order, on the driver
        final List<CaptureAnalysis> analyses = new ArrayList<>();
        final List<String> caseCaptures = new ArrayList<>();
        final List<CaseResult> cases = new ArrayList<>();
        for (final Capture capture : captures) {
            final CaptureAnalysis analysis = whole.containsKey(capture.index()) ? whole.get(capture.index())
                : AnalyzerSeam.merge(sharded.get(capture.index()), capture.name(), count);
            analyses.add(analysis);
            for (final CaseResult result : analysis.cases()) {
                cases.add(result);
                caseCaptures.add(capture.name());
            }
        }
        if (match != null) {
            for (final CaseResult result : match.cases()) {
                cases.add(result);
                caseCaptures.add(null);
            }
        }
        final Outcome outcome = AnalyzerSeam.report(spec, request.options(), clock, analyses, match, listener);
        if (request.parquet() != null) {
            FindingsTable.write(spark, FindingsTable.rows(caseCaptures, cases), request.parquet());
        }
        return outcome;
    }

    /** Runs the tasks, one partition each, the longest first; their results in any order. */
    private static List<Work.Result> execute(final JavaSparkContext context, final List<Work> work,
                                             final AnalyseWork task) {
        if (work.isEmpty()) {
            return List.of();
        }
        final List<Work> longestFirst = new ArrayList<>(work);
        longestFirst.sort(Comparator.comparingLong(Work::cost).reversed());
        final JavaRDD<Work> rdd = context.parallelize(longestFirst, longestFirst.size());
        return rdd.map(task).collect();
    }
}

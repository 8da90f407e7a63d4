package org.metaroce.mrct.spark.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.spark.sql.SparkSession;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.FileOutcome;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reports.ReportFormat;
import org.metaroce.mrct.reports.ReportWriteException;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.spark.FleetAnalysis;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The Spark application's command line: the options of {@code mrct analyze}, {@code --master} and
 * {@code --parquet}; the same standard output and exit status (0 no violation, 1 violations, 2 a capture could not be
 * read or a usage error).
 */
@Command(name = "mrct-spark", mixinStandardHelpOptions = true, sortOptions = false, exitCodeOnInvalidInput = 2,
    exitCodeOnExecutionException = 2,
    description = {"mrct analyze on Apache Spark: analyses pcap or pcapng captures on any Hadoop-compatible path, one "
        + "task per capture, and writes the reports of mrct analyze and a Parquet table of the findings.",
        "Exit status: 0 no violation seen, 1 violations, 2 a capture could not be read (or a usage error)."})
public final class FleetCommand implements Callable<Integer> {
    private static final int SHOWN = 20;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
        .withZone(ZoneOffset.UTC);

    @Parameters(arity = "1..*", paramLabel = "CAPTURE", description = "captures, directories (their .pcap, .pcapng "
        + "and .cap files, recursively) or globs, as Hadoop paths: local, file:, hdfs:, s3a:, ...")
    List<String> files;

    @Option(names = "--master", paramLabel = "MASTER", description = "the Spark master (local[N], spark://..., "
        + "yarn, k8s://...); default: the one spark-submit sets, else local[*]")
    String master;

    @Option(names = "--report-dir", paramLabel = "DIR", description = "where the driver writes the reports "
        + "(default mrct-reports/<timestamp>/)")
    Path reportDir;

    @Option(names = "--format", split = ",", paramLabel = "FORMAT",
        description = "report formats: JSON, JUNIT, HTML, MARKDOWN, EVIDENCE (default all)")
    List<ReportFormat> formats = new ArrayList<>();

    @Option(names = "--parquet", paramLabel = "PATH", description = "the findings table (a Hadoop path; default "
        + "findings.parquet in the report directory; 'none' for no table)")
    String parquet;

    @ArgGroup(exclusive = true)
    ModeChoice mode;

    @Option(names = "--profile", paramLabel = "FILE", description = "the device profile, as for mrct analyze")
    Path profilePath;

    @Option(names = "--complete", description = "the captures hold every frame both ends sent, as for mrct analyze")
    boolean complete;

    @Option(names = "--match-window-ms", paramLabel = "MS", description = "with several captures, how long after a "
        + "frame's first sighting its copies are looked for in the others, as for mrct analyze (default 10; 0: no "
        + "matching)")
    long matchWindowMs = CaptureAnalyzer.Options.MATCH_WINDOW_NS / 1_000_000L;

    @Option(names = "--release-after-ms", paramLabel = "MS", description = "a connection idle that long (capture "
        + "time) is judged and released before the capture's end, as for mrct analyze (default: the longest wait the "
        + "parameters allow a check; 0: every connection held to the end)")
    long releaseAfterMs = -1;

    @Option(names = "--max-held-flows", paramLabel = "N", description = "flows held at once by each task before the "
        + "least recently seen connections are released early, as for mrct analyze (default: from the executor's "
        + "heap, -Xmx/16 KiB)")
    long maxHeldFlows;

    @Option(names = "--shard-mb", paramLabel = "MB", description = "a capture larger than this is analysed in shards "
        + "of whole units of hosts, about this many MiB each (default 256; 0: every capture in one task)")
    long shardMb = FleetAnalysis.SHARD_BYTES >> 20;

    @Option(names = "--match-tasks", paramLabel = "N", description = "with several captures, the tasks matching "
        + "their frames, each a share of the host pairs (default 0: the default parallelism or one per 256 MiB of "
        + "captures, whichever is more)")
    int matchTasks;

    @Option(names = "--suite-version", paramLabel = "VERSION", hidden = true, description = "the mrct version for "
        + "the reports (mrct analyze --spark passes its own)")
    String suiteVersion = "dev";

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    /** --legacy, --metaroce or --auto. */
    static final class ModeChoice {
        @Option(names = "--auto", description = "judge each connection by its bth.tver (default)")
        boolean auto;

        @Option(names = "--legacy", description = "every connection is plain RoCEv2 (TVer 0)")
        boolean legacy;

        @Option(names = "--metaroce", description = "every connection is MetaRoCE v1 (TVer 1)")
        boolean metaroce;

        CaptureAnalyzer.Mode value() {
            return CaptureAnalyzer.Mode.of(legacy, metaroce);
        }
    }

    /** Parses {@code args}, runs, and returns the exit status. */
    public static int run(final String[] args) {
        return run(args, System.out, System.err);
    }

    /** As {@link #run(String[])}, writing to {@code out} and {@code err}. */
    public static int run(final String[] args, final PrintStream out, final PrintStream err) {
        final FleetCommand command = new FleetCommand();
        command.out = out;
        command.err = err;
        final CommandLine line = new CommandLine(command);
        line.setOut(new java.io.PrintWriter(out, true));
        line.setErr(new java.io.PrintWriter(err, true));
        return line.execute(args);
    }

    @Override
    public Integer call() {
        if (matchWindowMs < 0 || shardMb < 0 || matchTasks < 0 || releaseAfterMs < -1 || maxHeldFlows < 0) {
            err.println("mrct analyze --spark: --match-window-ms, --shard-mb, --match-tasks, --release-after-ms and "
                + "--max-held-flows take 0 or more");
            return 2;
        }
        final Specification spec = Specification.bundled();
        FleetAnalysis.ProfileFile profile = null;
        try {
            if (profilePath != null) {
                profile = FleetAnalysis.ProfileFile.read(profilePath, spec);
            }
        } catch (ProfileLoader.ProfileException | IOException e) {
            err.println("mrct analyze --spark: " + String.valueOf(e.getMessage()).replace('\n', ' '));
            return 2;
        }
        final Path dir = reportDir != null ? reportDir
            : Paths.get("mrct-reports", STAMP.format(Clock.systemUTC().instant()));
        final Set<ReportFormat> chosen = formats.isEmpty() ? EnumSet.allOf(ReportFormat.class)
            : EnumSet.copyOf(formats);
        final String table = parquet == null ? dir.resolve("findings.parquet").toAbsolutePath().toString()
            : "none".equals(parquet) ? null : parquet;
        final CaptureAnalyzer.Options options;
        try {
            options = new CaptureAnalyzer.Options(mode == null ? CaptureAnalyzer.Mode.AUTO : mode.value(),
                profile == null ? null : profile.load(spec), complete, suiteVersion)
                .withMatchWindowNs(matchWindowMs * 1_000_000L)
                .withRelease(releaseAfterMs < 0 ? -1 : releaseAfterMs * 1_000_000L, maxHeldFlows);
        } catch (ProfileLoader.ProfileException e) {
            err.println("mrct analyze --spark: " + String.valueOf(e.getMessage()).replace('\n', ' '));
            return 2;
        }
        final SparkSession.Builder builder = SparkSession.builder().appName("mrct analyze")
            .config("spark.ui.showConsoleProgress", "false");
        final String sparkMaster = master != null ? master : System.getProperty("spark.master", "local[*]");
        builder.master(sparkMaster);
        if (sparkMaster.startsWith("local")) {
            // a local master talks to itself only, on the loopback interface, with no web UI; on a cluster both
            // are the cluster's (spark-submit's settings)
            builder.config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1");
        }
        // a session already running in this JVM (a notebook's, a test's) is used and left running
        final boolean running = SparkSession.getDefaultSession().isDefined();
        final SparkSession spark = builder.getOrCreate();
        final List<String> connections = new ArrayList<>();
        final Outcome outcome;
        try {
            final RunListener writers = Reports.open(dir, chosen, spec);
            outcome = FleetAnalysis.run(spark, new FleetAnalysis.Request(files, options, profile, table,
                    shardMb << 20, matchTasks),
                new RunListener() {
                    @Override
                    public void runStarted(final RunInfo info) {
                        writers.runStarted(info);
                    }

                    @Override
                    public void caseStarted(final String id, final int index, final int total) {
                        writers.caseStarted(id, index, total);
                    }

                    @Override
                    public void caseFinished(final CaseResult result) {
                        writers.caseFinished(result);
                        if (result.rules().isEmpty() && result.id().endsWith("/summary")) {
                            connections.add(result.id().substring(0, result.id().length() - "/summary".length())
                                + " " + result.title() + ": " + result.reason() + (result.verdict() == Verdict.PASS
                                ? "" : " [" + result.verdict() + "]"));
                        }
                    }

                    @Override
                    public void runFinished(final RunInfo info, final RunSummary summary) {
                        writers.runFinished(info, summary);
                    }
                });
        } catch (Inputs.NoCapture e) {
            err.println("mrct analyze --spark: " + e.getMessage());
            return 2;
        } catch (IOException | ReportWriteException e) {
            err.println("mrct analyze --spark: cannot list the captures or write the reports: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            // SparkException (thrown unchecked through Scala) and the like: a task that failed on every attempt (an
            // executor lost, a capture the cluster cannot read, the table not writable): Spark's first line only
            final String message = String.valueOf(e.getMessage());
            final int eol = message.indexOf('\n');
            err.println("mrct analyze --spark: the Spark job failed: "
                + (eol < 0 ? message : message.substring(0, eol)));
            return 2;
        } finally {
            if (!running) {
                spark.stop();
            }
        }
        for (final FileOutcome file : outcome.files()) {
            if (file.problem() != null) {
                err.println("mrct analyze: " + file.name() + ": " + file.problem());
            }
        }
        print(outcome, connections, dir, table);
        if (outcome.unreadable()) {
            return 2;
        }
        return outcome.violated() ? 1 : 0;
    }

    private void print(final Outcome outcome, final List<String> connections, final Path dir, final String table) {
        for (final FileOutcome file : outcome.files()) {
            out.println(file.name() + ": " + file.frames() + " frames, " + file.roceFrames() + " RoCE, "
                + file.connections() + " connection" + (file.connections() == 1 ? "" : "s")
                + (file.evidence() ? " (mrct evidence: the device's frames judged, case by case)" : "")
                + (file.cutFrames() > 0 ? ", " + file.cutFrames() + " cut short by the snap length" : "")
                + (file.otherLinkFrames() > 0 ? ", " + file.otherLinkFrames() + " not analysed (link type or RoCEv1)"
                : "") + String.format(Locale.ROOT, " in %.2f s", file.elapsedNs() / 1e9));
        }
        int shown = 0;
        for (final String line : connections) {
            if (shown++ == SHOWN) {
                out.println("  and " + (connections.size() - SHOWN) + " more connections");
                break;
            }
            out.println("  " + line);
        }
        final List<ViewFinding> views = outcome.views();
        for (int i = 0; i < Math.min(SHOWN, views.size()); i++) {
            out.println(views.get(i).describe());
        }
        if (views.size() > SHOWN) {
            out.println("and " + (views.size() - SHOWN) + " more frames missing between captures (see the views/ "
                + "cases of the reports)");
        }
        final List<String> violations = outcome.violations();
        for (int i = 0; i < Math.min(SHOWN, violations.size()); i++) {
            out.println("FAIL " + violations.get(i));
        }
        if (outcome.violationCount() > SHOWN) {
            out.println("and " + (outcome.violationCount() - SHOWN) + " more failing checks (see the reports)");
        }
        final var checks = outcome.checks();
        out.println(outcome.summary().overall() + ": " + outcome.summary().reason() + " (checks: "
            + checks.get(Verdict.PASS) + " PASS, " + checks.get(Verdict.FAIL) + " FAIL, "
            + checks.get(Verdict.INCONCLUSIVE) + " INCONCLUSIVE)");
        out.println("reports: " + dir.toAbsolutePath().normalize());
        if (table != null) {
            out.println("findings table (Parquet): " + table);
        }
    }
}

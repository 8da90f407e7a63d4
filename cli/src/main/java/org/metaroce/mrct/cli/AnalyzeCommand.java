package org.metaroce.mrct.cli;

import java.io.IOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.FileOutcome;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.profile.DeviceProfile;
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
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mrct analyze CAPTURE...}: checks recorded traffic against every rule the wire shows, with the same reports
 * as {@code mrct run} and a short summary on the standard output. Exit status 0 when no violation was seen, 1 when a
 * check found one, 2 when a capture could not be read to its end (one line on the error stream each: file, byte
 * offset, record, reason) or on a usage error.
 */
@Command(name = "analyze", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Checks pcap or pcapng captures against every MetaRoCE rule observable on the wire.",
        "Rebuilds each connection from both directions and reports one case per (connection, rule): PASS, FAIL, or "
            + "INCONCLUSIVE when the capture cannot prove a finding (it may start mid-connection, miss frames, or "
            + "hold a frame twice).",
        "Exit status: 0 no violation seen, 1 violations, 2 a capture could not be read whole (damage, or a record "
            + "larger than any frame, 256 KiB) or a usage error."})
final class AnalyzeCommand implements Callable<Integer> {
    /** Violations printed on the standard output; the reports hold them all. */
    private static final int SHOWN = 20;

    @ParentCommand
    private Main main;

    @Parameters(arity = "1..*", paramLabel = "CAPTURE", description = "pcap or pcapng files (Ethernet or Linux "
        + "cooked), directories (their *.pcap, *.pcapng and *.cap files, sorted) or glob patterns (quoted: "
        + "'caps/host-*.pcap'); mrct evidence files are judged case by case, on the device's frames. With several "
        + "captures, the frames of a flow seen in two of them are matched: frames lost between them, frames received "
        + "that were never sent, one-way latency")
    private List<String> files;

    @Mixin
    private ReportOptions reports = new ReportOptions();

    @ArgGroup(exclusive = true)
    private ModeChoice mode;

    @Option(names = "--profile", paramLabel = "FILE", description = "the device profile: its declared parameters "
        + "(windows, timers, CNP pacing) are taken as the QPs' values; default: the defaults of Appendix B, and a "
        + "finding that only they support is INCONCLUSIVE")
    private Path profilePath;

    @Option(names = "--complete", description = "the captures hold every frame both ends sent, once each, from the "
        + "start of each connection, with nothing lost on the way: findings that a missing or doubled frame could "
        + "explain become violations")
    private boolean complete;

    @Option(names = "--spark", paramLabel = "MASTER", description = "run the analysis on Apache Spark with this master "
        + "(local[N] needs nothing else; spark://HOST:PORT, yarn, k8s://...): the spark module's application in a "
        + "child JVM, captures on any Hadoop-compatible path (hdfs://, s3a://, directories, globs), the same reports "
        + "and a Parquet table of the findings (spark/README.md)")
    private String spark;

    @Option(names = "--threads", paramLabel = "N", description = "threads: 1 reads and analyses on one thread; more "
        + "read each capture and compute its ICRCs ahead on others (the findings are the same); default: one per "
        + "processor")
    private int threads;

    @Option(names = "--match-window-ms", paramLabel = "MS", description = "with several captures, how long after "
        + "a frame's first sighting its copies in the others are looked for: the latency between the capture points "
        + "plus the offset of their clocks must be below it (default: ${DEFAULT-VALUE}; 0: no matching)")
    private long matchWindowMs = CaptureAnalyzer.Options.MATCH_WINDOW_NS / 1_000_000L;

    @Option(names = "--release-after-ms", paramLabel = "MS", description = "a connection idle that long (capture "
        + "time) is judged and released before the capture's end, and its QP's later frames are a new segment "
        + "(default: the longest wait the parameters allow a check, 13.264 s with the defaults of Appendix B; 0: every "
        + "connection held to the end; docs/analyze-at-scale.md)")
    private long releaseAfterMs = -1;

    @Option(names = "--max-held-flows", paramLabel = "N", description = "flows held at once before the least "
        + "recently seen connections are released early, their later findings inconclusive (default: from the heap, "
        + "-Xmx/16 KiB; on several threads each holds a part in proportion to its groups' hosts)")
    private long maxHeldFlows;

    @Option(names = "--no-progress", description = "no progress line on a terminal")
    private boolean noProgress;

    /** --legacy, --metaroce or --auto. */
    static final class ModeChoice {
        @Option(names = "--auto", description = "judge each connection by its bth.tver (default): TVer 0 by the "
            + "legacy rules of section 16, TVer 1 by MetaRoCE v1")
        boolean auto;

        @Option(names = "--legacy", description = "every connection is plain RoCEv2 (TVer 0)")
        boolean legacy;

        @Option(names = "--metaroce", description = "every connection is MetaRoCE v1 (TVer 1)")
        boolean metaroce;

        CaptureAnalyzer.Mode value() {
            return CaptureAnalyzer.Mode.of(legacy, metaroce);
        }
    }

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        final DeviceProfile profile;
        try {
            reports.check();
            profile = profilePath == null ? null : ProfileLoader.load(profilePath, spec);
        } catch (ProfileLoader.ProfileException | RunCommand.UsageProblem e) {
            main.err().println("mrct analyze: " + e.getMessage().replace('\n', ' ').replace("  ", " "));
            return ExitStatus.UNREADABLE;
        }
        final Path dir = reports.dir();
        final Set<ReportFormat> chosen = reports.formats();
        if (spark != null) {
            final int status = SparkDelegate.run(new SparkDelegate.Request(spark, files, dir, chosen,
                mode == null ? CaptureAnalyzer.Mode.AUTO : mode.value(), profilePath, complete, matchWindowMs,
                releaseAfterMs, maxHeldFlows),
                main.out(),
                main.err());
            reports.pruneAfter(dir, "mrct analyze", main.err());
            return status;
        }
        final List<Path> paths = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final String name : files) {
            try {
                final List<String> expanded = CaptureFiles.expand(name);
                if (expanded.isEmpty()) {
                    main.err().println("mrct analyze: " + name + ": no capture (no *.pcap, *.pcapng or *.cap file "
                        + "matches)");
                    return ExitStatus.UNREADABLE;
                }
                for (final String file : expanded) {
                    paths.add(Path.of(file));
                    names.add(file);
                }
            } catch (InvalidPathException e) {
                main.err().println("mrct analyze: " + name + ": not a valid path: " + e.getReason());
                return ExitStatus.UNREADABLE;
            } catch (IOException e) {
                main.err().println("mrct analyze: " + name + ": cannot list: " + e.getMessage());
                return ExitStatus.UNREADABLE;
            }
        }
        if (matchWindowMs < 0) {
            main.err().println("mrct analyze: --match-window-ms " + matchWindowMs + ": give 0 (no matching) or more");
            return ExitStatus.UNREADABLE;
        }
        if (releaseAfterMs < -1 || maxHeldFlows < 0) {
            main.err().println("mrct analyze: --release-after-ms and --max-held-flows: give 0 or more");
            return ExitStatus.UNREADABLE;
        }
        if (threads < 0) {
            main.err().println("mrct analyze: --threads " + threads + ": give 1 or more (default: one per processor)");
            return ExitStatus.UNREADABLE;
        }
        final AnalyzeProgress progress = !noProgress && System.console() != null ? new AnalyzeProgress(main.err())
            : null;
        CaptureAnalyzer analyzer = new CaptureAnalyzer(spec, new CaptureAnalyzer.Options(
            mode == null ? CaptureAnalyzer.Mode.AUTO : mode.value(), profile, complete, Version.current(), threads,
            matchWindowMs * 1_000_000L, releaseAfterMs < 0 ? -1 : releaseAfterMs * 1_000_000L, maxHeldFlows));
        if (progress != null) {
            analyzer = analyzer.withProgress(progress);
        }
        final Outcome outcome;
        final Summary summary = new Summary();
        try {
            final RunListener writers = Reports.open(dir, chosen, spec);
            outcome = analyzer.analyze(paths, names, new RunListener() {
                @Override
                public void runStarted(final RunInfo info) {
                    if (progress != null) {
                        progress.clear();
                    }
                    writers.runStarted(info);
                }

                @Override
                public void caseStarted(final String id, final int index, final int total) {
                    writers.caseStarted(id, index, total);
                }

                @Override
                public void caseFinished(final CaseResult result) {
                    writers.caseFinished(result);
                    summary.add(result);
                }

                @Override
                public void runFinished(final RunInfo info, final RunSummary runSummary) {
                    writers.runFinished(info, runSummary);
                }
            });
        } catch (IOException | ReportWriteException e) {
            main.err().println("mrct analyze: cannot write the reports: " + e.getMessage());
            return ExitStatus.UNREADABLE;
        }
        for (final FileOutcome file : outcome.files()) {
            if (file.problem() != null) {
                main.err().println("mrct analyze: " + file.name() + ": " + file.problem());
            }
            if (file.oversized() != null) {
                main.err().println("mrct analyze: " + file.name() + ": " + file.oversized() + (file.oversizedFrames() > 1
                    ? "; " + (file.oversizedFrames() - 1) + " more records like it" : ""));
            }
        }
        print(outcome, summary, dir);
        reports.pruneAfter(dir, "mrct analyze", main.err());
        if (outcome.unreadable()) {
            return ExitStatus.UNREADABLE;
        }
        return outcome.violated() ? 1 : ExitStatus.OK;
    }

    /**
     * The connections' summary lines, gathered as the cases go by: the first {@link #SHOWN} (the ones printed) and the
     * number of all, so that a capture of many connections keeps nothing per connection here.
     */
    private static final class Summary {
        final List<String> connections = new ArrayList<>();
        int count;

        void add(final CaseResult result) {
            // a connection's summary, or the frames outside MetaRoCE's scope (NOT_APPLICABLE, counted per kind)
            final boolean connection = result.id().endsWith("/summary");
            if (result.rules().isEmpty() && (connection || result.verdict() == Verdict.NOT_APPLICABLE)) {
                if (count++ >= SHOWN) {
                    return;
                }
                connections.add((connection ? result.id().substring(0, result.id().length() - "/summary".length())
                    : result.id()) + " "
                    + result.title() + ": " + result.reason() + (result.verdict() == Verdict.PASS ? ""
                    : " [" + result.verdict() + "]"));
            }
        }
    }

    /**
     * What was released before the capture's end, when anything was (issue 12); on shards, which connections the cap
     * released early follows how the capture's groups of hosts were spread over the threads (the same every run with
     * the same thread count), which the line says.
     */
    private String released(final FileOutcome file) {
        final boolean shards = (threads > 0 ? threads : Runtime.getRuntime().availableProcessors()) > 1;
        if (file.released() == 0) {
            return "";
        }
        return ", " + file.released() + " released before the end" + (file.releasedEarly() > 0 ? " ("
            + file.releasedEarly() + " before their window ran out, to bound the heap: their later findings "
            + "inconclusive" + (shards ? "; with several groups of hosts, which ones follows the thread count" : "")
            + ")" : "")
            + (file.resumedFlows() > 0 ? ", " + file.resumedFlows() + " flows resumed after their release (new "
            + "segments)" : "");
    }

    private void print(final Outcome outcome, final Summary summary, final Path dir) {
        for (final FileOutcome file : outcome.files()) {
            main.out().println(file.name() + ": " + file.frames() + " frames, " + file.roceFrames() + " RoCE, "
                + file.connections() + " connection" + (file.connections() == 1 ? "" : "s")
                + (file.evidence() ? " (mrct evidence: the device's frames judged, case by case)" : "")
                + (file.cutFrames() > 0 ? ", " + file.cutFrames() + " cut short by the snap length" : "")
                + (file.otherLinkFrames() > 0 ? ", " + file.otherLinkFrames() + " not analysed (link type or RoCEv1)"
                : "") + released(file) + String.format(Locale.ROOT, " in %.2f s", file.elapsedNs() / 1e9));
        }
        for (final String line : summary.connections) {
            main.out().println("  " + line);
        }
        if (summary.count > SHOWN) {
            main.out().println("  and " + (summary.count - SHOWN) + " more connections");
        }
        final List<ViewFinding> views = outcome.views();
        for (int i = 0; i < Math.min(SHOWN, views.size()); i++) {
            main.out().println(views.get(i).describe());
        }
        if (views.size() > SHOWN) {
            main.out().println("and " + (views.size() - SHOWN) + " more frames missing between captures (see the "
                + "views/ cases of the reports)");
        }
        final List<String> violations = outcome.violations();
        for (int i = 0; i < Math.min(SHOWN, violations.size()); i++) {
            main.out().println("FAIL " + violations.get(i));
        }
        if (outcome.violationCount() > SHOWN) {
            main.out().println("and " + (outcome.violationCount() - SHOWN) + " more failing checks (see the reports)");
        }
        final var checks = outcome.checks();
        main.out().println(outcome.summary().overall() + ": " + outcome.summary().reason() + " (checks: "
            + checks.get(Verdict.PASS) + " PASS, " + checks.get(Verdict.FAIL) + " FAIL, "
            + checks.get(Verdict.INCONCLUSIVE) + " INCONCLUSIVE)");
        main.out().println("reports: " + dir.toAbsolutePath().normalize());
    }
}

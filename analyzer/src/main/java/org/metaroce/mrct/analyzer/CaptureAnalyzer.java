package org.metaroce.mrct.analyzer;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.metaroce.mrct.harness.engine.Summaries;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.analyzer.internal.Analysis;
import org.metaroce.mrct.analyzer.internal.Futures;
import org.metaroce.mrct.analyzer.internal.Sample;
import org.metaroce.mrct.analyzer.internal.Views;

/**
 * Analyses pcap and pcapng captures against every rule of the MetaRoCE v1 specification that the wire shows, and
 * reports through a {@link RunListener} exactly as a run does: {@code runStarted}, one case per (connection, rule)
 * check and one summary case per connection, {@code runFinished}.
 *
 * <pre>{@code
 * CaptureAnalyzer analyzer = new CaptureAnalyzer(Specification.bundled(), CaptureAnalyzer.Options.defaults());
 * Outcome outcome = analyzer.analyze(List.of(Path.of("trace.pcap")), Reports.open(dir, formats, spec));
 * }</pre>
 *
 * <p>Each capture is streamed in flat memory. Connections are rebuilt from both directions (matched by addresses and
 * QPNs, paired by the PSNs their answers name), and every check names the rule it judges. A check fails only on what
 * the frames prove; what a capture cannot prove (it may start mid-connection, miss frames, hold a frame twice, or
 * lack the device's declared parameters) makes the check INCONCLUSIVE with the reason, unless
 * {@link Options#complete()} says the capture holds every frame. mrct evidence files ({@code evidence.pcapng} of a
 * run) are recognised by their packet comments and judged case by case, on the device's frames only.
 */
public final class CaptureAnalyzer {
    /**
     * The cases a row of the rule matrix lists at most (those that do not pass first); the others are counted
     * ({@link RuleVerdict#casesNotListed()}), so the summary does not grow with the connections.
     */
    public static final int CASES_LISTED = 100;

    /** The transport version the checks assume. */
    public enum Mode {
        /** From each connection's frames: TVer 0 connections by the legacy rules, TVer 1 by MetaRoCE v1. */
        AUTO,
        /** Every connection is plain RoCEv2 (TVer 0), judged by section 16 and the common framing rules. */
        LEGACY,
        /** Every connection is MetaRoCE v1 (TVer 1). */
        METAROCE;

        /** The mode the command-line flags {@code --legacy} and {@code --metaroce} choose (neither: AUTO). */
        public static Mode of(final boolean legacy, final boolean metaroce) {
            return legacy ? LEGACY : metaroce ? METAROCE : AUTO;
        }
    }

    /**
     * How to analyse.
     *
     * @param mode         the transport version the checks assume
     * @param profile      the device profile (PICS and declared parameters), or null for the defaults of Appendix B
     * @param complete     the captures hold every frame both ends sent, once each, from each connection's start, and
     *                     nothing was lost in the network: findings that only a missing or doubled frame could
     *                     explain become violations
     * @param suiteVersion the mrct version, for the reports
     * @param threads      threads to use: 1 reads and analyses on the calling thread; more analyses that many
     *                     captures at once, or a single capture with its reading and ICRCs ahead on other threads (the
     *                     findings are the same); 0 is one per processor
     * @param matchWindowNs with several captures, how long after a frame's first sighting its copies in the other
     *                     captures are looked for (the latency between the capture points plus their clocks' offset
     *                     must be below it); 0 analyses each capture on its own only
     * @param releaseWindowNs a connection idle that long in capture time is judged and released before the capture's
     *                     end, and its QP's later frames are a new segment (docs/analyze-at-scale.md, "Connections
     *                     released before the end"); -1 (default) the longest wait the parameters allow a check,
     *                     0 never: every connection held to the end, without a cap either
     * @param maxHeldFlows the flows held at once, beyond which the least recently seen connections are released before
     *                     their window ran out (inconclusive tails); 0 (default) from the heap
     */
    public record Options(Mode mode, DeviceProfile profile, boolean complete, String suiteVersion, int threads,
                          long matchWindowNs, long releaseWindowNs, long maxHeldFlows) {
        /** The default {@link #matchWindowNs()}: 10 ms. */
        public static final long MATCH_WINDOW_NS = 10_000_000L;

        public Options {
            Objects.requireNonNull(mode, "mode");
            if (threads < 0) {
                throw new IllegalArgumentException("threads must be 0 (one per processor) or more, not " + threads);
            }
            if (matchWindowNs < 0) {
                throw new IllegalArgumentException("matchWindowNs must be 0 (no matching) or more");
            }
            if (releaseWindowNs < -1 || maxHeldFlows < 0) {
                throw new IllegalArgumentException("releaseWindowNs must be -1 (from the parameters), 0 (never) or "
                    + "more, and maxHeldFlows 0 (from the heap) or more");
            }
        }

        /** Connections released by the window the parameters give, held up to a cap from the heap. */
        public Options(final Mode mode, final DeviceProfile profile, final boolean complete,
                       final String suiteVersion, final int threads, final long matchWindowNs) {
            this(mode, profile, complete, suiteVersion, threads, matchWindowNs, -1, 0);
        }

        /** One thread per processor, captures matched within {@value #MATCH_WINDOW_NS} ns. */
        public Options(final Mode mode, final DeviceProfile profile, final boolean complete,
                       final String suiteVersion) {
            this(mode, profile, complete, suiteVersion, 0, MATCH_WINDOW_NS, -1, 0);
        }

        /** AUTO, no profile, not complete, one thread per processor, captures matched within 10 ms. */
        public static Options defaults() {
            return new Options(Mode.AUTO, null, false, "dev", 0, MATCH_WINDOW_NS, -1, 0);
        }

        /** These options with another match window (0: no matching across captures). */
        public Options withMatchWindowNs(final long value) {
            return new Options(mode, profile, complete, suiteVersion, threads, value, releaseWindowNs, maxHeldFlows);
        }

        /** These options with another mode. */
        public Options withMode(final Mode value) {
            return new Options(value, profile, complete, suiteVersion, threads, matchWindowNs,
                releaseWindowNs, maxHeldFlows);
        }

        /** These options with another profile (null: the defaults of Appendix B). */
        public Options withProfile(final DeviceProfile value) {
            return new Options(mode, value, complete, suiteVersion, threads, matchWindowNs,
                releaseWindowNs, maxHeldFlows);
        }

        /** These options with {@code complete} set or cleared. */
        public Options withComplete(final boolean value) {
            return new Options(mode, profile, value, suiteVersion, threads, matchWindowNs,
                releaseWindowNs, maxHeldFlows);
        }

        /** These options with another suite version. */
        public Options withSuiteVersion(final String value) {
            return new Options(mode, profile, complete, value, threads, matchWindowNs, releaseWindowNs, maxHeldFlows);
        }

        /** These options with another number of threads (0: one per processor). */
        public Options withThreads(final int value) {
            return new Options(mode, profile, complete, suiteVersion, value, matchWindowNs,
                releaseWindowNs, maxHeldFlows);
        }

        /**
         * These options with connections released after {@code windowNs} idle (-1: the window the parameters give;
         * 0: never, every connection held to the end) and at most {@code maxFlows} flows held (0: from the heap).
         */
        public Options withRelease(final long windowNs, final long maxFlows) {
            return new Options(mode, profile, complete, suiteVersion, threads, matchWindowNs, windowNs, maxFlows);
        }

        /** The threads to use, 0 resolved. */
        public int effectiveThreads() {
            return threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        }
    }

    /** Told how far the analysis of a capture got, about every 64 Ki records and at each capture's end. */
    @FunctionalInterface
    public interface Progress {
        /**
         * @param capture the capture as given
         * @param index   its 0-based index among the captures
         * @param count   the number of captures
         * @param bytes   bytes of it read so far
         * @param size    its size in bytes (0 when unknown)
         * @param frames  records read so far
         */
        void update(String capture, int index, int count, long bytes, long size, long frames);
    }

    private final Specification spec;
    private final Options options;
    private final Clock clock;
    private final Progress progress;

    public CaptureAnalyzer(final Specification spec, final Options options) {
        this(spec, options, Clock.systemUTC());
    }

    /** With a clock for the reports' start and end times (tests). */
    public CaptureAnalyzer(final Specification spec, final Options options, final Clock clock) {
        this(spec, options, clock, null);
    }

    private CaptureAnalyzer(final Specification spec, final Options options, final Clock clock,
                            final Progress progress) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.options = Objects.requireNonNull(options, "options");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.progress = progress;
    }

    /** This analyzer, telling {@code value} how far it got (e.g. for a progress line on a terminal). */
    public CaptureAnalyzer withProgress(final Progress value) {
        return new CaptureAnalyzer(spec, options, clock, value);
    }

    /**
     * Analyses the captures, named in reports as their paths print.
     *
     * @see #analyze(List, List, RunListener)
     */
    public Outcome analyze(final List<Path> captures, final RunListener listener) {
        final List<String> names = new ArrayList<>();
        captures.forEach(p -> names.add(p.toString()));
        return analyze(captures, names, listener);
    }

    /**
     * Analyses every capture, then reports. Unreadable files are analysed up to their damage and named in
     * {@link FileOutcome#problem()}; nothing is thrown for bad input. The cases are built and handed to the listener
     * one connection at a time, so the analysis holds each capture's connections, never all their cases at once.
     *
     * @param captures the files
     * @param names    how reports name them (as the user gave them)
     * @param listener receives the run's events (report writers, progress)
     */
    public Outcome analyze(final List<Path> captures, final List<String> names, final RunListener listener) {
        final Instant start = clock.instant();
        final Analysis analysis = analysis();
        final List<Analysis.FileResult> results = new ArrayList<>();
        final ExecutorService workers = workers();
        final boolean matching = captures.size() > 1 && options.matchWindowNs() > 0;
        // the captures matched together on a thread of their own, beside the analyses (with one thread, after them)
        final CompletableFuture<Views.Result> matched = !matching ? null : workers == null
            ? null : CompletableFuture.supplyAsync(() -> Views.match(captures, names, options.matchWindowNs()),
                r -> {
                    final Thread thread = new Thread(r, "mrct-analyze-match");
                    thread.setDaemon(true);
                    thread.start();
                });
        try {
            if (workers != null && captures.size() > 1) {
                // several captures: each analysed whole on a thread of its own, as many at once as there are threads
                final List<Future<Analysis.FileResult>> futures = new ArrayList<>();
                for (int i = 0; i < captures.size(); i++) {
                    final int index = i;
                    futures.add(workers.submit(() -> analyzeOne(analysis, captures.get(index), names.get(index),
                        casePrefix(names.get(index), captures.size()), null, index, captures.size())));
                }
                for (final Future<Analysis.FileResult> future : futures) {
                    results.add(Futures.join(future));
                }
            } else {
                for (int i = 0; i < captures.size(); i++) {
                    results.add(analyzeOne(analysis, captures.get(i), names.get(i), casePrefix(names.get(i),
                        captures.size()), workers, i, captures.size()));
                }
            }
        } finally {
            if (workers != null) {
                workers.shutdownNow();
            }
        }
        final List<Source> sources = new ArrayList<>();
        for (final Analysis.FileResult result : results) {
            sources.add(new Source(outcome(result), result.caseCount(),
                (sink, violations) -> result.forEachCase(sink, violations, true)));
        }
        List<ViewFinding> views = List.of();
        if (matching) {
            final Views.Result result = matched != null ? matched.join()
                : Views.match(captures, names, options.matchWindowNs());
            views = result.findings();
            sources.add(new Source(null, result.cases().size(), (sink, violations) -> result.cases().forEach(sink)));
        }
        return report(start, names, analysis, sources, listener, views);
    }

    /**
     * Analyses one capture on its own and builds its cases: for callers that analyse captures apart (in parallel,
     * or on other machines) and report them together with {@link #report}. Thread-safe: one analyzer may analyse
     * several captures at once, each on its calling thread ({@link Options#threads()} is not used here).
     *
     * @param capture the file
     * @param name    how reports name it
     * @param prefix  prepended to its case IDs: {@link #casePrefix(String, int)}
     */
    public CaptureAnalysis analyzeCapture(final Path capture, final String name, final String prefix) {
        final Analysis.FileResult result = analyzeOne(analysis(), capture, name, prefix, null, 0, 1);
        final List<CaseResult> cases = new ArrayList<>(result.caseCount());
        final List<String> violations = new ArrayList<>();
        result.forEachCase(cases::add, violations, true);
        return new CaptureAnalysis(outcome(result), cases, violations);
    }

    /**
     * Reports captures analysed apart ({@link #analyzeCapture}), in the order given, exactly as {@link #analyze}
     * reports the same captures: the same events, cases and summary.
     */
    public Outcome report(final List<CaptureAnalysis> analyses, final RunListener listener) {
        return report(analyses, null, listener);
    }

    /**
     * Matches the frames of several captures of the same traffic ({@code views/F<n>} cases, {@link ViewFinding}s)
     * as {@link #analyze} does with {@link Options#matchWindowNs()}, for callers that analyse the captures apart and
     * report them with {@link #report(List, CaptureMatch, RunListener)}. Reads the captures together, on the calling
     * thread.
     */
    public CaptureMatch match(final List<Path> captures, final List<String> names) {
        final Views.Result result = Views.match(captures, names, options.matchWindowNs());
        return new CaptureMatch(result.cases(), result.findings());
    }

    /**
     * As {@link #report(List, RunListener)}, with the captures' matching ({@link #match}; null for none) reported
     * after them, as {@link #analyze} reports several captures.
     */
    public Outcome report(final List<CaptureAnalysis> analyses, final CaptureMatch match,
                          final RunListener listener) {
        final Instant start = clock.instant();
        final List<Source> sources = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final CaptureAnalysis analysis : analyses) {
            names.add(analysis.file().name());
            sources.add(new Source(analysis.file(), analysis.cases().size(), (sink, violations) -> {
                analysis.cases().forEach(sink);
                violations.addAll(analysis.violations());
            }));
        }
        if (match != null) {
            sources.add(new Source(null, match.cases().size(), (sink, violations) -> match.cases().forEach(sink)));
        }
        return report(start, names, analysis(), sources, listener, match == null ? List.of() : match.findings());
    }

    /** The prefix of a capture's case IDs among {@code count} captures: none for one, its file name and a slash. */
    public static String casePrefix(final String name, final int count) {
        return count > 1 ? fileName(name) + "/" : "";
    }

    private Analysis analysis() {
        return new Analysis(spec, options.profile(), Analysis.Mode.valueOf(options.mode().name()), options.complete())
            .releasing(options.releaseWindowNs(), options.maxHeldFlows());
    }

    private ExecutorService workers() {
        final int threads = options.effectiveThreads();
        if (threads <= 1) {
            return null;
        }
        final AtomicInteger number = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, r -> {
            final Thread thread = new Thread(r, "mrct-analyze-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    private Analysis.FileResult analyzeOne(final Analysis analysis, final Path path, final String name,
                                           final String prefix, final ExecutorService workers, final int index,
                                           final int count) {
        final Analysis.Progress told = progress == null ? null
            : (bytes, size, frames) -> progress.update(name, index, count, bytes, size, frames);
        // one capture with threads to spare: its groups of hosts on several threads when it splits so
        return analysis.analyze(path, name, prefix, workers, workers == null ? 1 : options.effectiveThreads(), told);
    }

    private static FileOutcome outcome(final Analysis.FileResult r) {
        return new FileOutcome(r.name, r.frames, r.roceFrames, r.connectionCount, r.cutFrames, r.otherLinkFrames,
            r.evidence, r.elapsedNs, r.problem, r.oversizedFrames, r.oversized, r.released, r.releasedEarly,
            r.resumedFlows);
    }

    /**
     * What one capture gives the report: its outcome (null for the cases of the captures matched together), its
     * number of cases, and the cases themselves.
     */
    private record Source(FileOutcome file, int count, BiConsumer<Consumer<CaseResult>, List<String>> cases) {
    }

    private Outcome report(final Instant start, final List<String> names, final Analysis analysis,
                           final List<Source> sources, final RunListener listener, final List<ViewFinding> views) {
        final List<FileOutcome> files = new ArrayList<>();
        int count = 0;
        for (final Source source : sources) {
            if (source.file() != null) {
                files.add(source.file());
            }
            count += source.count();
        }
        final DeviceProfile profile = options.profile() != null ? options.profile()
            : DeviceProfile.of("none (the defaults of Appendix B)", List.copyOf(spec.picsNames()));
        final RunInfo info = info(start, names, analysis, count);
        listener.runStarted(info);
        // counted as the cases pass, none kept: the heap does not grow with the connections reported
        final Sample violations = new Sample(Outcome.VIOLATIONS_LISTED);
        final Map<Verdict, Integer> counts = zeros();
        final Map<Verdict, Integer> checks = zeros();
        final Summaries.Matrix matrix = new Summaries.Matrix(CASES_LISTED);
        final int total = count;
        final int[] index = {0};
        for (final Source source : sources) {
            source.cases().accept(result -> {
                listener.caseStarted(result.id(), index[0]++, total);
                listener.caseFinished(result);
                counts.merge(result.verdict(), 1, Integer::sum);
                if (!result.rules().isEmpty()) {
                    checks.merge(result.verdict(), 1, Integer::sum);
                }
                matrix.add(result);
            }, violations);
        }
        final RunSummary summary = summary(counts, checks, matrix.rows(spec, profile), files);
        listener.runFinished(info, summary);
        return new Outcome(files, summary, checks, violations, views, violations.notKept());
    }

    private static Map<Verdict, Integer> zeros() {
        final Map<Verdict, Integer> map = new EnumMap<>(Verdict.class);
        for (final Verdict verdict : Verdict.values()) {
            map.put(verdict, 0);
        }
        return map;
    }

    private static String fileName(final String name) {
        final Path path = Path.of(name).getFileName();
        return path == null ? name : path.toString();
    }

    private RunInfo info(final Instant start, final List<String> names, final Analysis analysis, final int count) {
        final DeviceProfile profile = options.profile();
        final Map<String, Object> parameters = new LinkedHashMap<>(analysis.parameters().all());
        parameters.put("analysis.parameters", analysis.parameters().source());
        parameters.put("analysis.mode", options.mode().name().toLowerCase(Locale.ROOT));
        parameters.put("analysis.complete", options.complete());
        final List<String> selection = new ArrayList<>();
        for (final String name : names) {
            selection.add("capture " + name);
        }
        selection.add("mode " + options.mode().name().toLowerCase(Locale.ROOT));
        if (options.complete()) {
            selection.add("complete");
        }
        return new RunInfo(options.suiteVersion(), spec.version(), "pcap",
            profile != null ? DeviceProfile.shown(profile.vendor()) : "unknown",
            profile != null ? DeviceProfile.shown(profile.model()) : "unknown",
            profile != null ? DeviceProfile.shown(profile.firmware()) : "unknown",
            profile != null ? profile.name() : null,
            profile != null ? profile.sha256() : null, profile != null ? List.copyOf(profile.pics()) : List.of(),
            parameters, 0, false, null, selection, count, start);
    }

    private RunSummary summary(final Map<Verdict, Integer> counts, final Map<Verdict, Integer> checks,
                               final List<RuleVerdict> matrix, final List<FileOutcome> files) {
        final int failed = checks.get(Verdict.FAIL);
        final int doubtful = checks.get(Verdict.INCONCLUSIVE);
        final int passed = checks.get(Verdict.PASS);
        final long unreadable = files.stream().filter(f -> f.problem() != null || f.oversizedFrames() > 0).count();
        final Overall overall;
        final String reason;
        if (failed > 0) {
            overall = Overall.NON_CONFORMANT;
            reason = failed + " check" + (failed == 1 ? "" : "s") + " found violations on the wire";
        } else if (unreadable > 0) {
            overall = Overall.ERROR;
            reason = unreadable + " capture" + (unreadable == 1 ? "" : "s") + " could not be read whole (damage, or "
                + "records larger than any frame)";
        } else {
            overall = Overall.CONFORMANT;
            reason = "no violation seen (" + passed + " checks passed, " + doubtful + " inconclusive); a capture "
                + "shows only the behaviour it holds";
        }
        return new RunSummary(clock.instant(), counts, overall, reason, matrix, null, unreadable == 0);
    }
}

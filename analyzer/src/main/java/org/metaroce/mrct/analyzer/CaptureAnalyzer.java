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
import org.metaroce.mrct.harness.engine.Summaries;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.analyzer.internal.Analysis;

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
    /** The transport version the checks assume. */
    public enum Mode {
        /** From each connection's frames: TVer 0 connections by the legacy rules, TVer 1 by MetaRoCE v1. */
        AUTO,
        /** Every connection is plain RoCEv2 (TVer 0), judged by section 16 and the common framing rules. */
        LEGACY,
        /** Every connection is MetaRoCE v1 (TVer 1). */
        METAROCE
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
     */
    public record Options(Mode mode, DeviceProfile profile, boolean complete, String suiteVersion) {
        public Options {
            Objects.requireNonNull(mode, "mode");
        }

        /** AUTO, no profile, not complete. */
        public static Options defaults() {
            return new Options(Mode.AUTO, null, false, "dev");
        }

        /** These options with another mode. */
        public Options withMode(final Mode value) {
            return new Options(value, profile, complete, suiteVersion);
        }

        /** These options with another profile (null: the defaults of Appendix B). */
        public Options withProfile(final DeviceProfile value) {
            return new Options(mode, value, complete, suiteVersion);
        }

        /** These options with {@code complete} set or cleared. */
        public Options withComplete(final boolean value) {
            return new Options(mode, profile, value, suiteVersion);
        }

        /** These options with another suite version. */
        public Options withSuiteVersion(final String value) {
            return new Options(mode, profile, complete, value);
        }
    }

    private final Specification spec;
    private final Options options;
    private final Clock clock;

    public CaptureAnalyzer(final Specification spec, final Options options) {
        this(spec, options, Clock.systemUTC());
    }

    /** With a clock for the reports' start and end times (tests). */
    public CaptureAnalyzer(final Specification spec, final Options options, final Clock clock) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.options = Objects.requireNonNull(options, "options");
        this.clock = Objects.requireNonNull(clock, "clock");
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
     * {@link FileOutcome#problem()}; nothing is thrown for bad input.
     *
     * @param captures the files
     * @param names    how reports name them (as the user gave them)
     * @param listener receives the run's events (report writers, progress)
     */
    public Outcome analyze(final List<Path> captures, final List<String> names, final RunListener listener) {
        final Instant start = clock.instant();
        final Analysis analysis = new Analysis(spec, options.profile(),
            Analysis.Mode.valueOf(options.mode().name()), options.complete());
        final List<CaseResult> cases = new ArrayList<>();
        final List<FileOutcome> files = new ArrayList<>();
        final List<String> violations = new ArrayList<>();
        for (int i = 0; i < captures.size(); i++) {
            final String name = names.get(i);
            final Analysis.FileReport report = analysis.analyze(captures.get(i), name,
                captures.size() > 1 ? fileName(name) + "/" : "");
            cases.addAll(report.cases());
            violations.addAll(report.violations());
            files.add(new FileOutcome(name, report.frames(), report.roceFrames(), report.connections(),
                report.cutFrames(), report.otherLinkFrames(), report.evidence(), report.elapsedNs(),
                report.problem()));
        }
        final DeviceProfile profile = options.profile() != null ? options.profile()
            : DeviceProfile.of("none (the defaults of Appendix B)", List.copyOf(spec.picsNames()));
        final RunInfo info = info(start, captures, names, analysis, cases.size());
        listener.runStarted(info);
        int index = 0;
        for (final CaseResult result : cases) {
            listener.caseStarted(result.id(), index++, cases.size());
            listener.caseFinished(result);
        }
        final Map<Verdict, Integer> checks = new EnumMap<>(Verdict.class);
        for (final Verdict verdict : Verdict.values()) {
            checks.put(verdict, 0);
        }
        for (final CaseResult result : cases) {
            if (!result.rules().isEmpty()) {
                checks.merge(result.verdict(), 1, Integer::sum);
            }
        }
        final RunSummary summary = summary(cases, checks, profile, files);
        listener.runFinished(info, summary);
        return new Outcome(files, summary, checks, violations);
    }

    private static String fileName(final String name) {
        final Path path = Path.of(name).getFileName();
        return path == null ? name : path.toString();
    }

    private RunInfo info(final Instant start, final List<Path> captures, final List<String> names,
                         final Analysis analysis, final int count) {
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

    private RunSummary summary(final List<CaseResult> cases, final Map<Verdict, Integer> checks,
                               final DeviceProfile profile, final List<FileOutcome> files) {
        final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        for (final Verdict verdict : Verdict.values()) {
            counts.put(verdict, 0);
        }
        for (final CaseResult result : cases) {
            counts.merge(result.verdict(), 1, Integer::sum);
        }
        final int failed = checks.get(Verdict.FAIL);
        final int doubtful = checks.get(Verdict.INCONCLUSIVE);
        final int passed = checks.get(Verdict.PASS);
        final long unreadable = files.stream().filter(f -> f.problem() != null).count();
        final Overall overall;
        final String reason;
        if (failed > 0) {
            overall = Overall.NON_CONFORMANT;
            reason = failed + " check" + (failed == 1 ? "" : "s") + " found violations on the wire";
        } else if (unreadable > 0) {
            overall = Overall.ERROR;
            reason = unreadable + " capture" + (unreadable == 1 ? "" : "s") + " could not be read to the end";
        } else {
            overall = Overall.CONFORMANT;
            reason = "no violation seen (" + passed + " checks passed, " + doubtful + " inconclusive); a capture "
                + "shows only the behaviour it holds";
        }
        return new RunSummary(clock.instant(), counts, overall, reason, Summaries.ruleMatrix(spec, profile, cases),
            null, unreadable == 0);
    }
}

package org.metaroce.mrct.spark.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.FileOutcome;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.harness.engine.Summaries;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The one class that calls the analyzer: everything the Spark job knows of {@code mrct analyze} goes through here.
 *
 * <p>Today it uses the analyzer's public API ({@link CaptureAnalyzer}) one capture at a time, on an executor, and
 * rebuilds on the driver what {@code CaptureAnalyzer.analyze} adds over several captures: the capture's file name as
 * the case ID prefix, the run's description and its summary (the same rules as {@code CaptureAnalyzer}). When the
 * analyzer offers a public per-capture and per-connection entry point, this class is what changes.
 */
public final class AnalyzerSeam {
    private AnalyzerSeam() {
    }

    /** What one capture gave, as the analyzer reported it (case IDs without the multi-capture prefix). */
    public record One(FileOutcome file, List<CaseResult> cases, List<String> violations) {
    }

    /** Analyses one capture file (a local path) named {@code name} in the reports. */
    public static One analyzeOne(final Specification spec, final CaptureAnalyzer.Options options, final Path path,
                                 final String name) {
        final List<CaseResult> cases = new ArrayList<>();
        final Outcome outcome = new CaptureAnalyzer(spec, options).analyze(List.of(path), List.of(name),
            new RunListener() {
                @Override
                public void caseFinished(final CaseResult result) {
                    cases.add(result);
                }
            });
        return new One(outcome.files().get(0), cases, outcome.violations());
    }

    /** The case ID prefix of a capture when {@code count} captures are analysed together, as the analyzer makes it. */
    public static String prefix(final String name, final int count) {
        if (count <= 1) {
            return "";
        }
        final Path path = Path.of(name).getFileName();
        return (path == null ? name : path.toString()) + "/";
    }

    /** {@code result} with its ID prefixed. */
    public static CaseResult prefixed(final CaseResult r, final String prefix) {
        if (prefix.isEmpty()) {
            return r;
        }
        return new CaseResult(prefix + r.id(), r.caseId(), r.title(), r.area(), r.rules(), r.level(), r.role(),
            r.file(), r.parameters(), r.verdict(), r.reason(), r.failure(), r.wallNanos(), r.deviceNanos(),
            r.attempts(), r.evidence(), r.notes(), r.series(), r.control());
    }

    /**
     * The run's description for {@code names}, as {@code CaptureAnalyzer} writes it: the analysis parameters are
     * taken from an analysis of no capture, the selection and case count filled in.
     */
    public static RunInfo info(final Specification spec, final CaptureAnalyzer.Options options,
                               final List<String> names, final int caseCount, final Instant start) {
        final RunInfo[] empty = new RunInfo[1];
        new CaptureAnalyzer(spec, options, Clock.fixed(start, java.time.ZoneOffset.UTC)).analyze(List.of(),
            List.of(), new RunListener() {
                @Override
                public void runStarted(final RunInfo info) {
                    empty[0] = info;
                }
            });
        final RunInfo e = empty[0];
        final List<String> selection = new ArrayList<>();
        for (final String name : names) {
            selection.add("capture " + name);
        }
        selection.addAll(e.selection());
        return new RunInfo(e.suiteVersion(), e.specVersion(), e.adapter(), e.vendor(), e.model(), e.firmware(),
            e.profile(), e.profileHash(), e.pics(), e.parameters(), e.seed(), e.strict(), e.fault(), selection,
            caseCount, start);
    }

    /** Check cases per verdict (connection summaries not counted), as {@code Outcome.checks()}. */
    public static Map<Verdict, Integer> checks(final List<CaseResult> cases) {
        final Map<Verdict, Integer> checks = new EnumMap<>(Verdict.class);
        for (final Verdict verdict : Verdict.values()) {
            checks.put(verdict, 0);
        }
        for (final CaseResult result : cases) {
            if (!result.rules().isEmpty()) {
                checks.merge(result.verdict(), 1, Integer::sum);
            }
        }
        return checks;
    }

    /** The run's summary, by the rules of {@code CaptureAnalyzer}. */
    public static RunSummary summary(final Specification spec, final CaptureAnalyzer.Options options,
                                     final List<CaseResult> cases, final List<FileOutcome> files, final Instant end) {
        final DeviceProfile profile = options.profile() != null ? options.profile()
            : DeviceProfile.of("none (the defaults of Appendix B)", List.copyOf(spec.picsNames()));
        final Map<Verdict, Integer> checks = checks(cases);
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
        return new RunSummary(end, counts, overall, reason, Summaries.ruleMatrix(spec, profile, cases), null,
            unreadable == 0);
    }
}

package org.metaroce.mrct.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.metaroce.mrct.cli.internal.FailureLines;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoadException;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.reference.ReferencePeer;
import org.metaroce.mrct.reports.Baseline;
import org.metaroce.mrct.reports.BaselineException;
import org.metaroce.mrct.reports.CauseGroups;
import org.metaroce.mrct.reports.EvidencePolicy;
import org.metaroce.mrct.reports.ReportListener;
import org.metaroce.mrct.reports.ReportWriteException;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.AdapterOptions;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterSetup;
import org.metaroce.mrct.spi.AdapterSetupException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code mrct run}: the whole suite (or a selection) against a device, with reports. Exit status 0 when the device
 * conforms (no applicable MUST case failing beyond the baseline), 1 when it does not, 2 on a usage or harness error
 * (one line on the error stream; case-file problems are listed one per line, all of them).
 *
 * <p>The device comes from an {@link AdapterProvider} found at run time ({@link AdapterChoice}), which declares its
 * own options; this command decides from the provider's traits (real time, fault profiles, repeatable), never from
 * its name.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
    modelTransformer = AdapterChoice.Transformer.class,
    description = {"Runs the conformance suite against a device and writes the reports.",
        "Exit status: 0 conformant, 1 not conformant, 2 usage or harness error."})
final class RunCommand implements Callable<Integer> {
    static final int NON_CONFORMANT = 1;
    static final int HARNESS_ERROR = 2;
    /** Stopped by Ctrl-C (the shell's status for SIGINT; the JVM exits with the signal's own). */
    static final int INTERRUPTED = 130;
    /** Root causes listed on the terminal at the end of a run; summary.md and report.html list them all. */
    private static final int ROOT_CAUSES_SHOWN = 10;

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec command;

    /** The description lists the adapters found ({@link AdapterChoice.Transformer}). */
    @Option(names = "--adapter", defaultValue = "reference", paramLabel = "NAME", description = "the device")
    private String adapterName;

    @Mixin
    private ProfileOption profileOption = new ProfileOption();

    @Option(names = "--cases", paramLabel = "PATH", description = "case folders (<dir>/<area>/*.yaml, or case files "
        + "directly in it, as in <report dir>/shrunk) or case files to run instead of the bundled cases; repeatable")
    private List<Path> caseDirs = new ArrayList<>();

    @Option(names = {"-s", "--select"}, paramLabel = "ID", description = "run only cases whose ID starts with this; "
        + "repeatable")
    private List<String> select = new ArrayList<>();

    @Option(names = {"-x", "--exclude"}, paramLabel = "ID", description = "leave out cases whose ID starts with this; "
        + "repeatable")
    private List<String> exclude = new ArrayList<>();

    @Option(names = "--role", paramLabel = "ROLE", description = "run only the cases where the device plays this role: "
        + "responder or requester (default: both)")
    private String role;

    @Option(names = "--strict", description = "SHOULD failures fail (default: they are warnings)")
    private boolean strict;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N|random",
        description = "seed of every random choice (default 1; 'random' picks one and prints it)")
    private String seedText;

    @Mixin
    private ReportOptions reports = new ReportOptions();

    @Option(names = "--evidence", paramLabel = "WHICH", description = "cases whose frames report.json and report.html "
        + "carry: FAILURES (default: the cases that did not pass) or ALL; evidence.pcapng always has every frame")
    private EvidencePolicy evidencePolicy = EvidencePolicy.FAILURES;

    @Option(names = "--baseline", paramLabel = "FILE", description = "known failures; the run gates only on new ones")
    private Path baselinePath;

    @Mixin
    private FaultOption faultOption = new FaultOption();

    @Option(names = "--fail-fast", description = "stop at the first failing case")
    private boolean failFast;

    @Option(names = "--generated", defaultValue = "20", paramLabel = "N",
        description = "generated cases to add of each kind, responder flows (GEN-i) and requester workloads "
            + "(GEN-R-i) (seeded; default 20; 0 for none)")
    private int generated;

    @Option(names = "--expect-timeout", paramLabel = "DURATION",
        description = "how long an expectation waits when its case does not say (default 2ms; 20ms with "
            + "--adapter socket)")
    private String expectTimeout;

    @Option(names = "--tolerance", defaultValue = "1ms", paramLabel = "DURATION",
        description = "socket: absolute timing tolerance of every window (default 1ms, what a software device on a "
            + "busy host needs; 0 on virtual time)")
    private String tolerance;

    @Option(names = "--tolerance-pct", defaultValue = "20", paramLabel = "N",
        description = "socket: relative timing tolerance in percent of the window (default 20; the larger applies)")
    private int tolerancePct;

    // the adapters' own options come here (AdapterChoice.OPTIONS_BEFORE)

    @Option(names = "--quiet", description = "no progress output")
    private boolean quiet;

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        try {
            reports.check();
            final AdapterProvider provider = AdapterChoice.provider(adapterName);
            final AdapterSetup setup = AdapterChoice.configure(provider, command, faultOption.name, spec,
                main.out(), main.err());
            final AdapterSetup.Recorded recorded = setup.recorded();
            if (recorded != null && recorded.strict()) {
                strict = true; // the recorded run gated on SHOULD failures: the same verdicts need the same rule
            }
            final long seed = seed(recorded);
            if (role != null && Role.byLabel(role) != Role.RESPONDER && Role.byLabel(role) != Role.REQUESTER) {
                throw new UsageProblem("--role must be responder or requester, not '" + role + "'");
            }
            final DeviceProfile profile = profileOption.load(spec);
            setup.checkProfile(profile);
            final CaseLoader loader = new CaseLoader(spec);
            final List<CaseDef> cases = caseDirs.isEmpty() ? loader.loadBundled() : loader.load(caseDirs);
            final List<Runner.Planned> plan = new ArrayList<>();
            for (final Runner.Planned planned : Runner.plan(cases)) {
                if (matches(planned.id()) && playsRole(planned.def())) {
                    plan.add(planned);
                }
            }
            final GeneratedCases generatedCases = new GeneratedCases(seed, generated, this::matches, this::playsRole,
                spec, profile);
            generatedCases.addTo(plan);
            if (plan.isEmpty()) {
                throw new UsageProblem("no case selected by " + String.join(", ", selection()) + " (mrct list "
                    + "shows the case IDs; a CI job that selects nothing must not pass)");
            }
            final Path dir = reports.dir();
            final Baseline baseline = baselinePath == null ? null : Baseline.load(baselinePath);
            final RunInfo.Timing timing = timing(provider, recorded);
            final boolean realTime = provider.traits().contains(AdapterProvider.Trait.REAL_TIME);
            final Supplier<Adapter> device = () -> {
                if (realTime) {
                    WarmUp.run(plan, spec, profile, Set.of(), 1); // the harness's code compiled before real time
                }
                return setup.open(profile);
            };
            try (Adapter adapter = device.get()) {
                final RunContext context = new RunContext(adapter, spec, profile, seed, strict,
                    timing.expectTimeoutNs(), timing.toleranceNs(), timing.tolerancePercent(), ReferencePeer.FACTORY);
                final List<RunListener> listeners = new ArrayList<>();
                final ReportListener written = Reports.listener(dir, reports.formats(), spec, evidencePolicy);
                listeners.add(written);
                if (setup.listener() != null) {
                    listeners.add(setup.listener());
                }
                final Progress progress = new Progress(main.err(), main.errTerminal(), quiet)
                    .withFrameNumbers(written::pcapngFrame);
                listeners.add(progress);
                final CauseGroups failed = new CauseGroups();
                listeners.add(new RunListener() {
                    @Override
                    public void caseFinished(final CaseResult result) {
                        failed.add(result);
                    }
                });
                final Runner runner = new Runner(context, listeners, Clock.systemUTC());
                final RunInfo info = info(spec, profile, adapter, seed, setup.fault(), plan.size(), timing);
                final Interrupt interrupt = Interrupt.hook(dir, progress, plan.size(), main.err());
                final RunSummary summary;
                try {
                    summary = runner.run(info, plan, result -> interrupt.requested() || failFast
                            && (result.verdict() == Verdict.FAIL || result.verdict() == Verdict.ERROR),
                        baseline == null ? null : baseline.check(strict));
                } finally {
                    interrupt.ended();
                }
                if (interrupt.requested()) {
                    return INTERRUPTED; // the hook says where the reports are; the JVM exits with the signal's status
                }
                final List<String> shrunk = provider.traits().contains(AdapterProvider.Trait.REPEATABLE)
                    ? generatedCases.shrinkFailing(summary, () -> setup.open(profile), profile, dir, main.err())
                    : List.of();
                printRootCauses(failed);
                printSummary(summary, dir, seed, shrunk);
                setup.afterRun();
                reports.pruneAfter(dir, "mrct run", main.err());
                return summary.conformant() ? ExitStatus.OK
                    : summary.overall() == Overall.NON_CONFORMANT ? NON_CONFORMANT : HARNESS_ERROR;
            }
        } catch (CaseLoadException e) {
            main.err().println("mrct run: " + e.problems().size() + " problem(s) in case files; nothing was run:");
            for (final YamlProblem problem : e.problems()) {
                main.err().println("  " + problem);
            }
            return HARNESS_ERROR;
        } catch (UsageProblem | ProfileLoader.ProfileException | BaselineException e) {
            // one problem per line: a profile with many problems stays readable
            main.err().println("mrct run: " + e.getMessage().replace("\n", "\n  "));
            return HARNESS_ERROR;
        } catch (IllegalArgumentException | AdapterSetupException e) {
            main.err().println("mrct run: " + e.getMessage());
            return HARNESS_ERROR;
        } catch (IOException e) {
            main.err().println("mrct run: cannot write the reports: " + e.getMessage());
            return HARNESS_ERROR;
        } catch (ReportWriteException e) {
            // a full disk or a lost permission: the run stops; every file keeps its last whole version
            main.err().println("mrct run: " + e.getMessage() + "; the run was stopped");
            return HARNESS_ERROR;
        } catch (AdapterException e) {
            main.err().println("mrct run: cannot open the device: " + e.getMessage());
            return HARNESS_ERROR;
        }
    }

    /**
     * The expectation timeout and timing tolerances: a recorded run's, else the options, with the defaults of a
     * device on a real clock (20ms, the tolerances) or on virtual time (2ms, none).
     */
    private RunInfo.Timing timing(final AdapterProvider provider, final AdapterSetup.Recorded recorded)
        throws UsageProblem {
        final boolean realTime = recorded != null ? recorded.realTime()
            : provider.traits().contains(AdapterProvider.Trait.REAL_TIME);
        final RunInfo.Timing timing = recorded != null && recorded.timing() != null ? recorded.timing()
            : new RunInfo.Timing(duration("--expect-timeout", expectTimeout != null ? expectTimeout
                : realTime ? "20ms" : "2ms"), realTime ? duration("--tolerance", tolerance) : 0,
                realTime ? tolerancePct : 0);
        if (recorded != null && recorded.timing() != null && expectTimeout != null
            && duration("--expect-timeout", expectTimeout) != timing.expectTimeoutNs()) {
            throw new UsageProblem("--expect-timeout does not apply to --adapter " + provider.name() + ": the "
                + provider.name() + " uses the recorded run's, " + timing.expectTimeoutNs() + " ns");
        }
        if (timing.tolerancePercent() < 0 || timing.toleranceNs() < 0) {
            throw new UsageProblem("timing tolerances cannot be negative");
        }
        return timing;
    }

    private static long duration(final String option, final String text) throws UsageProblem {
        try {
            return AdapterOptions.parseDuration(option, text);
        } catch (AdapterSetupException e) {
            throw new UsageProblem(e.getMessage());
        }
    }

    /** A usage problem found by the command itself, reported as one line. */
    static final class UsageProblem extends Exception {
        private static final long serialVersionUID = 1L;

        UsageProblem(final String message) {
            super(message);
        }
    }

    private long seed(final AdapterSetup.Recorded recorded) throws UsageProblem {
        if (recorded != null) {
            if (!"1".equals(seedText) && !Long.toString(recorded.seed()).equals(seedText)) {
                throw new UsageProblem("--seed does not apply to --adapter " + adapterName + ": the " + adapterName
                    + " uses the recorded seed " + recorded.seed());
            }
            return recorded.seed();
        }
        if ("random".equals(seedText)) {
            return new SplittableRandom().nextLong() & Long.MAX_VALUE;
        }
        try {
            return Long.decode(seedText);
        } catch (NumberFormatException e) {
            throw new UsageProblem("--seed takes a number or 'random', not '" + seedText + "'");
        }
    }

    private boolean playsRole(final CaseDef def) {
        return role == null || Role.byLabel(role) == def.role();
    }

    private boolean matches(final String id) {
        return (select.isEmpty() || select.stream().anyMatch(id::startsWith))
            && exclude.stream().noneMatch(id::startsWith);
    }

    /** The selection options as given, for the message of an empty selection. */
    private List<String> selection() {
        final List<String> options = new ArrayList<>();
        select.forEach(s -> options.add("-s " + s));
        exclude.forEach(x -> options.add("-x " + x));
        caseDirs.forEach(d -> options.add("--cases " + d));
        if (role != null) {
            options.add("--role " + role);
        }
        if (options.isEmpty()) {
            options.add("the bundled cases");
        }
        return options;
    }

    private RunInfo info(final Specification spec, final DeviceProfile profile, final Adapter adapter, final long seed,
                         final String fault, final int count, final RunInfo.Timing timing) {
        final List<String> selection = new ArrayList<>();
        select.forEach(s -> selection.add("select " + s));
        exclude.forEach(x -> selection.add("exclude " + x));
        caseDirs.forEach(d -> selection.add("cases " + d));
        if (role != null) {
            selection.add("role " + role);
        }
        final Map<String, Object> parameters = new LinkedHashMap<>(profile.effectiveParameters(spec));
        // the identity as the profile declares it; the adapter's own only when the profile declares none
        final boolean declared = profile.identityDeclared();
        return new RunInfo(Version.current(), spec.version(), adapter.name(),
            declared ? DeviceProfile.shown(profile.vendor()) : adapter.identity().vendor(),
            declared ? DeviceProfile.shown(profile.model()) : adapter.identity().model(),
            declared ? DeviceProfile.shown(profile.firmware()) : adapter.identity().firmware(),
            profile.name(), profile.sha256(), List.copyOf(profile.pics()), parameters, seed, strict, fault,
            selection, count, Clock.systemUTC().instant(), RunInfo.labels(adapter.capabilities()), adapter.endpoints(),
            timing);
    }

    /** The failures grouped by root cause (blamed rule, field, cause), largest group first. */
    private void printRootCauses(final CauseGroups causes) {
        final List<CauseGroups.Group> groups = causes.groups();
        if (groups.isEmpty()) {
            return;
        }
        main.out().println("root causes (" + groups.size() + (causes.otherCases() > 0 ? "+" : "") + "):");
        for (final CauseGroups.Group group : groups.subList(0, Math.min(ROOT_CAUSES_SHOWN, groups.size()))) {
            final List<String> lines = FailureLines.wrap(group.line(3), "    ", FailureLines.WIDTH);
            for (int i = 0; i < lines.size(); i++) {
                main.out().println(i == 0 ? lines.get(i).substring(2) : lines.get(i));
            }
        }
        if (groups.size() > ROOT_CAUSES_SHOWN) {
            main.out().println("  and " + (groups.size() - ROOT_CAUSES_SHOWN) + " more in summary.md and report.html");
        }
        if (causes.otherCases() > 0) {
            main.out().println("  and " + causes.otherCases() + " failing cases of other causes (only the first "
                + CauseGroups.MAX_GROUPS + " causes are grouped)");
        }
    }

    private void printSummary(final RunSummary summary, final Path dir, final long seed, final List<String> shrunk) {
        final StringBuilder counts = new StringBuilder();
        for (final Verdict verdict : Verdict.values()) { // in verdict order: the summary's map has none
            final int n = summary.counts().getOrDefault(verdict, 0);
            if (n > 0) {
                counts.append(counts.length() == 0 ? "" : ", ").append(n).append(' ').append(verdict);
            }
        }
        main.out().println(main.outTerminal().verdict(summary.overall().name(), summary.overall().name()) + ": "
            + summary.reason() + " (" + counts + ")");
        if (summary.overall() == Overall.INCONCLUSIVE) {
            main.out().println("each INCONCLUSIVE case says what kept it from a verdict (its line above, and the "
                + "reports); run those again (-s ID), on a quieter host, or with a larger --tolerance");
        }
        if (summary.baseline() != null) {
            main.out().println("baseline " + summary.baseline().baseline() + ": " + summary.baseline().newlyFailing()
                .size() + " newly failing, " + summary.baseline().newlyPassing().size() + " newly passing, "
                + summary.baseline().stale().size() + " stale");
        }
        for (final String file : shrunk) {
            main.out().println("shrunk failing generated case: " + file);
        }
        main.out().println("reports: " + dir.toAbsolutePath().normalize() + " (seed " + seed + ")");
    }
}

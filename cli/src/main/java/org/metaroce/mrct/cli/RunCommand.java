package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoadException;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.generate.FlowGenerator;
import org.metaroce.mrct.harness.generate.GeneratedFlow;
import org.metaroce.mrct.harness.generate.RequesterFlow;
import org.metaroce.mrct.harness.generate.RequesterFlowGenerator;
import org.metaroce.mrct.harness.generate.RequesterShrinker;
import org.metaroce.mrct.harness.generate.Shrinker;
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
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.reports.Baseline;
import org.metaroce.mrct.reports.BaselineException;
import org.metaroce.mrct.reports.ReportFormat;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.spi.Adapter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mrct run}: the whole suite (or a selection) against a device, with reports. Exit status 0 when the device
 * conforms (no applicable MUST case failing beyond the baseline), 1 when it does not, 2 on a usage or harness error
 * (one line on the error stream; case-file problems are listed one per line, all of them).
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the conformance suite against a device and writes the reports.",
        "Exit status: 0 conformant, 1 not conformant, 2 usage or harness error."})
final class RunCommand implements Callable<Integer> {
    static final int NON_CONFORMANT = 1;
    static final int HARNESS_ERROR = 2;

    @ParentCommand
    private Main main;

    @Option(names = "--adapter", defaultValue = "reference", paramLabel = "NAME",
        description = "the device: reference (the embedded reference NIC, default), socket (a device outside the "
            + "JVM: --iface or --udp, and --agent) or replay (a recorded run: --from)")
    private String adapterName;

    @Option(names = "--from", paramLabel = "EVIDENCE", description = "replay: the evidence.pcapng of the run to "
        + "re-evaluate; its seed is used, and --profile must be its profile")
    private Path replayFrom;

    /** {@code --adapter replay}: the recording, opened before anything else (its seed decides the generated cases). */
    private org.metaroce.mrct.pcap.ReplayAdapter replay;

    @Option(names = "--profile", paramLabel = "FILE",
        description = "DUT profile (PICS claims, parameters, identity); default: the reference NIC's")
    private Path profilePath;

    @Option(names = "--cases", paramLabel = "DIR", description = "case directories (<dir>/<area>/*.yaml) to run "
        + "instead of the bundled cases; repeatable")
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

    @Option(names = "--report-dir", paramLabel = "DIR", description = "where to write the reports "
        + "(default reports/<timestamp>/)")
    private Path reportDir;

    @Option(names = "--format", split = ",", paramLabel = "FORMAT",
        description = "report formats: JSON, JUNIT, HTML, MARKDOWN, EVIDENCE (default all)")
    private List<ReportFormat> formats = new ArrayList<>();

    @Option(names = "--evidence", paramLabel = "WHICH", description = "cases whose frames report.json and report.html "
        + "carry: FAILURES (default: the cases that did not pass) or ALL; evidence.pcapng always has every frame")
    private org.metaroce.mrct.reports.EvidencePolicy evidencePolicy = org.metaroce.mrct.reports.EvidencePolicy.FAILURES;

    @Option(names = "--baseline", paramLabel = "FILE", description = "known failures; the run gates only on new ones")
    private Path baselinePath;

    @Option(names = "--fault", paramLabel = "NAME", description = "turn on a fault profile of the reference NIC "
        + "(see mrct faults)")
    private String faultName;

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

    // ---- --adapter socket (a device outside the JVM); see README "Devices outside the JVM"
    /** The cases a real-time run warms the harness up with (the run's own plan). */
    private List<Runner.Planned> warmUpPlan = List.of();

    @Option(names = "--iface", paramLabel = "IF", description = "socket: the interface cabled to the device (raw "
        + "frames through libpcap; needs root or CAP_NET_RAW)")
    private String iface;

    @Option(names = "--udp", paramLabel = "HOST:PORT", description = "socket: instead of an interface, the device's "
        + "UDP address (UDP mode: BTH..ICRC in datagrams)")
    private String udp;

    @Option(names = "--agent", paramLabel = "HOST:PORT", description = "socket: the device's control agent")
    private String agent;

    @Option(names = "--token", paramLabel = "T", description = "socket: the agent's shared token (also "
        + "--token-file, MRCT_AGENT_TOKEN)")
    private String token;

    @Option(names = "--token-file", paramLabel = "FILE", description = "socket: read the agent's token from a file")
    private Path tokenFile;

    @Option(names = "--tolerance", defaultValue = "1ms", paramLabel = "DURATION",
        description = "socket: absolute timing tolerance of every window (default 1ms, what a software device on a "
            + "busy host needs; 0 on virtual time)")
    private String tolerance;

    @Option(names = "--tolerance-pct", defaultValue = "20", paramLabel = "N",
        description = "socket: relative timing tolerance in percent of the window (default 20; the larger applies)")
    private int tolerancePct;

    @Option(names = "--capture-buffer", defaultValue = "256MiB", paramLabel = "SIZE",
        description = "socket: kernel capture buffer (default 256MiB; 2MiB lost frames at full rate)")
    private String captureBuffer;

    @Option(names = "--harness-mac", paramLabel = "MAC", description = "socket: the harness's MAC in frames "
        + "(default: the interface's)")
    private String harnessMac;

    @Option(names = "--harness-ipv4", defaultValue = "198.51.100.1", paramLabel = "ADDR",
        description = "socket: the harness's IPv4 address in frames (default 198.51.100.1; --udp uses the socket's)")
    private String harnessIpv4;

    @Option(names = "--harness-ipv6", defaultValue = "2001:db8::1", paramLabel = "ADDR",
        description = "socket: the harness's IPv6 address in frames (default 2001:db8::1; 'none' for none)")
    private String harnessIpv6;

    @Option(names = "--agent-timeout", defaultValue = "10s", paramLabel = "DURATION",
        description = "socket: how long one agent answer may take (default 10s)")
    private String agentTimeout;
    // ---- end of --adapter socket options

    @Option(names = "--quiet", description = "no progress output")
    private boolean quiet;

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        try {
            openReplay(spec);
            final long seed = seed();
            if (role != null && Role.byLabel(role) != Role.RESPONDER && Role.byLabel(role) != Role.REQUESTER) {
                throw new UsageProblem("--role must be responder or requester, not '" + role + "'");
            }
            final Set<Fault> faults = faults();
            final DeviceProfile profile = profile(spec);
            checkReplayProfile(profile);
            final List<CaseDef> cases = loadCases(spec);
            final List<Runner.Planned> plan = select(Runner.plan(cases));
            final Supplier<Adapter> adapters = adapterFactory(profile, spec, faults);
            addGenerated(plan, spec, seed);
            warmUpPlan = plan;
            final Path dir = reportDir != null ? reportDir : Paths.get("reports", DateTimeFormatter
                .ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(Clock.systemUTC().instant()));
            final Baseline baseline = baselinePath == null ? null : Baseline.load(baselinePath);
            final Set<ReportFormat> chosen = formats.isEmpty() ? EnumSet.allOf(ReportFormat.class)
                : EnumSet.copyOf(formats);
            // a replay keeps the timing of the run it replays: real-time defaults for a recorded socket run
            final boolean realTime = !"reference".equals(replay != null ? replay.recording().adapter() : adapterName);
            final RunInfo.Timing recordedTiming = replay == null ? null : replay.recording().timing();
            final long timeout = recordedTiming != null ? recordedTiming.expectTimeoutNs()
                : duration("--expect-timeout", expectTimeout != null ? expectTimeout : realTime ? "20ms" : "2ms");
            final long toleranceNs = recordedTiming != null ? recordedTiming.toleranceNs()
                : realTime ? duration("--tolerance", tolerance) : 0;
            final int tolerancePercent = recordedTiming != null ? recordedTiming.tolerancePercent()
                : realTime ? tolerancePct : 0;
            if (recordedTiming != null && expectTimeout != null
                && duration("--expect-timeout", expectTimeout) != timeout) {
                throw new UsageProblem("--expect-timeout does not apply to --adapter replay: the replay uses the "
                    + "recorded run's, " + timeout + " ns");
            }
            if (tolerancePercent < 0 || toleranceNs < 0) {
                throw new UsageProblem("timing tolerances cannot be negative");
            }
            try (Adapter adapter = adapters.get()) {
                final RunContext context = new RunContext(adapter, spec, profile, seed, strict, timeout, toleranceNs,
                    tolerancePercent, org.metaroce.mrct.reference.ReferencePeer.FACTORY);
                final List<RunListener> listeners = new ArrayList<>();
                listeners.add(Reports.open(dir, chosen, spec, evidencePolicy));
                final Map<String, Verdict> replayed = new LinkedHashMap<>();
                if (replay != null) {
                    listeners.add(new RunListener() {
                        @Override
                        public void caseFinished(final CaseResult result) {
                            replayed.put(result.id(), result.verdict());
                        }
                    });
                }
                if (!quiet) {
                    listeners.add(new Progress(main.err(), System.console() != null));
                }
                final Runner runner = new Runner(context, listeners, Clock.systemUTC());
                final RunInfo info = info(spec, profile, adapter, seed, faults, plan.size(),
                    new RunInfo.Timing(timeout, toleranceNs, tolerancePercent));
                final RunSummary summary = runner.run(info, plan,
                    result -> failFast && (result.verdict() == Verdict.FAIL || result.verdict() == Verdict.ERROR),
                    results -> baseline == null ? null : baseline.compare(results, strict));
                final List<String> shrunk = shrinkGenerated(runner, plan, summary, spec, profile, faults, dir, seed);
                printSummary(summary, dir, seed, shrunk);
                if (replay != null) {
                    printReplayComparison(replayed);
                }
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
            main.err().println("mrct run: " + e.getMessage().replace('\n', ' ').replace("  ", " "));
            return HARNESS_ERROR;
        } catch (IllegalArgumentException e) {
            main.err().println("mrct run: " + e.getMessage());
            return HARNESS_ERROR;
        } catch (org.metaroce.mrct.pcap.RecordingException e) {
            main.err().println("mrct run: " + e.getMessage());
            return HARNESS_ERROR;
        } catch (IOException e) {
            main.err().println("mrct run: cannot write the reports: " + e.getMessage());
            return HARNESS_ERROR;
        } catch (org.metaroce.mrct.spi.AdapterException e) {
            main.err().println("mrct run: cannot open the device: " + e.getMessage());
            return HARNESS_ERROR;
        }
    }

    private static long duration(final String option, final String text) throws UsageProblem {
        try {
            return org.metaroce.mrct.harness.cases.Expr.parse(text).eval(n -> null);
        } catch (RuntimeException e) {
            throw new UsageProblem(option + " takes a duration such as 200us or 20ms, not '" + text + "'");
        }
    }

    /** A usage problem found by the command itself, reported as one line. */
    static final class UsageProblem extends Exception {
        private static final long serialVersionUID = 1L;

        UsageProblem(final String message) {
            super(message);
        }
    }

    private long seed() throws UsageProblem {
        if (replay != null) {
            final long recorded = replay.recording().seed();
            if (!"1".equals(seedText) && !Long.toString(recorded).equals(seedText)) {
                throw new UsageProblem("--seed does not apply to --adapter replay: the replay uses the recorded seed "
                    + recorded);
            }
            return recorded;
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

    private Set<Fault> faults() throws UsageProblem {
        if (faultName == null) {
            return Set.of();
        }
        final Fault fault = Fault.byLabel(faultName);
        if (fault == null) {
            throw new UsageProblem("unknown fault '" + faultName + "' (mrct faults lists them)");
        }
        if (!"reference".equals(adapterName)) {
            throw new UsageProblem("--fault applies to the reference adapter only");
        }
        return Set.of(fault);
    }

    private DeviceProfile profile(final Specification spec) throws ProfileLoader.ProfileException, UsageProblem {
        if (profilePath != null) {
            return ProfileLoader.load(profilePath, spec);
        }
        try (InputStream in = ReferenceAdapter.class.getResourceAsStream(ReferenceAdapter.PROFILE_RESOURCE)) {
            if (in == null) {
                throw new UsageProblem("the reference profile is missing from the jar; give --profile");
            }
            final byte[] bytes = in.readAllBytes();
            return ProfileLoader.parse("reference.yaml", new String(bytes, StandardCharsets.UTF_8),
                ProfileLoader.sha256(bytes), spec);
        } catch (IOException e) {
            throw new UsageProblem("cannot read the reference profile: " + e.getMessage());
        }
    }

    private List<CaseDef> loadCases(final Specification spec) throws CaseLoadException {
        final CaseLoader loader = new CaseLoader(spec);
        return caseDirs.isEmpty() ? loader.loadBundled() : loader.load(caseDirs);
    }

    private List<Runner.Planned> select(final List<Runner.Planned> all) {
        final List<Runner.Planned> out = new ArrayList<>();
        for (final Runner.Planned planned : all) {
            if (matches(planned.id()) && playsRole(planned.def())) {
                out.add(planned);
            }
        }
        return out;
    }

    private boolean playsRole(final CaseDef def) {
        return role == null || Role.byLabel(role) == def.role();
    }

    private boolean matches(final String id) {
        return (select.isEmpty() || select.stream().anyMatch(id::startsWith))
            && exclude.stream().noneMatch(id::startsWith);
    }

    private Supplier<Adapter> adapterFactory(final DeviceProfile profile, final Specification spec,
                                             final Set<Fault> faults) throws UsageProblem {
        if ("reference".equals(adapterName)) {
            return () -> ReferenceAdapter.fromProfile(profile, spec, faults);
        }
        if ("replay".equals(adapterName)) {
            return () -> replay;
        }
        if ("socket".equals(adapterName)) {
            final org.metaroce.mrct.socket.SocketOptions options = socketOptions();
            return () -> {
                WarmUp.run(warmUpPlan, spec, profile, Set.of(), 1);
                return org.metaroce.mrct.socket.SocketAdapter.open(options);
            };
        }
        throw new UsageProblem("unknown adapter '" + adapterName + "' (available: reference, socket, replay)");
    }

    /**
     * {@code --adapter replay --from FILE}: opens the recording (refused when it is not mrct evidence of this
     * specification version) and says which run it holds.
     */
    private void openReplay(final Specification spec) throws UsageProblem,
        org.metaroce.mrct.pcap.RecordingException {
        if (!"replay".equals(adapterName)) {
            if (replayFrom != null) {
                throw new UsageProblem("--from applies to --adapter replay only");
            }
            return;
        }
        if (replayFrom == null) {
            throw new UsageProblem("--adapter replay needs --from EVIDENCE (the evidence.pcapng of the run to replay)");
        }
        replay = org.metaroce.mrct.pcap.ReplayAdapter.open(replayFrom, spec.version());
        final org.metaroce.mrct.pcap.RecordedRun run = replay.recording();
        if (Boolean.TRUE.equals(run.strict())) {
            strict = true; // the recorded run gated on SHOULD failures: the same verdicts need the same rule
        }
        main.out().println("replay of " + replayFrom + ": the run of " + (run.start() == null ? "an unknown time"
            : run.start()) + " against the " + run.adapter() + " adapter (" + String.join(" ",
                java.util.Objects.toString(run.vendor(), ""), java.util.Objects.toString(run.model(), ""),
                java.util.Objects.toString(run.firmware(), "")).trim() + (run.fault() == null ? ""
                : ", fault " + run.fault()) + "), " + run.cases().size() + " cases recorded; seed " + run.seed()
            + " (the recorded run's)");
        for (final String note : run.notes()) {
            main.err().println("mrct run: replay: " + note);
        }
    }

    /** The profile of a replay must be the recorded run's (its hash, when the recording has one). */
    private void checkReplayProfile(final DeviceProfile profile)
        throws org.metaroce.mrct.pcap.RecordingException {
        if (replay == null) {
            return;
        }
        final String note = replay.checkProfile(profile.name(), profile.sha256());
        if (note != null) {
            main.err().println("mrct run: replay: " + note);
        } else {
            main.out().println("replay: DUT profile " + profile.name() + " (sha256 " + profile.sha256()
                + ", the recorded run's)");
        }
    }

    /** How the replayed verdicts compare with the recorded ones, case by case. */
    private void printReplayComparison(final Map<String, Verdict> replayed) {
        final List<String> differ = new ArrayList<>();
        int same = 0;
        for (final Map.Entry<String, Verdict> entry : replayed.entrySet()) {
            final String recorded = replay.recordedVerdict(entry.getKey());
            if (recorded == null) {
                if (entry.getValue() != Verdict.NOT_APPLICABLE) {
                    differ.add(entry.getKey() + ": not in the recording, replayed " + entry.getValue());
                }
            } else if (recorded.equals(entry.getValue().name())) {
                same++;
            } else {
                final String unused = replay.unused(entry.getKey());
                differ.add(entry.getKey() + ": recorded " + recorded + ", replayed " + entry.getValue()
                    + (unused == null ? "" : " (" + unused + ")"));
            }
        }
        final List<String> notRun = new ArrayList<>();
        for (final String id : replay.recording().cases()) {
            if (!replayed.containsKey(id)) {
                notRun.add(id);
            }
        }
        main.out().println("replay: " + same + " of " + replay.recording().cases().size() + " recorded cases gave "
            + "their recorded verdict" + (differ.isEmpty() ? "" : "; " + differ.size() + " differ:"));
        differ.forEach(line -> main.out().println("  " + line));
        if (!notRun.isEmpty()) {
            main.out().println("replay: " + notRun.size() + " recorded case(s) were not run (give the recorded run's "
                + "--select, --exclude, --cases and --generated): " + String.join(", ", notRun.subList(0,
                    Math.min(10, notRun.size()))) + (notRun.size() > 10 ? ", ..." : ""));
        }
    }

    /** The options of {@code --adapter socket}, checked. */
    private org.metaroce.mrct.socket.SocketOptions socketOptions() throws UsageProblem {
        if ((iface == null) == (udp == null)) {
            throw new UsageProblem("--adapter socket needs exactly one of --iface IF and --udp HOST:PORT");
        }
        if (agent == null) {
            throw new UsageProblem("--adapter socket needs --agent HOST:PORT (the device's control agent)");
        }
        try {
            final java.net.InetSocketAddress agentAddress = org.metaroce.mrct.socket.SocketAdapter.hostPort(agent);
            final String secret = ServeCommand.token(token, tokenFile);
            org.metaroce.mrct.socket.SocketOptions options = iface != null
                ? org.metaroce.mrct.socket.SocketOptions.iface(iface, agentAddress, secret)
                : org.metaroce.mrct.socket.SocketOptions.udp(org.metaroce.mrct.socket.SocketAdapter.hostPort(udp),
                    agentAddress, secret);
            final long timeoutNs = duration("--agent-timeout", agentTimeout);
            options = options.withAgentTimeout(java.time.Duration.ofNanos(Math.max(1_000_000, timeoutNs)), 5)
                .withCaptureBuffer(ServeCommand.captureBytes(captureBuffer));
            Long mac = null;
            if (harnessMac != null) {
                mac = org.metaroce.mrct.socket.internal.Codec.parseMac(harnessMac);
                if (mac < 0) {
                    throw new UsageProblem("--harness-mac takes aa:bb:cc:dd:ee:ff, not '" + harnessMac + "'");
                }
            }
            if (iface != null) {
                options = options.withHarness(mac, harnessIpv4, "none".equals(harnessIpv6) ? null : harnessIpv6);
            } else if (mac != null) {
                options = options.withHarness(mac, null, null);
            }
            return options;
        } catch (IllegalArgumentException e) {
            throw new UsageProblem(e.getMessage());
        }
    }

    /** A generated case kind: its ID prefix, its i-th item as case text, and how it shrinks. */
    private record Generated(String prefix, IntFunction<Object> item, BiFunction<Object, String[], String> yaml,
                             BiFunction<Object, Predicate<Object>, Object> shrink) {
    }

    /** Responder flows (GEN-i) and requester workloads (GEN-R-i), both from the run seed. */
    private static List<Generated> generatedKinds(final long seed) {
        return List.of(
            new Generated("GEN-", i -> FlowGenerator.generate(seed, i),
                (flow, idNote) -> ((GeneratedFlow) flow).toYaml(idNote[0], idNote[1]),
                (flow, fails) -> Shrinker.shrink((GeneratedFlow) flow, fails::test)),
            new Generated("GEN-R-", i -> RequesterFlowGenerator.generate(seed, i),
                (flow, idNote) -> ((RequesterFlow) flow).toYaml(idNote[0], idNote[1]),
                (flow, fails) -> RequesterShrinker.shrink((RequesterFlow) flow, fails::test)));
    }

    private void addGenerated(final List<Runner.Planned> plan, final Specification spec, final long seed) {
        if (generated <= 0) {
            return;
        }
        final CaseLoader loader = new CaseLoader(spec);
        for (final Generated kind : generatedKinds(seed)) {
            for (int i = 0; i < generated; i++) {
                final String id = kind.prefix() + i;
                if (!matches(id)) {
                    continue;
                }
                final List<YamlProblem> problems = new ArrayList<>();
                final CaseDef def = loader.parse("gen/" + id + ".yaml", "GEN", kind.yaml().apply(kind.item().apply(i),
                    new String[] {id, "Generated from run seed " + seed + ", item " + i + "."}), problems);
                if (!problems.isEmpty()) {
                    throw new IllegalStateException("generated case " + id + " does not load: " + problems);
                }
                if (!playsRole(def)) {
                    break;
                }
                plan.add(new Runner.Planned(def, Map.of(), id));
            }
        }
    }

    /** Shrinks every failing generated case and writes the minimal case file beside the reports. */
    private List<String> shrinkGenerated(final Runner runner, final List<Runner.Planned> plan, final RunSummary summary,
                                         final Specification spec, final DeviceProfile profile,
                                         final Set<Fault> faults, final Path dir, final long seed) {
        final List<String> written = new ArrayList<>();
        if (summary.conformant() || !"reference".equals(adapterName)) {
            return written;
        }
        final CaseLoader loader = new CaseLoader(spec);
        for (final Generated kind : generatedKinds(seed)) {
            for (int i = 0; i < generated; i++) {
                final String id = kind.prefix() + i;
                if (!matches(id)) {
                    continue;
                }
                final Object flow = kind.item().apply(i);
                final CaseResult original = runIsolated(loader, kind.yaml().apply(flow, new String[] {id, ""}), id,
                    spec, profile, faults);
                if (original == null || original.verdict() != Verdict.FAIL) {
                    continue;
                }
                final String rule = original.failure() == null ? null : original.failure().rule();
                final Object shrunk = kind.shrink().apply(flow, candidate -> {
                    final CaseResult result = runIsolated(loader, kind.yaml().apply(candidate, new String[] {id, ""}),
                        id, spec, profile, faults);
                    return result != null && result.verdict() == Verdict.FAIL && result.failure() != null
                        && java.util.Objects.equals(rule, result.failure().rule());
                });
                try {
                    final Path file = dir.resolve("shrunk").resolve(id + "-shrunk.yaml");
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, kind.yaml().apply(shrunk, new String[] {id + "-shrunk", "Shrunk from "
                        + "generated item " + i + " of run seed " + seed + ", which failed " + rule + ": "
                        + original.reason()}));
                    written.add(file.toString());
                } catch (IOException e) {
                    main.err().println("mrct run: cannot write the shrunk case " + id + ": " + e.getMessage());
                }
            }
        }
        return written;
    }

    private static CaseResult runIsolated(final CaseLoader loader, final String yaml, final String id,
                                          final Specification spec, final DeviceProfile profile,
                                          final Set<Fault> faults) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("gen/" + id + ".yaml", "GEN", yaml, problems);
        if (def == null || !problems.isEmpty()) {
            return null;
        }
        try (Adapter adapter = ReferenceAdapter.fromProfile(profile, spec, faults)) {
            final Runner runner = new Runner(new RunContext(adapter, spec, profile, 1, false, 2_000_000, 0, 0,
                org.metaroce.mrct.reference.ReferencePeer.FACTORY),
                List.of(), Clock.systemUTC());
            return runner.runOne(new Runner.Planned(def, Map.of(), id));
        }
    }

    private RunInfo info(final Specification spec, final DeviceProfile profile, final Adapter adapter, final long seed,
                         final Set<Fault> faults, final int count, final RunInfo.Timing timing) {
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
            profile.name(), profile.sha256(), List.copyOf(profile.pics()), parameters, seed, strict,
            faults.isEmpty() ? replay == null ? null : replay.recording().fault() : faults.iterator().next().label(),
            selection, count, Clock.systemUTC().instant(), RunInfo.labels(adapter.capabilities()), adapter.endpoints(),
            timing);
    }

    private void printSummary(final RunSummary summary, final Path dir, final long seed, final List<String> shrunk) {
        final StringBuilder counts = new StringBuilder();
        summary.counts().forEach((verdict, n) -> {
            if (n > 0) {
                counts.append(counts.length() == 0 ? "" : ", ").append(n).append(' ').append(verdict);
            }
        });
        main.out().println(summary.overall() + ": " + summary.reason() + " (" + counts + ")");
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

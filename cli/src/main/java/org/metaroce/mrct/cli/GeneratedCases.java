package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.metaroce.mrct.harness.cases.CaseDef;
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
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.reference.ReferencePeer;
import org.metaroce.mrct.spi.Adapter;

/**
 * The generated cases of {@code mrct run --generated N}: responder flows (GEN-i) and requester workloads (GEN-R-i),
 * both from the run seed, added to the plan; after the run, each failing one shrunk to a minimal case file beside the
 * reports, when the device can run a case again alone.
 */
final class GeneratedCases {
    /** A generated case kind: its ID prefix, its i-th item as case text, and how it shrinks. */
    private record Kind(String prefix, IntFunction<Object> item, BiFunction<Object, String[], String> yaml,
                        BiFunction<Object, Predicate<Object>, Object> shrink) {
    }

    private final long seed;
    private final int count;
    private final Predicate<String> selected;
    private final Predicate<CaseDef> playsRole;
    private final Specification spec;
    /** The profile's max_pmtu and recv_window: generated flows stay within them. */
    private final long maxPmtu;
    private final long recvWindow;

    /**
     * @param count how many of each kind
     * @param selected whether an ID is selected (-s, -x)
     * @param playsRole whether a case plays the selected role (--role)
     * @param profile the device's profile (the flows use PMTUs up to its max_pmtu and stay within its recv_window)
     */
    GeneratedCases(final long seed, final int count, final Predicate<String> selected,
                   final Predicate<CaseDef> playsRole, final Specification spec, final DeviceProfile profile) {
        this.seed = seed;
        this.count = count;
        this.selected = selected;
        this.playsRole = playsRole;
        this.spec = spec;
        final Map<String, Object> parameters = profile.effectiveParameters(spec);
        this.maxPmtu = parameters.get("max_pmtu") instanceof Long value ? value : 4096;
        this.recvWindow = parameters.get("recv_window") instanceof Long value ? value : 128;
    }

    private List<Kind> kinds() {
        return List.of(
            new Kind("GEN-", i -> FlowGenerator.generate(seed, i, maxPmtu, recvWindow),
                (flow, idNote) -> ((GeneratedFlow) flow).toYaml(idNote[0], idNote[1]),
                (flow, fails) -> Shrinker.shrink((GeneratedFlow) flow, fails::test)),
            new Kind("GEN-R-", i -> RequesterFlowGenerator.generate(seed, i, maxPmtu),
                (flow, idNote) -> ((RequesterFlow) flow).toYaml(idNote[0], idNote[1]),
                (flow, fails) -> RequesterShrinker.shrink((RequesterFlow) flow, fails::test)));
    }

    /**
     * The case text of the generated case {@code id} ({@code GEN-i} or {@code GEN-R-i}) of this seed, exactly as
     * {@code mrct run} runs it, or null when {@code id} names no generated case.
     */
    String text(final String id) {
        final List<Kind> kinds = new ArrayList<>(kinds());
        kinds.sort((a, b) -> b.prefix().length() - a.prefix().length()); // GEN-R- before GEN-
        for (final Kind kind : kinds) {
            if (id.startsWith(kind.prefix())) {
                final String number = id.substring(kind.prefix().length());
                if (number.isEmpty() || number.length() > 9 || !number.chars().allMatch(Character::isDigit)) {
                    return null;
                }
                final int i = Integer.parseInt(number);
                return kind.yaml().apply(kind.item().apply(i), new String[] {id, "Generated from run seed " + seed
                    + ", item " + i + "."});
            }
        }
        return null;
    }

    /** Adds the selected generated cases to {@code plan}. */
    void addTo(final List<Runner.Planned> plan) {
        if (count <= 0) {
            return;
        }
        final CaseLoader loader = new CaseLoader(spec);
        for (final Kind kind : kinds()) {
            for (int i = 0; i < count; i++) {
                final String id = kind.prefix() + i;
                if (!selected.test(id)) {
                    continue;
                }
                final List<YamlProblem> problems = new ArrayList<>();
                final CaseDef def = loader.parse("gen/" + id + ".yaml", "GEN", kind.yaml().apply(kind.item().apply(i),
                    new String[] {id, "Generated from run seed " + seed + ", item " + i + "."}), problems);
                if (!problems.isEmpty()) {
                    throw new IllegalStateException("generated case " + id + " does not load: " + problems);
                }
                if (!playsRole.test(def)) {
                    break;
                }
                plan.add(new Runner.Planned(def, Map.of(), id));
            }
        }
    }

    /**
     * Shrinks every failing generated case against fresh devices and writes the minimal case file to
     * {@code dir/shrunk/}.
     *
     * @param devices a fresh device for each run of one case
     * @return the files written
     */
    List<String> shrinkFailing(final RunSummary summary, final Supplier<Adapter> devices, final DeviceProfile profile,
                               final Path dir, final PrintStream err) {
        final List<String> written = new ArrayList<>();
        if (summary.conformant()) {
            return written;
        }
        final CaseLoader loader = new CaseLoader(spec);
        for (final Kind kind : kinds()) {
            for (int i = 0; i < count; i++) {
                final String id = kind.prefix() + i;
                if (!selected.test(id)) {
                    continue;
                }
                final Object flow = kind.item().apply(i);
                final CaseResult original = runAlone(loader, kind.yaml().apply(flow, new String[] {id, ""}), id,
                    devices, profile);
                if (original == null || original.verdict() != Verdict.FAIL) {
                    continue;
                }
                final String rule = original.failure() == null ? null : original.failure().rule();
                final Object shrunk = kind.shrink().apply(flow, candidate -> {
                    final CaseResult result = runAlone(loader, kind.yaml().apply(candidate, new String[] {id, ""}),
                        id, devices, profile);
                    return result != null && result.verdict() == Verdict.FAIL && result.failure() != null
                        && Objects.equals(rule, result.failure().rule());
                });
                try {
                    final Path file = dir.resolve("shrunk").resolve(id + "-shrunk.yaml");
                    Files.createDirectories(file.getParent());
                    Files.writeString(file, kind.yaml().apply(shrunk, new String[] {id + "-shrunk", "Shrunk from "
                        + "generated item " + i + " of run seed " + seed + ", which failed " + rule + ": "
                        + original.reason()}));
                    written.add(file.toString());
                } catch (IOException e) {
                    err.println("mrct run: cannot write the shrunk case " + id + ": " + e.getMessage());
                }
            }
        }
        return written;
    }

    private CaseResult runAlone(final CaseLoader loader, final String yaml, final String id,
                                final Supplier<Adapter> devices, final DeviceProfile profile) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("gen/" + id + ".yaml", "GEN", yaml, problems);
        if (def == null || !problems.isEmpty()) {
            return null;
        }
        try (Adapter adapter = devices.get()) {
            final Runner runner = new Runner(new RunContext(adapter, spec, profile, 1, false, 2_000_000, 0, 0,
                ReferencePeer.FACTORY), List.of(), Clock.systemUTC());
            return runner.runOne(new Runner.Planned(def, Map.of(), id));
        }
    }
}

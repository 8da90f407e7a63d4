package org.metaroce.mrct.replay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.cases.ConnectionDef;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.generate.FlowGenerator;
import org.metaroce.mrct.harness.generate.RequesterFlowGenerator;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.reference.ReferencePeer;
import org.metaroce.mrct.reports.ReportFormat;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/**
 * Recorded runs for the replay tests: a selection of the bundled cases (responder cases, requester cases with a peer,
 * generated cases of both kinds) run against the reference NIC with {@code evidence.pcapng} written as
 * {@code mrct run} writes it, replays of such files, and edited copies of them.
 */
final class Recordings {
    static final long SEED = 424242L;
    static final long EXPECT_TIMEOUT_NS = 2_000_000;
    /** LINKTYPE_USER0, the control records' interface. */
    private static final int LINKTYPE_CONTROL = 147;

    final Specification spec;
    final DeviceProfile profile;
    final List<Runner.Planned> all;

    Recordings() throws Exception {
        spec = Specification.bundled();
        profile = ProfileLoader.load(Fixtures.root().resolve("fixtures/profiles/reference.yaml"), spec);
        final List<CaseDef> cases = new CaseLoader(spec).load(List.of(Fixtures.root().resolve("spec-cases")));
        all = new ArrayList<>(Runner.plan(cases));
        final CaseLoader loader = new CaseLoader(spec);
        for (int i = 0; i < 3; i++) {
            all.add(generated(loader, "GEN-" + i, FlowGenerator.generate(SEED, i).toYaml("GEN-" + i, "")));
            all.add(generated(loader, "GEN-R-" + i,
                RequesterFlowGenerator.generate(SEED, i).toYaml("GEN-R-" + i, "")));
        }
    }

    private static Runner.Planned generated(final CaseLoader loader, final String id, final String yaml) {
        final List<org.metaroce.mrct.harness.yaml.YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("gen/" + id + ".yaml", "GEN", yaml, problems);
        if (!problems.isEmpty()) {
            throw new IllegalStateException(id + ": " + problems);
        }
        return new Runner.Planned(def, Map.of(), id);
    }

    /** The planned cases whose IDs start with one of {@code prefixes}, in suite order. */
    List<Runner.Planned> select(final String... prefixes) {
        final List<Runner.Planned> out = new ArrayList<>();
        for (final Runner.Planned planned : all) {
            for (final String prefix : prefixes) {
                if (planned.id().startsWith(prefix)) {
                    out.add(planned);
                    break;
                }
            }
        }
        return out;
    }

    /** Whether {@code planned} runs the harness's peer (a requester case with {@code peer: true}). */
    static boolean hasPeer(final Runner.Planned planned) {
        return planned.def().connections().stream().anyMatch(ConnectionDef::peer);
    }

    /** Runs {@code plan} against the reference NIC with {@code faults}, writing {@code dir/evidence.pcapng}. */
    Map<String, CaseResult> record(final Path dir, final List<Runner.Planned> plan, final Set<Fault> faults)
        throws IOException {
        try (ReferenceAdapter adapter = ReferenceAdapter.fromProfile(profile, spec, faults)) {
            final RunInfo info = new RunInfo("test", spec.version(), adapter.name(), adapter.identity().vendor(),
                adapter.identity().model(), adapter.identity().firmware(), profile.name(), profile.sha256(),
                List.copyOf(profile.pics()), Map.of(), SEED, false,
                faults.isEmpty() ? null : faults.iterator().next().label(), List.of(), plan.size(),
                Instant.parse("2026-01-02T03:04:05Z"), RunInfo.labels(adapter.capabilities()), adapter.endpoints(),
                new RunInfo.Timing(EXPECT_TIMEOUT_NS, 0, 0));
            return run(adapter, SEED, info, plan, Reports.open(dir, EnumSet.of(ReportFormat.EVIDENCE), spec));
        }
    }

    /** Replays {@code plan} from {@code evidence}. */
    Map<String, CaseResult> replay(final Path evidence, final List<Runner.Planned> plan) throws Exception {
        try (ReplayAdapter adapter = ReplayAdapter.open(evidence, spec.version())) {
            return run(adapter, adapter.recording().seed(), null, plan, null);
        }
    }

    private Map<String, CaseResult> run(final Adapter adapter, final long seed, final RunInfo info,
                                        final List<Runner.Planned> plan, final RunListener reports) {
        final Map<String, CaseResult> results = new LinkedHashMap<>();
        final List<RunListener> listeners = new ArrayList<>();
        if (reports != null) {
            listeners.add(reports);
        }
        listeners.add(new RunListener() {
            @Override
            public void caseFinished(final CaseResult result) {
                results.put(result.id(), result);
            }
        });
        final Runner runner = new Runner(new RunContext(adapter, spec, profile, seed, false, EXPECT_TIMEOUT_NS, 0, 0,
            ReferencePeer.FACTORY), listeners, Clock.systemUTC());
        final RunInfo runInfo = info != null ? info : new RunInfo("test", spec.version(), adapter.name(), "", "", "",
            profile.name(), profile.sha256(), List.of(), Map.of(), seed, false, null, List.of(), plan.size(),
            Instant.now());
        runner.run(runInfo, plan, result -> false, null);
        return results;
    }

    /** What an edit does to one packet of a recording: keep it (maybe changed) or drop it. */
    interface PacketEdit {
        /**
         * The bytes to write for the packet whose comment has {@code fields}, or null to leave it out. {@code bytes}
         * is a copy the edit may change.
         */
        byte[] apply(Map<String, String> fields, byte[] bytes);
    }

    /**
     * Copies {@code from} to {@code to} packet by packet (same section comment, interfaces, timestamps and comments),
     * with {@code edit} applied; {@code sectionComment} replaces the section comment when not null.
     */
    static void copy(final Path from, final Path to, final String sectionComment, final PacketEdit edit)
        throws IOException {
        try (CaptureReader reader = CaptureReader.open(from)) {
            final String section = sectionComment != null ? sectionComment : reader.sectionComment();
            try (PcapngWriter writer = PcapngWriter.create(to, PcapngWriter.Options.defaults()
                .withUserApplication("mrct test").withComment(section))) {
                writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "to-dut", 9);
                writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "from-dut", 9);
                writer.addInterface(LINKTYPE_CONTROL, "control", 9);
                writer.addInterface(148, "memory", 9);
                while (reader.next()) {
                    final byte[] bytes = new byte[reader.capturedLength()];
                    reader.buffer().get(reader.offset(), bytes);
                    final byte[] out = edit.apply(EvidenceComment.parse(reader.comment()), bytes);
                    if (out != null) {
                        writer.write(reader.interfaceId(), reader.timestampNanos(), ByteBuffer.wrap(out), 0,
                            out.length, reader.comment());
                    }
                }
            }
        }
    }
}

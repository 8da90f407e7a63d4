package org.metaroce.mrct.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.metaroce.mrct.harness.result.ControlCalls;
import org.metaroce.mrct.replay.internal.CaseRecording;
import org.metaroce.mrct.replay.internal.CaseReplay;
import org.metaroce.mrct.replay.internal.CaseSpan;
import org.metaroce.mrct.replay.internal.EvidenceIndex;
import org.metaroce.mrct.replay.internal.RecordingCursor;
import org.metaroce.mrct.replay.internal.ReplayAnswers;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.DeviceIdentity;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.spi.EvidenceUnavailableException;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.SendWqe;

/**
 * A recorded run played back as the device: each case is answered from the frames and control-plane records that
 * {@code evidence.pcapng} holds for it, while the harness runs the case again and computes every verdict anew. A lab
 * audits a run with it long after the device is gone: the same harness on the same recording must reach the same
 * verdicts, case by case.
 *
 * <pre>{@code
 * try (ReplayAdapter replay = ReplayAdapter.open(Path.of("reports/run/evidence.pcapng"), spec.version())) {
 *     RecordedRun run = replay.recording();       // seed, profile, capabilities, addresses of the recorded run
 *     // run the same cases with run.seed() and the recorded profile against `replay`
 * }
 * }</pre>
 *
 * <p>The adapter claims what the recorded adapter could do (recorded in the file), so the same cases apply; its clock
 * is virtual and follows the recorded times (see {@link CaseReplay}). A case the recording cannot answer (absent from
 * the file, cut short, a frame or call missing, or the harness asking for something else than what was recorded) is
 * INCONCLUSIVE with the reason, through {@link EvidenceUnavailableException}. Not thread-safe.
 */
public final class ReplayAdapter implements Adapter {
    /** The adapter's name in reports. */
    public static final String NAME = "replay";

    private final EvidenceIndex index;
    private final RecordedRun run;
    private final RecordingCursor cursor;
    private final CaseReplay.Clock clock = new CaseReplay.Clock();
    private final DataPlane data = new Data();
    private final ControlPlane control = new Control();
    private CaseRecording loaded;
    private CaseReplay current;
    private final Map<String, String> unused = new HashMap<>();

    private ReplayAdapter(final EvidenceIndex index) {
        this.index = index;
        this.run = index.run();
        this.cursor = new RecordingCursor(run.file());
    }

    /**
     * Opens a recording made against specification version {@code specVersion} and indexes its cases (one pass over
     * the file; frames are read when their case is replayed).
     *
     * @throws SpecVersionMismatchException when the recording is of another specification version
     * @throws RecordingException when the file is missing, unreadable or not mrct evidence
     */
    public static ReplayAdapter open(final Path evidence, final String specVersion) throws RecordingException {
        return new ReplayAdapter(EvidenceIndex.scan(evidence, specVersion));
    }

    /** What the recording says about its run. */
    public RecordedRun recording() {
        return run;
    }

    /** The verdict the recorded run gave case {@code id}, or null when the recording does not hold it. */
    public String recordedVerdict(final String id) {
        final CaseSpan span = index.span(id);
        return span == null ? null : span.verdict();
    }

    /**
     * Checks that the DUT profile {@code name} with SHA-256 {@code sha256} is the one the recorded run used: a replay
     * judges with the recorded run's profile, or its verdicts mean something else. Returns null when the recording
     * names the same hash, or a note when it names none (older files).
     *
     * @throws RecordingException when the recording names another profile hash
     */
    public String checkProfile(final String name, final String sha256) throws RecordingException {
        if (run.profileHash() == null) {
            return "the recording does not say which DUT profile its run used (written by an older mrct): the "
                + "replay takes " + name + " to be it";
        }
        if (!run.profileHash().equalsIgnoreCase(sha256)) {
            throw new RecordingException(run.file(), "recorded with the DUT profile " + run.profile() + " (sha256 "
                + run.profileHash() + "), but the profile given is " + name + " (sha256 " + sha256 + "); a replay "
                + "must judge with the recorded run's profile: give it with --profile");
        }
        return null;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<Capability> capabilities() {
        // exactly the recorded adapter's, so that the same cases apply: the replay's clock is virtual whatever the
        // device's was, but claiming VIRTUAL_TIME for a recorded real-time run would make the cases that need it (the
        // requester cases) applicable, and the recording holds nothing of them
        return run.capabilities();
    }

    @Override
    public DeviceIdentity identity() {
        return new DeviceIdentity(orUnknown(run.vendor()), orUnknown(run.model()), orUnknown(run.firmware()));
    }

    private static String orUnknown(final String value) {
        return value == null || value.isEmpty() ? "unknown" : value;
    }

    @Override
    public Endpoints endpoints() {
        return run.endpoints();
    }

    @Override
    public DataPlane dataPlane() {
        return data;
    }

    @Override
    public ControlPlane controlPlane() {
        return control;
    }

    @Override
    public void beginCase(final String caseId) {
        finishCase();
        unused.remove(caseId);
        final CaseSpan span = index.span(caseId);
        if (span == null) {
            throw new EvidenceUnavailableException("the recording holds nothing of " + caseId + ": the recorded run "
                + "did not run it (not selected there, or not applicable), so it cannot be judged from it");
        }
        if (loaded == null || !loaded.id().equals(caseId)) {
            loaded = null;
            loaded = CaseRecording.read(cursor, span);
        }
        current = new CaseReplay(loaded, clock);
    }

    /**
     * What the harness left unused of the recording of case {@code id} when it replayed it (frames, control calls), or
     * null when it used everything or the case was not replayed. A replay that gives the recorded verdict uses the
     * whole recording; a case that fails earlier in the replay than in the recorded run (a frame of the device that
     * the harness now judges differently) leaves the rest, and this says how much.
     *
     * <p>This is not reported as {@link #evidenceProblem()}: a replay is deterministic, so running the case again (as
     * the runner does for incomplete evidence) would leave the same rest.
     */
    public String unused(final String id) {
        if (current != null && current.id().equals(id)) {
            return current.leftovers();
        }
        return unused.get(id);
    }

    @Override
    public void close() {
        cursor.close();
        finishCase();
        loaded = null;
    }

    private void finishCase() {
        if (current != null) {
            final String rest = current.leftovers();
            if (rest != null) {
                unused.put(current.id(), rest);
            }
            current = null;
        }
    }

    private CaseReplay replay() {
        if (current == null) {
            throw new EvidenceUnavailableException("no recorded case is being replayed");
        }
        return current;
    }

    /** Frames from the recording, on the replay's clock. */
    private final class Data implements DataPlane {
        @Override
        public long now() {
            return clock.now();
        }

        @Override
        public void send(final byte[] frame) {
            replay().send(frame);
        }

        @Override
        public CapturedFrame poll(final long deadlineNanos) {
            if (current == null) {
                clock.advanceTo(deadlineNanos);
                return null;
            }
            return current.poll(deadlineNanos);
        }
    }

    /** Control-plane answers from the recording. */
    private final class Control implements ControlPlane {
        private <T> T call(final String op, final Map<String, Object> args, final Function<JsonNode, T> decode) {
            return replay().call(op, args, decode);
        }

        private void run(final String op, final Map<String, Object> args) {
            call(op, args, result -> null);
        }

        @Override
        public int allocatePd() {
            return call("allocatePd", ControlCalls.none(), ReplayAnswers::integer);
        }

        @Override
        public int createQp(final QpAttributes attributes) {
            return call("createQp", ControlCalls.createQp(attributes), ReplayAnswers::integer);
        }

        @Override
        public void modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
            run("modifyQp", ControlCalls.modifyQp(qpn, state, attributes));
        }

        @Override
        public QpState queryQp(final int qpn) {
            return call("queryQp", ControlCalls.qp(qpn), ReplayAnswers::state);
        }

        @Override
        public void destroyQp(final int qpn) {
            run("destroyQp", ControlCalls.qp(qpn));
        }

        @Override
        public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
            return call("registerMr", ControlCalls.registerMr(pd, length, access), ReplayAnswers::region);
        }

        @Override
        public void invalidateRkey(final int rkey) {
            run("invalidateRkey", ControlCalls.invalidateRkey(rkey));
        }

        @Override
        public void deregisterMr(final int lkey) {
            run("deregisterMr", ControlCalls.deregisterMr(lkey));
        }

        @Override
        public void postReceive(final int qpn, final ReceiveWqe wqe) {
            run("postReceive", ControlCalls.postReceive(qpn, wqe));
        }

        @Override
        public void postSend(final int qpn, final SendWqe wqe) {
            run("postSend", ControlCalls.postSend(qpn, wqe));
        }

        @Override
        public List<Completion> pollCompletions(final int qpn, final int max) {
            return call("pollCompletions", ControlCalls.pollCompletions(qpn, max), ReplayAnswers::completions);
        }

        @Override
        public byte[] readMemory(final long va, final int length) {
            return call("readMemory", ControlCalls.readMemory(va, length), ReplayAnswers::bytes);
        }

        @Override
        public void writeMemory(final long va, final byte[] bytes) {
            run("writeMemory", ControlCalls.writeMemory(va, bytes));
        }

        @Override
        public Map<String, Long> counters() {
            return call("counters", ControlCalls.none(), ReplayAnswers::counters);
        }

        @Override
        public Map<String, Long> qpCounters(final int qpn) {
            return call("qpCounters", ControlCalls.qp(qpn), ReplayAnswers::counters);
        }

        @Override
        public void reset() {
            run("reset", ControlCalls.none());
        }
    }
}

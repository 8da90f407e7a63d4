package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.metaroce.mrct.harness.blame.Cause;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.NotChecked;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.DataPlane;

/**
 * Runs one case (one row of its parameter table) against the adapter and turns what happened into a
 * {@link CaseResult}. The work is split by what it is about:
 * <ul>
 *   <li>{@link CaseSetup} binds the parameters, opens the peer and the network, creates the connections and the
 *       regions ({@link CaseWorld}, {@link Names});</li>
 *   <li>{@link FramePump} moves the shared clock, receives and decodes the device's frames, applies the per-frame
 *       transmit checks and keeps the inbox of frames no expectation consumed yet;</li>
 *   <li>{@link StepDispatch} runs the steps, each kind through the executor of its family ({@link FramesOut},
 *       {@link FrameExpectations}, {@link ControlSteps}, {@link StateExpectations}, {@link NetworkSteps});</li>
 *   <li>{@link VerdictPolicy} turns what stopped the case into a verdict, a reason and a failure.</li>
 * </ul>
 * Steps run in order; the first failed expectation ends the case. Frames nobody expected fail an exhaustive case at its
 * end.
 */
final class CaseRun {
    private final RunContext run;
    private final CaseDef def;
    private final Map<String, Expr> row;
    private final String id;
    private final long caseSeed;
    private final DataPlane data;
    private final ControlJournal control;
    private final Names names = new Names();
    private final CaseWorld world = new CaseWorld(names);
    private final Cursor cursor = new Cursor();
    private final List<String> notes = new ArrayList<>();
    private Evidence evidence;
    private RequesterSteps requesterSteps;
    private Map<String, Long> countersAtStart = Map.of();
    private final HarnessLateness lateness;
    private boolean harnessLate;
    private long failedWindowTolerance = -1;
    /** The case's frames once its setup made them (null before): a control-plane call on real time catches up first. */
    private FramePump pump;
    /** What the case's when and repeat steps left out (null before the steps are set up). */
    private Gated gated;
    /** When the control-plane call under way began (after the catch-up before it), on the adapter's clock. */
    private long controlCallBegan;

    CaseRun(final RunContext run, final CaseDef def, final Map<String, Expr> row, final String id) {
        this.run = run;
        this.def = def;
        this.row = row;
        this.id = id;
        this.caseSeed = run.seed() ^ (id.hashCode() * 0x9E3779B97F4A7C15L);
        this.data = run.adapter().dataPlane();
        this.control = new ControlJournal(run.adapter().controlPlane(), run.adapter().dataPlane(),
            run.adapter().dataPlane().now(), () -> evidence == null ? 0 : evidence.size(),
            this::beforeControlCall, this::afterControlCall);
        this.lateness = new HarnessLateness(!run.adapter().capabilities().contains(Capability.VIRTUAL_TIME),
            run.toleranceNs());
    }

    CaseResult execute() {
        final long wallStart = System.nanoTime();
        final VerdictPolicy policy = new VerdictPolicy(def, run.spec(), run.strict(), this::blame,
            lateness::beyondBudget);
        VerdictPolicy.Outcome outcome = VerdictPolicy.PASSED;
        long start = data.now();
        evidence = new Evidence(start);
        try {
            run.adapter().beginCase(id);
            control.reset();
            start = data.now();
            control.startAt(start);
            cursor.endedAt(start);
            evidence = new Evidence(start);
            runCase(start);
        } catch (RuntimeException e) {
            outcome = policy.outcome(e, cursor.index(), cursor.step());
            if (AfterMissingFrame.applies(e, cursor.step())) {
                failedWindowTolerance = ((StepFailure) e).windowToleranceNanos;
                if (!virtualTime() && outcome.verdict() != Verdict.ERROR) {
                    notes.add(AfterMissingFrame.look(data, evidence));
                }
            }
        }
        final List<NotChecked> notChecked = gated == null ? List.of() : gated.notChecked();
        if (outcome.verdict() == Verdict.PASS && !notChecked.isEmpty()) {
            outcome = gated.judgedNothing()
                ? new VerdictPolicy.Outcome(Verdict.NOT_APPLICABLE, "no expectation of the case applies under the "
                    + "profile: " + summary(notChecked), null)
                : new VerdictPolicy.Outcome(Verdict.PASS, "every expectation that applies held; not checked under "
                    + "the profile: " + summary(notChecked), null);
        }
        harnessLate = outcome.harnessLate();
        final HarnessLateness.Late late = lateness.beyondBudget();
        if (late != null && !harnessLate) {
            notes.add("the harness was late beyond the run's tolerance (" + late.describe() + ")");
        }
        Map<String, List<double[]>> series = Map.of();
        try {
            if (requesterSteps != null) {
                series = requesterSteps.series(world.connections(), world.network(), data.now());
            }
        } catch (RuntimeException e) {
            notes.add("no rate series: " + e.getMessage());
        }
        if (world.peer() != null) {
            world.peer().close();
        }
        final long deviceNanos = data.now() - start;
        final Map<String, Object> parameters = new LinkedHashMap<>();
        for (final Map.Entry<String, Expr> entry : row.entrySet()) {
            // a case stopped before its parameters were bound (the adapter refused it) shows the row as written
            final Long value = names.bound(entry.getKey());
            parameters.put(entry.getKey(), value != null ? value : entry.getValue().toString());
        }
        return new CaseResult(id, def.id(), def.title(), def.area(), def.rules(),
            policy.reportedLevel(outcome.failure()), def.role(), def.file(), parameters, outcome.verdict(),
            outcome.reason(), outcome.failure(), System.nanoTime() - wallStart, deviceNanos, 1, evidence.records(),
            notes, series, control.records(), notChecked);
    }

    /** The expectations not checked, in one phrase: the first one's reason, and how many there are. */
    private static String summary(final List<NotChecked> notChecked) {
        final NotChecked first = notChecked.get(0);
        return notChecked.size() == 1 ? "step at " + first.describe()
            : notChecked.size() + " steps from line " + first.line() + " (" + first.reason()
                + (notChecked.stream().allMatch(n -> n.reason().equals(first.reason())) ? ")" : "; and others)");
    }

    /**
     * Whether the case's verdict is INCONCLUSIVE because the harness itself was late (after {@link #execute()}): a
     * run of the case again may judge the device.
     */
    boolean harnessWasLate() {
        return harnessLate;
    }

    /**
     * When the case failed on an expected frame that did not arrive: the tolerance that frame's window had, which may
     * be larger than the run's absolute one (a percentage of a long window); else -1 (after {@link #execute()}).
     */
    long failedWindowToleranceNanos() {
        return failedWindowTolerance;
    }

    /** The harness's worst lateness in the case (after {@link #execute()}), within the run's tolerance or not. */
    long harnessLatenessNanos() {
        return lateness.worstNanos();
    }

    /** Sets the case up, runs its setup steps and its steps, and checks what is left over at the end. */
    private void runCase(final long start) {
        final CaseSetup setup = new CaseSetup(run, def, caseSeed, control, names, world);
        setup.bindParameters(row);
        final String scaled = setup.timers().describe(names);
        if (scaled != null) {
            notes.add(scaled);
        }
        requesterSteps = new RequesterSteps(control, names.bound(), names.resolver(), start, run.toleranceNs(),
            run.profile().effectiveParameters(run.spec()));
        setup.openPeer(start);
        countersAtStart = run.adapter().capabilities().contains(Capability.COUNTERS)
            ? control.counters() : Map.of();
        setup.createConnectionsAndRegions();

        pump = new FramePump(data, def, run.adapter().endpoints(), names, world, requesterSteps,
            evidence, cursor, lateness, virtualTime());
        final Timing timing = new Timing(run, names);
        final FrameExpectations frameExpectations = new FrameExpectations(names, world, pump, evidence, cursor,
            timing, run.adapter().capabilities().contains(Capability.VIRTUAL_TIME));
        final StepDispatch steps = new StepDispatch(names, cursor,
            new FramesOut(names, world, new Traffic(caseSeed), pump, evidence, cursor, timing), frameExpectations,
            new ControlSteps(control, names, world, requesterSteps, pump),
            new StateExpectations(control, names, world, run.spec(), countersAtStart),
            new NetworkSteps(names, world, requesterSteps, pump));
        gated = steps.gated();

        for (final Step step : def.setupSteps()) {
            steps.run(step);
        }
        if (!virtualTime() && world.network() != null) {
            world.network().stepsBeginAt(data.now());
        }
        steps.runSteps(def.steps());
        cursor.leave();
        frameExpectations.nothingLeftOver(def.exhaustive(), notes);
    }

    /**
     * Before a control-plane call. On a real-time adapter with the harness's network in the case, the network first
     * delivers what is due and takes what the device sent: the call takes what it takes (a round trip to the agent),
     * and frames due meanwhile would reach the device or the peer that much late (a run of post_send steps would hold
     * back the peer's acknowledgements until the device's timers expire). A call the device acts on that begins later
     * than the case meant it (after an {@code advance}, a frame) is the harness's lateness
     * ({@link HarnessLateness#controlCallBegan}).
     */
    private void beforeControlCall(final String op) {
        // when the case meant the call: the previous step's end (an advance, a frame), unless a call came between
        final long intended = cursor.intendedSendTime();
        cursor.controlCallMade();
        if (pump != null && "postSend".equals(op)) {
            pump.workPosted();
        }
        if (pump != null && world.network() != null && !virtualTime()) {
            pump.pollUntil(pump.now());
        }
        controlCallBegan = data.now();
        if (cursor.index() >= 0 && !READING_CALLS.contains(op)) {
            // a call the device acts on, begun late: what the case times from it is the harness's doing
            lateness.controlCallBegan(cursor.index(), op, intended, controlCallBegan);
        }
    }

    /**
     * After a control-plane call: on real time a call the device acts on ({@code postSend}, {@code modifyQp},
     * {@code postReceive}, ...), which may start or release the device's frames, makes the next window start when it
     * returned at the latest (the device's frames cannot be required before it was asked), and an {@code after} bound
     * when it began. Calls that only read (polling completions, reading memory, counters or a QP's state) leave the
     * case's timeline alone: an expiry the case expects {@code after: rto_low_ns} is timed from the frame that started
     * the timer, not from a poll in between.
     */
    private void afterControlCall(final String op) {
        if (!virtualTime() && cursor.index() >= 0 && READING_CALLS.contains(op)) {
            // a call that only reads leaves the case's timeline alone: one that took longer than the tolerance
            // stretched the case beyond its windows (a call the device acts on restarts the timeline instead)
            lateness.controlCallTook(cursor.index(), op, controlCallBegan, data.now());
        }
        if (!virtualTime() && !READING_CALLS.contains(op)) {
            final long returnedAt = data.now();
            cursor.controlCallReturned(controlCallBegan, returnedAt);
            if (world.network() != null && cursor.index() >= 0) {
                // the network's rules count the case's time, in which a call takes none (Network#controlCall)
                world.network().controlCall(controlCallBegan, returnedAt);
            }
        }
    }

    /** The control-plane operations that only read the device's state (they never start a window). */
    private static final java.util.Set<String> READING_CALLS = java.util.Set.of("queryQp", "pollCompletions",
        "readMemory", "counters", "qpCounters");

    private boolean virtualTime() {
        return run.adapter().capabilities().contains(Capability.VIRTUAL_TIME);
    }

    /** The cause of a failed expectation: the rule governing what was wrong (see harness/blame). */
    private Cause blame(final StepFailure e, final Step step, final Level level) {
        final Supplier<Map<String, Long>> counters = countersAtStart.isEmpty() ? null : this::counterChange;
        if (pump != null && e.frame >= 0 && e.diffs.stream().anyMatch(d -> d.field().equals("aeth.msn")
            || d.field().equals("bth.opcode") && (String.valueOf(d.actual()).startsWith("RDMA_READ_RESPONSE")
                || "MR-REQ-006".equals(e.rule) && (String.valueOf(d.actual()).contains("_MIDDLE")
                    || String.valueOf(d.actual()).contains("_FIRST"))))) {
            // an MSN that counts a READ or atomic executed early, or is simply wrong: the response that tells the
            // two apart may leave just behind the acknowledgement, so the device runs for ack_delay_max_ns more. A
            // READ response of the wrong position likewise: whether another response follows it on the read's span
            // tells a wrong count (MR-RD-002) from a wrong opcode (MR-RD-003). A request MIDDLE (FIRST) where its
            // message's LAST (ONLY) was due likewise: an empty LAST just after it is one packet too many
            // (MR-REQ-005), not a wrong opcode (MR-REQ-006)
            try {
                pump.pollUntil(pump.now() + names.bound("ack_delay_max_ns", 8_000));
            } catch (RuntimeException later) {
                notes.add("after the failure: " + later.getMessage());
            }
        }
        try {
            return FailureBlame.of(run.spec()).cause(new FailureBlame.Inputs(e, step, evidence.records(),
                world.connections(), world::byPeerQpn, names.resolver(), world.addresses(), counters,
                stepRule(step) != null
                    ? java.util.stream.Stream.concat(java.util.stream.Stream.of(stepRule(step)), def.rules().stream())
                        .distinct().toList() : def.rules(),
                def.role() == Role.REQUESTER, world.validDeviceRegions()),
                level);
        } catch (RuntimeException failed) {
            notes.add("blame: " + failed);
            return null;
        }
    }

    /** The rule a step names for itself ({@code rule:} on expect, expect_none, expect_memory), or null. */
    private static String stepRule(final Step step) {
        if (step instanceof Step.Expect expect) {
            return expect.rule();
        }
        if (step instanceof Step.ExpectNone none) {
            return none.rule();
        }
        return step instanceof Step.ExpectMemory memory ? memory.rule() : null;
    }

    /** How much each counter changed since the case started (read when blame asks; null when unreadable). */
    private Map<String, Long> counterChange() {
        try {
            final Map<String, Long> now = control.counters();
            final Map<String, Long> change = new LinkedHashMap<>();
            for (final Map.Entry<String, Long> entry : now.entrySet()) {
                change.put(entry.getKey(), entry.getValue() - countersAtStart.getOrDefault(entry.getKey(), 0L));
            }
            return change;
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** A duration in the largest unit that divides it (kept here for the checkers' messages; see {@link Timing}). */
    static String nanos(final long nanos) {
        return Timing.nanos(nanos);
    }
}

package org.metaroce.mrct.harness.engine;

import java.util.List;
import org.metaroce.mrct.harness.cases.Step;

/**
 * Runs steps: every kind of step goes to the executor of its family through {@link Step.Visitor}, so a new kind does
 * not compile until it is handled here. {@code repeat} and {@code when} are control flow and stay here: a repeat's
 * steps run once per value of its variable, a when's steps or else-steps once, each counted as a step of its own.
 */
final class StepDispatch implements Step.Visitor<Void> {
    private final Names names;
    private final Cursor cursor;
    private final FramesOut framesOut;
    private final FrameExpectations frameExpectations;
    private final ControlSteps controlSteps;
    private final StateExpectations stateExpectations;
    private final NetworkSteps networkSteps;
    private final Gated gated = new Gated();

    StepDispatch(final Names names, final Cursor cursor, final FramesOut framesOut,
                 final FrameExpectations frameExpectations, final ControlSteps controlSteps,
                 final StateExpectations stateExpectations, final NetworkSteps networkSteps) {
        this.names = names;
        this.cursor = cursor;
        this.framesOut = framesOut;
        this.frameExpectations = frameExpectations;
        this.controlSteps = controlSteps;
        this.stateExpectations = stateExpectations;
        this.networkSteps = networkSteps;
    }

    /**
     * Runs {@code steps} in order, each (but a {@code repeat} or a {@code when}, whose steps count instead) as the
     * cursor's step.
     */
    void runSteps(final List<Step> steps) {
        for (int i = 0; i < steps.size(); i++) {
            final Step step = steps.get(i);
            if (!(step instanceof Step.Repeat) && !(step instanceof Step.When)) {
                cursor.enter(step);
                gated.ran(step);
            }
            if (step instanceof Step.Advance advance) {
                frameExpectations.advance(advance, i + 1 < steps.size() && judgesState(steps.get(i + 1)));
            } else {
                run(step);
            }
        }
    }

    /**
     * Whether {@code step} judges what the device did by now (its traffic, completions, memory, counters or QP state)
     * rather than sending or waiting for frames: an {@code advance} before it lets the device's time pass for it.
     */
    static boolean judgesState(final Step step) {
        return step instanceof Step.ExpectTraffic || step instanceof Step.ExpectCompletions
            || step instanceof Step.ExpectMemory || step instanceof Step.ExpectCounters
            || step instanceof Step.ExpectQp;
    }

    /** The expectations the case's {@code when} steps left out so far. */
    Gated gated() {
        return gated;
    }

    /** Runs one step without moving the cursor (setup steps). */
    void run(final Step step) {
        step.accept(this);
    }

    // ---------------------------------------------------------------- frames out

    @Override
    public Void visit(final Step.Send step) {
        framesOut.send(step);
        return null;
    }

    @Override
    public Void visit(final Step.Message step) {
        framesOut.message(step);
        return null;
    }

    @Override
    public Void visit(final Step.Flow step) {
        framesOut.flow(step);
        return null;
    }

    // ---------------------------------------------------------------- frame expectations

    @Override
    public Void visit(final Step.Expect step) {
        frameExpectations.expect(step);
        return null;
    }

    @Override
    public Void visit(final Step.ExpectUnordered step) {
        frameExpectations.expectUnordered(step);
        return null;
    }

    @Override
    public Void visit(final Step.ExpectNone step) {
        frameExpectations.expectNone(step);
        return null;
    }

    @Override
    public Void visit(final Step.Advance step) {
        frameExpectations.advance(step, false);
        return null;
    }

    // ---------------------------------------------------------------- control plane

    @Override
    public Void visit(final Step.PostReceive step) {
        controlSteps.postReceive(step);
        return null;
    }

    @Override
    public Void visit(final Step.PostSend step) {
        controlSteps.postSend(step);
        return null;
    }

    @Override
    public Void visit(final Step.Invalidate step) {
        controlSteps.invalidate(step);
        return null;
    }

    @Override
    public Void visit(final Step.ModifyQp step) {
        controlSteps.modifyQp(step);
        return null;
    }

    @Override
    public Void visit(final Step.WriteMemory step) {
        controlSteps.writeMemory(step);
        return null;
    }

    @Override
    public Void visit(final Step.ExpectQp step) {
        controlSteps.expectQp(step);
        return null;
    }

    // ---------------------------------------------------------------- state expectations

    @Override
    public Void visit(final Step.ExpectMemory step) {
        stateExpectations.expectMemory(step);
        return null;
    }

    @Override
    public Void visit(final Step.ExpectCompletions step) {
        stateExpectations.expectCompletions(step);
        return null;
    }

    @Override
    public Void visit(final Step.ExpectCounters step) {
        stateExpectations.expectCounters(step);
        return null;
    }

    // ---------------------------------------------------------------- requester and network

    @Override
    public Void visit(final Step.Network step) {
        networkSteps.network(step);
        return null;
    }

    @Override
    public Void visit(final Step.ExpectTraffic step) {
        networkSteps.expectTraffic(step);
        return null;
    }

    @Override
    public Void visit(final Step.ExpectRate step) {
        networkSteps.expectRate(step);
        return null;
    }

    // ---------------------------------------------------------------- control flow

    @Override
    public Void visit(final Step.Repeat step) {
        final long from = names.eval(step.from());
        final long to = names.eval(step.to());
        final long by = step.by() == null ? 1 : names.eval(step.by());
        if (by == 0) {
            throw new IllegalArgumentException("repeat step 'by' is 0");
        }
        for (long v = from; by > 0 ? v <= to : v >= to; v += by) {
            names.inLoop(step.variable(), v, () -> runSteps(step.steps()));
        }
        return null;
    }

    @Override
    public Void visit(final Step.When step) {
        final List<String> missing = step.pics().stream()
            .filter(item -> names.bound(picsName(item), 0L) == 0).toList();
        final boolean holds = missing.isEmpty() && (step.condition() == null || names.eval(step.condition()) != 0);
        if (!holds) {
            gated.leftOut(step, step.steps(), !missing.isEmpty()
                ? "the profile does not claim " + String.join(", ", missing)
                : "the condition " + step.condition() + " does not hold under the profile");
        }
        runSteps(holds ? step.steps() : step.otherwise());
        return null;
    }

    /** The name under which a PICS item's claim is bound (1 claimed, 0 not): {@code pics.legacy_rocev2}. */
    static String picsName(final String item) {
        return "pics." + item.replace('-', '_');
    }
}

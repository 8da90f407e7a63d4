package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.cases.FrameTemplate;
import org.metaroce.mrct.harness.cases.Matcher;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.FieldDiff;

/**
 * The steps that wait for frames from the device: {@code expect} (the next frame, or the next matching one), {@code
 * expect} in any order, {@code expect_none} and {@code advance}; and, at the end of the case, the frames no step
 * expected. Windows are measured from the time the previous step ended.
 */
final class FrameExpectations {
    private final Names names;
    private final CaseWorld world;
    private final FramePump pump;
    private final Evidence evidence;
    private final Cursor cursor;
    private final Timing timing;
    private final boolean virtualTime;

    FrameExpectations(final Names names, final CaseWorld world, final FramePump pump, final Evidence evidence,
                      final Cursor cursor, final Timing timing, final boolean virtualTime) {
        this.names = names;
        this.world = world;
        this.pump = pump;
        this.evidence = evidence;
        this.cursor = cursor;
        this.timing = timing;
        this.virtualTime = virtualTime;
    }

    /**
     * Lets time pass; frames that arrive wait in the inbox. On a real-time adapter an advance before a step that
     * judges what the device did by then ({@code beforeJudgement}: its traffic, completions, memory, counters) is
     * widened by the run's absolute tolerance, as every window is: the device is given the same slack for what it
     * must have done by the end of it. Not by a percentage of it: an advance sized from the device's timers must stay
     * short of the next expiry by the margin {@link RealTimeTimers} keeps. An advance before a frame step is the
     * case's pacing and is kept as written, counted from the previous step's end.
     */
    void advance(final Step.Advance a, final boolean beforeJudgement) {
        final long duration = names.eval(a.duration());
        // on real time the harness reaches this step late: the time the case means to pass runs from the previous
        // step's end, as expect_none's window does (a frame the device sends at the end of an RNR wait must not fall
        // inside the advance because the harness began it late)
        // and the step ends when the case meant it to, so that a frame step after it measures the harness's lateness;
        // after a control-plane call the timeline starts again now (the call took what it took)
        final long from = cursor.intendedSendTime() == Long.MIN_VALUE ? pump.now() : cursor.lastTime();
        final long until = virtualTime ? pump.now() + duration
            : from + duration + (beforeJudgement ? timing.absoluteTolerance() : 0);
        pump.pollUntil(Math.max(until, pump.now()));
        cursor.endedAt(Math.max(cursor.lastTime(), until));
    }

    void expect(final Step.Expect e) {
        final long window = timing.window(e.within());
        final long reference = cursor.lastTime();
        final long earliest = cursor.earliestLastTime();
        final long deadline = reference + window + timing.tolerance(window);
        final Connection c = world.connectionOrNull(e.template().connection());
        while (true) {
            final FramePump.Received received = pump.next(deadline);
            if (received == null) {
                // the device's requester model first: nothing came by the deadline although its retransmission
                // timer had expired. The harness waits as long as the longest timer (rto_high_ns) could have run: a
                // retransmission that comes late is judged by the checker, which names the rule of the timer that
                // was not kept; a device that stays silent (it gave up, say) leaves the frame missing
                final StepFailure late = c == null || c.requester() == null ? null
                    : c.requester().timers(deadline + 1, -1);
                if (late != null) {
                    final long longest = names.bound("rto_high_ns", 320_000);
                    pump.pollUntil(deadline + longest + longest / 10 + 2000 + timing.tolerance(longest));
                }
                throw StepFailure.missing("no frame arrived within " + timing.effective(window) + " (expected "
                    + e.template().summary() + ")", e.template(), describe(e.template()), timing.tolerance(window));
            }
            final List<FieldDiff> diffs = matches(received, e.template(), c);
            if (diffs.isEmpty()) {
                checkTiming(e, received, earliest);
                evidence.note(received.evidence(), cursor.index(), "matched");
                pump.matchedAt(received.frame().timestampNanos());
                return;
            }
            if (!e.skipOthers()) {
                evidence.note(received.evidence(), cursor.index(), "mismatch");
                throw new StepFailure(mismatchMessage(received, diffs), received.evidence(), diffs,
                    describe(e.template()), actual(received, c));
            }
            evidence.note(received.evidence(), cursor.index(), "skipped");
        }
    }

    /**
     * An {@code after} bound: the frame came no earlier than {@code after} from {@code reference}, the earliest moment
     * the previous step may have ended ({@link Cursor#earliestLastTime()}).
     */
    private void checkTiming(final Step.Expect e, final FramePump.Received received, final long reference) {
        if (e.after() == null) {
            return;
        }
        final long after = names.eval(e.after());
        final long elapsed = received.frame().timestampNanos() - reference;
        if (elapsed < after - timing.tolerance(after)) {
            throw new StepFailure("frame #" + received.evidence() + " came after " + Timing.nanos(elapsed)
                + ", earlier than the " + Timing.nanos(after) + " expected", received.evidence(),
                List.of(new FieldDiff("time", "at least " + Timing.nanos(after), Timing.nanos(elapsed))),
                describe(e.template()), actual(received, world.connectionOrNull(e.template().connection())));
        }
    }

    void expectUnordered(final Step.ExpectUnordered e) {
        final long window = timing.window(e.within());
        final long deadline = cursor.lastTime() + window + timing.tolerance(window);
        final List<FrameTemplate> open = new ArrayList<>(e.templates());
        long latest = cursor.lastTime();
        while (!open.isEmpty()) {
            final FramePump.Received received = pump.next(deadline);
            if (received == null) {
                throw StepFailure.missing(open.size() + " of " + e.templates().size()
                    + " expected frames did not arrive within " + timing.effective(window) + ": "
                    + open.stream().map(FrameTemplate::summary).toList(), open.get(0), describe(open.get(0)),
                    timing.tolerance(window));
            }
            boolean matched = false;
            List<FieldDiff> closest = List.of();
            for (int i = 0; i < open.size(); i++) {
                final FrameTemplate template = open.get(i);
                final List<FieldDiff> diffs = matches(received, template,
                    world.connectionOrNull(template.connection()));
                if (diffs.isEmpty()) {
                    open.remove(i);
                    matched = true;
                    break;
                }
                if (closest.isEmpty() || diffs.size() < closest.size()) {
                    closest = diffs;
                }
            }
            if (!matched) {
                evidence.note(received.evidence(), cursor.index(), "mismatch");
                throw new StepFailure("frame #" + received.evidence() + " matches none of the "
                    + open.size() + " frames still expected; closest: " + closest, received.evidence(), closest,
                    describe(open.get(0)), actual(received, world.connectionOrNull(open.get(0).connection())));
            }
            evidence.note(received.evidence(), cursor.index(), "matched");
            latest = Math.max(latest, received.frame().timestampNanos());
        }
        pump.matchedAt(latest);
    }

    void expectNone(final Step.ExpectNone e) {
        final long duration = names.eval(e.duration());
        final long deadline = pump.now() + duration;
        final Connection c = e.filter() == null ? null : world.connectionOrNull(e.filter().connection());
        // On virtual time the previous step ended now. On a real-time adapter the harness reaches this step late,
        // so the window the case means starts at the previous step's time: a frame stamped after its end is allowed.
        final long windowEnd = virtualTime ? deadline : Math.min(deadline, cursor.lastTime() + duration);
        final int before = pump.waiting().size();
        pump.pollUntil(deadline);
        int index = 0;
        for (final FramePump.Received received : pump.waiting()) {
            if (index++ < before || received.frame().timestampNanos() > windowEnd) {
                continue;
            }
            if (e.filter() == null || matches(received, e.filter(), c).isEmpty()) {
                evidence.note(received.evidence(), cursor.index(), "unexpected");
                throw new StepFailure("frame #" + received.evidence() + " (" + received.kind() + ") arrived "
                    + Timing.nanos(received.frame().timestampNanos() - cursor.lastTime()) + " after the previous "
                    + "step, while none " + (e.filter() == null ? "" : "matching " + e.filter().summary() + " ")
                    + "was expected for " + Timing.nanos(duration), received.evidence(), List.of(), null,
                    evidence.dump(received.evidence()));
            }
        }
        cursor.endedAt(deadline);
    }

    /**
     * The end of the case: frames that arrived and no step consumed fail an exhaustive case; in any other case they
     * are noted.
     */
    void nothingLeftOver(final boolean exhaustive, final List<String> notes) {
        pump.pollUntil(pump.now());
        final Collection<FramePump.Received> waiting = pump.waiting();
        if (!exhaustive || waiting.isEmpty()) {
            if (!waiting.isEmpty()) {
                notes.add(waiting.size() + " frame(s) from the device were not expected by any step (not checked: the "
                    + "case is not exhaustive)");
                for (final FramePump.Received received : waiting) {
                    evidence.note(received.evidence(), -1, "left over");
                }
            }
            return;
        }
        final FramePump.Received first = waiting.iterator().next();
        for (final FramePump.Received received : waiting) {
            evidence.note(received.evidence(), -1, "unexpected");
        }
        throw new StepFailure(waiting.size() + " frame(s) from the device that no step expected, first frame #"
            + first.evidence() + " (" + first.kind() + ")", first.evidence(), List.of(), null,
            evidence.dump(first.evidence()));
    }

    private List<FieldDiff> matches(final FramePump.Received received, final FrameTemplate template,
                                    final Connection c) {
        return FrameCheck.check(received.decoded(), template, c, names.resolver(), world.addresses());
    }

    private static String mismatchMessage(final FramePump.Received received, final List<FieldDiff> diffs) {
        final StringBuilder message = new StringBuilder("frame #").append(received.evidence()).append(" (")
            .append(received.kind()).append("): ");
        for (int i = 0; i < diffs.size(); i++) {
            message.append(i == 0 ? "" : "; ").append(diffs.get(i));
        }
        return message.toString();
    }

    /** The received frame as text, its PSNs relative to {@code c}'s, as the expected frame shows them. */
    private String actual(final FramePump.Received received, final Connection c) {
        final Integer base = received.decoded().isRoce() ? FrameCheck.psnBaseFromDevice(received.decoded().opcode(), c)
            : null;
        return evidence.dump(received.evidence(), base);
    }

    private String describe(final FrameTemplate template) {
        final StringBuilder out = new StringBuilder("expected ").append(template.summary()).append('\n');
        for (final Map.Entry<String, Matcher> entry : template.fields().entrySet()) {
            out.append("  ").append(entry.getKey()).append(" = ")
                .append(entry.getValue().describe(names.resolver(), v -> FrameCheck.describe(entry.getKey(), v)))
                .append('\n');
        }
        return out.toString();
    }
}

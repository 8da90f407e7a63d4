package org.metaroce.mrct.harness.engine;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.result.BaselineCheck;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.spi.BetweenCases;
import org.metaroce.mrct.spi.DeviceTimeline;

/**
 * Runs cases against an adapter: expands parameter tables, decides applicability, runs each case, and reports to the
 * listeners case by case. One runner per run; not thread-safe.
 */
public final class Runner {
    /** One runnable unit: a case and one row of its parameter table. */
    public record Planned(CaseDef def, Map<String, Expr> row, String id) {
    }

    /**
     * Runs of one case at most, in a round, when the adapter reports its own evidence incomplete ({@link
     * org.metaroce.mrct.spi.Adapter#evidenceProblem()}), the harness's own lateness left a failed expectation
     * inconclusive ({@link HarnessLateness}), or a failure coincided with the device's own report that it could not
     * keep its timeline ({@link DeviceLateness}); after the last the round is INCONCLUSIVE.
     */
    public static final int MAX_ATTEMPTS = 3;
    /**
     * Rounds of {@link #MAX_ATTEMPTS} a case gets in {@link #run} on real time: one in its place in the run and, when
     * every attempt of that one was inconclusive, one more after the run's other cases, before it is reported
     * INCONCLUSIVE. What makes every attempt of a round late is seldom the case itself but the moment: measured over
     * UDP on 2 cores (docs/real-devices.md), ACK-002-sack-bitmap-edges (64 round trips with an 8 us window) was late
     * in all 3 attempts in 4 of 4 full runs, 0.4 s after the 75 s of QP-011-max-qp-in-rts had left the harness's JVM
     * 701 compilations to make (many of them recompiling code compiled for that case's setup), and in 2 of 2 runs of
     * a fresh JVM;
     * late 3 times in a row at one moment is not late at another. On virtual time nothing is ever late: one round.
     */
    public static final int ROUNDS = 2;
    /**
     * The most evidence and control records a case held back for its second round may have: a case that made more (a
     * scale case: QP-011's first round makes 328,197 control records) is reported after its first round, so that the
     * heap the run keeps stays small (the results held back are in memory until their second round).
     */
    public static final int HELD_RECORDS_MAX = 4_096;

    private final RunContext context;
    private final List<RunListener> listeners;
    private final Clock clock;

    public Runner(final RunContext context, final List<RunListener> listeners, final Clock clock) {
        this.context = context;
        this.listeners = List.copyOf(listeners);
        this.clock = clock;
    }

    /** Every case expanded into its rows, with their run IDs ({@code PLC-003[pmtu=256]}). */
    public static List<Planned> plan(final List<CaseDef> cases) {
        final List<Planned> out = new ArrayList<>();
        for (final CaseDef def : cases) {
            if (def.matrix().isEmpty()) {
                out.add(new Planned(def, Map.of(), def.id()));
                continue;
            }
            for (final Map<String, Expr> row : def.matrix()) {
                final StringBuilder id = new StringBuilder(def.id()).append('[');
                int i = 0;
                for (final Map.Entry<String, Expr> entry : row.entrySet()) {
                    id.append(i++ == 0 ? "" : ",").append(entry.getKey()).append('=').append(entry.getValue());
                }
                out.add(new Planned(def, new LinkedHashMap<>(row), id.append(']').toString()));
            }
        }
        return out;
    }

    /**
     * Runs one planned case (one round of at most {@link #MAX_ATTEMPTS}) and returns its result (without notifying
     * listeners).
     */
    public CaseResult runOne(final Planned planned) {
        return round(planned, 1, MAX_ATTEMPTS, new ArrayList<>()).result();
    }

    /**
     * A round's result, and whether every attempt of it was inconclusive for a reason of the moment (the harness or
     * the device late, the adapter's evidence incomplete), so that another round later may judge the device.
     */
    private record Round(CaseResult result, boolean inconclusive, List<String> problems) {
    }

    /** A case held back after an inconclusive first round, at {@code index} in the plan. */
    private record Held(int index, Round round) {
    }

    /**
     * Attempts {@code first} to {@code last} of one case; {@code problems} holds the notes of the attempts before
     * {@code first} (another round's), and gains this round's.
     */
    private Round round(final Planned planned, final int first, final int last, final List<String> problems) {
        final String notApplicable = Applicability.reason(planned.def(), context.profile(),
            context.adapter().capabilities(), context.spec(), context.peers() != null);
        if (notApplicable != null) {
            final CaseDef def = planned.def();
            return new Round(new CaseResult(planned.id(), def.id(), def.title(), def.area(), def.rules(), Level.MUST,
                def.role(), def.file(), Map.of(), Verdict.NOT_APPLICABLE, notApplicable, null, 0, 0, 0, List.of(),
                List.of(), Map.of()), false, problems);
        }
        for (int attempt = first; ; attempt++) {
            final CaseRun run = new CaseRun(context, planned.def(), planned.row(), planned.id());
            final CaseResult result = run.execute();
            final String problem = result.verdict() == Verdict.ERROR ? null : context.adapter().evidenceProblem();
            final boolean judged = problem == null && !run.harnessWasLate() && failed(result);
            final DeviceTimeline timeline = judged ? context.adapter().deviceTimeline() : null;
            // the slack both ends' lateness may use up: the run's tolerance, or the larger one the window of a frame
            // that did not come had (a device 1 ms late cannot explain an answer missing from a 20 ms window)
            final long slack = Math.max(context.toleranceNs(), run.failedWindowToleranceNanos());
            final String deviceLate = judged ? DeviceLateness.problem(timeline, slack, run.harnessLatenessNanos())
                : null;
            if (problem == null && !run.harnessWasLate() && deviceLate == null) {
                if (timeline != null) {
                    // a failure that stands: what both ends measured of their own lateness goes with it, for whoever
                    // looks at a real-time failure next (issue 10: several were charged to the device with neither
                    // end beyond the tolerance, and the kept reports did not say by how much each was late)
                    problems.add(DeviceLateness.within(timeline, slack, run.harnessLatenessNanos()));
                }
                return new Round(attempt == 1 && problems.isEmpty() ? result
                    : result.retried(attempt, result.verdict(), result.reason(), problems), false, problems);
            }
            final String which = "attempt " + attempt + " of " + last + ": ";
            if (problem != null) {
                problems.add(which + "incomplete evidence: " + problem);
            } else if (deviceLate != null) {
                problems.add(which + deviceLate + "; it was " + result.verdict() + ": " + result.reason());
            } else {
                problems.add(which + result.reason());
            }
            if (attempt == last) {
                final String every = "in every one of " + last + " attempts" + (first > 1
                    ? " (" + (first - 1) + " in the case's place in the run, " + (last - first + 1)
                    + " after the run's other cases)" : "");
                final CaseResult inconclusive;
                if (deviceLate != null) {
                    inconclusive = result.retried(attempt, Verdict.INCONCLUSIVE, every + " the case failed while "
                        + deviceLate + ", so the failure says nothing certain about the device (it would have been "
                        + result.verdict() + ": " + result.reason() + ")", problems);
                } else if (problem == null) {
                    // INCONCLUSIVE already, with the lateness and what it may have caused in the reason
                    inconclusive = result.retried(attempt, Verdict.INCONCLUSIVE, every + " " + result.reason(),
                        problems);
                } else {
                    inconclusive = result.retried(attempt, Verdict.INCONCLUSIVE, "the harness's own evidence was "
                        + "incomplete " + every + " (" + problem + "); the case says nothing about the device (it "
                        + "would have been " + result.verdict() + ": " + result.reason() + ")", problems);
                }
                return new Round(inconclusive, true, problems);
            }
        }
    }

    /** Whether an expectation failed (FAIL, or WARN for a SHOULD): the verdicts a late device may have caused. */
    private static boolean failed(final CaseResult result) {
        return result.verdict() == Verdict.FAIL || result.verdict() == Verdict.WARN;
    }

    /**
     * Runs every planned case in order. {@code stopWhen} is asked after each result whether to stop (fail-fast); the
     * summary then says the run is incomplete. {@code baseline} compares the results with known failures (may be
     * null). On real time a case whose round was inconclusive is held back and run again after the other cases
     * ({@link #ROUNDS}, at most {@link #HELD_RECORDS_MAX} records of it held); every other result is reported at once and
     * not kept once the listeners have had it: the summary is counted case by case.
     */
    public RunSummary run(final RunInfo info, final List<Planned> plan, final Function<CaseResult, Boolean> stopWhen,
                          final BaselineCheck baseline) {
        for (final RunListener listener : listeners) {
            listener.runStarted(info);
        }
        final Summaries.Tally tally = new Summaries.Tally(baseline, context.strict());
        final boolean realTime = !context.adapter().capabilities()
            .contains(org.metaroce.mrct.spi.Capability.VIRTUAL_TIME);
        final BetweenCases between = BetweenCases.forThisJvm(realTime);
        // cases whose first round was inconclusive, with their place in the plan: reported after their second round
        final List<Held> later = new ArrayList<>();
        boolean complete = true;
        for (int i = 0; i < plan.size(); i++) {
            final Planned planned = plan.get(i);
            for (final RunListener listener : listeners) {
                listener.caseStarted(planned.id(), i, plan.size());
            }
            between.beforeCase();
            final Round round = round(planned, 1, MAX_ATTEMPTS, new ArrayList<>());
            final boolean stop = stopWhen != null && stopWhen.apply(round.result()) && i < plan.size() - 1;
            if (realTime && ROUNDS > 1 && round.inconclusive() && !stop
                && round.result().evidence().size() + round.result().control().size() <= HELD_RECORDS_MAX) {
                later.add(new Held(i, round));
                continue;
            }
            report(round.result(), tally);
            if (stop) {
                complete = false;
                break;
            }
        }
        for (final Held held : later) {
            final Planned planned = plan.get(held.index());
            final Round round = held.round();
            if (!complete || stopWhen != null && stopWhen.apply(round.result())) {
                // the run stops: what the first round found, without another
                complete = false;
                report(round.result(), tally);
                continue;
            }
            for (final RunListener listener : listeners) {
                listener.caseStarted(planned.id(), held.index(), plan.size());
            }
            between.beforeCase();
            report(round(planned, MAX_ATTEMPTS + 1, ROUNDS * MAX_ATTEMPTS, round.problems()).result(), tally);
        }
        final RunSummary summary = tally.summary(context.spec(), context.profile(), complete, clock.instant());
        for (final RunListener listener : listeners) {
            listener.runFinished(info, summary);
        }
        return summary;
    }

    private void report(final CaseResult result, final Summaries.Tally tally) {
        tally.add(result);
        for (final RunListener listener : listeners) {
            listener.caseFinished(result);
        }
    }
}

package org.metaroce.mrct.reports.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reports.CauseGroups;

/**
 * A run as the writers see it: its metadata, what they need of the cases done so far and, once it has finished, its
 * summary. Until {@code runFinished} the overall verdict is {@link Overall#INCOMPLETE} and the counts and rule matrix
 * are those of the cases done; afterwards they are the harness's.
 *
 * <p>Bounded whatever the run's size (an analysis of a long capture makes hundreds of thousands of cases; the writers
 * keep the cases themselves in their spill files): counts per verdict, the first {@link #FAILING_KEPT} failing cases
 * and the number of the others, the failures grouped by root cause ({@link CauseGroups}, at most
 * {@link CauseGroups#MAX_GROUPS} groups), the rule matrix of the run in progress built case by case
 * ({@link RuleMatrix}, at most {@link RuleMatrix#LISTED} case IDs per list of a row), the case added last, and the
 * evidence frame numbers of the last {@link #FRAMES_KEPT} cases. A passing case leaves nothing behind.
 */
public final class RunState {
    /** Failing (FAIL or ERROR) cases kept, the first ones in run order: {@code summary.md} lists this many. */
    public static final int FAILING_KEPT = 15;
    /** Cases, the last ones, whose frame numbers in {@code evidence.pcapng} {@link #pcapngFrame} still tells. */
    public static final int FRAMES_KEPT = 1_024;

    private final Specification spec;
    private RunInfo info;
    private RunSummary summary;
    private int done;
    private final int[] counts = new int[Verdict.values().length];
    private final List<CaseEntry> failing = new ArrayList<>();
    private int failingCount;
    private final CauseGroups causes = new CauseGroups();
    private RuleMatrix matrix;
    private CaseEntry last;
    private boolean evidence;
    private long evidencePackets;
    /** The evidence bases of the last {@link #FRAMES_KEPT} cases, by ID. */
    private final Map<String, Long> bases = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, Long> eldest) {
            return size() > FRAMES_KEPT;
        }
    };

    public RunState(final Specification spec) {
        this.spec = spec;
    }

    /** {@code runStarted}. */
    public void start(final RunInfo runInfo) {
        this.info = runInfo;
        this.summary = null;
        this.done = 0;
        java.util.Arrays.fill(counts, 0);
        this.failing.clear();
        this.failingCount = 0;
        this.causes.clear();
        this.matrix = new RuleMatrix(spec, new LinkedHashSet<>(runInfo.pics()), RuleMatrix.LISTED);
        this.last = null;
        this.evidence = false;
        this.evidencePackets = 0;
        this.bases.clear();
    }

    /** The evidence writer takes part in this run: cases get their frame numbers in {@code evidence.pcapng}. */
    public void evidenceOpened() {
        evidence = true;
    }

    /**
     * The evidence writer appended {@code packets} packets (frames, control records and their parts): the next case's
     * frames follow them.
     */
    public void evidenceAppended(final long packets) {
        evidencePackets += packets;
    }

    /** {@code caseFinished}: counts the case and keeps what the writers need of it. */
    public CaseEntry add(final CaseResult result) {
        if (info == null) {
            throw new IllegalStateException("caseFinished(" + result.id() + ") before runStarted");
        }
        if (summary != null) {
            throw new IllegalStateException("caseFinished(" + result.id() + ") after runFinished");
        }
        // the evidence writer appends after every case, so every earlier case is in the file by now
        final CaseEntry entry = CaseEntry.of(result, evidence ? evidencePackets : -1);
        done++;
        counts[entry.verdict().ordinal()]++;
        if (entry.verdict() == Verdict.FAIL || entry.verdict() == Verdict.ERROR) {
            failingCount++;
            if (failing.size() < FAILING_KEPT) {
                failing.add(entry);
            }
        }
        causes.add(entry.id(), entry.verdict(), entry.failure());
        matrix.add(entry);
        last = entry;
        bases.put(entry.id(), entry.pcapngBase());
        return entry;
    }

    /**
     * The number in evidence.pcapng of frame {@code index} of the finished case {@code caseId}, or -1
     * ({@link org.metaroce.mrct.reports.ReportListener#pcapngFrame}): known for the last {@link #FRAMES_KEPT} cases
     * that finished.
     */
    public long pcapngFrame(final String caseId, final int index) {
        final Long base = bases.get(caseId);
        return base == null ? -1 : Numbering.pcapngFrame(base, index);
    }

    /** The entry of the case added last (the one the writers' {@code caseAdded} is about). */
    public CaseEntry last() {
        if (last == null) {
            throw new IllegalStateException("no case was added");
        }
        return last;
    }

    /** {@code runFinished}. */
    public void finish(final RunInfo runInfo, final RunSummary runSummary) {
        if (runInfo != null) {
            this.info = runInfo;
        }
        if (info == null) {
            throw new IllegalStateException("runFinished before runStarted");
        }
        this.summary = runSummary;
    }

    /** True once {@code runStarted} was seen. */
    public boolean started() {
        return info != null;
    }

    public RunInfo info() {
        return info;
    }

    /** The specification, or null when the writers were opened without one. */
    public Specification spec() {
        return spec;
    }

    /** The first {@link #FAILING_KEPT} cases that failed (FAIL or ERROR), in run order. */
    public List<CaseEntry> failing() {
        return Collections.unmodifiableList(failing);
    }

    /** The number of cases that failed (FAIL or ERROR) so far, listed by {@link #failing()} or not. */
    public int failingCount() {
        return failingCount;
    }

    /** The failures (FAIL, WARN) of the cases done so far, grouped by root cause. */
    public CauseGroups causes() {
        return causes;
    }

    /** The number of cases done so far. */
    public int done() {
        return done;
    }

    /** True once {@code runFinished} was seen. */
    public boolean finished() {
        return summary != null;
    }

    /** True only when the run finished and ran every case. */
    public boolean complete() {
        return summary != null && summary.complete();
    }

    /** CONFORMANT, NON_CONFORMANT or ERROR once finished, else {@link Overall#INCOMPLETE}. */
    public Overall overall() {
        return summary != null ? summary.overall() : Overall.INCOMPLETE;
    }

    /** The reason behind the overall verdict; says how far a run in progress has got. */
    public String reason() {
        if (summary != null) {
            return summary.reason();
        }
        return "the run has not finished: " + done + " of " + info.caseCount() + " cases done so far";
    }

    /** When the run ended, or null. */
    public Instant end() {
        return summary != null ? summary.end() : null;
    }

    /** Cases per verdict, every verdict present, in verdict order. */
    public Map<Verdict, Integer> counts() {
        final Map<Verdict, Integer> out = new EnumMap<>(Verdict.class);
        for (final Verdict verdict : Verdict.values()) {
            out.put(verdict, counts[verdict.ordinal()]);
        }
        if (summary != null) {
            for (final Verdict verdict : Verdict.values()) {
                out.put(verdict, 0);
            }
            out.putAll(summary.counts());
        }
        return out;
    }

    /**
     * The rule matrix: the harness's once finished, else the one of the cases done (listing at most
     * {@link RuleMatrix#LISTED} cases per row, counting the others).
     */
    public List<RuleVerdict> rules() {
        if (summary != null) {
            return summary.rules();
        }
        return matrix.rows();
    }

    /** The baseline comparison, or null (there is none before the run finishes). */
    public BaselineComparison baseline() {
        return summary != null ? summary.baseline() : null;
    }
}

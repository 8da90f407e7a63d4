package org.metaroce.mrct.reports.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * A run as the writers see it: its metadata, the cases done so far and, once it has finished, its summary. Until
 * {@code runFinished} the overall verdict is {@link Overall#INCOMPLETE} and the counts and rule matrix are computed
 * from the cases done; afterwards they are the harness's.
 */
public final class RunState {

    private final Specification spec;
    private final List<CaseEntry> cases = new ArrayList<>();
    private RunInfo info;
    private RunSummary summary;
    private List<RuleVerdict> matrix;
    private int matrixCases = -1;
    private boolean evidence;
    private long evidencePackets;
    private final Map<String, Long> bases = new java.util.HashMap<>();

    public RunState(final Specification spec) {
        this.spec = spec;
    }

    /** {@code runStarted}. */
    public void start(final RunInfo runInfo) {
        this.info = runInfo;
        this.summary = null;
        this.cases.clear();
        this.matrix = null;
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

    /** {@code caseFinished}: records the case. */
    public CaseEntry add(final CaseResult result) {
        if (info == null) {
            throw new IllegalStateException("caseFinished(" + result.id() + ") before runStarted");
        }
        if (summary != null) {
            throw new IllegalStateException("caseFinished(" + result.id() + ") after runFinished");
        }
        // the evidence writer appends after every case, so every earlier case is in the file by now
        final CaseEntry entry = CaseEntry.of(result, evidence ? evidencePackets : -1);
        cases.add(entry);
        bases.put(entry.id(), entry.pcapngBase());
        return entry;
    }

    /**
     * The number in evidence.pcapng of frame {@code index} of the finished case {@code caseId}, or -1
     * ({@link org.metaroce.mrct.reports.ReportListener#pcapngFrame}).
     */
    public long pcapngFrame(final String caseId, final int index) {
        final Long base = bases.get(caseId);
        return base == null ? -1 : Numbering.pcapngFrame(base, index);
    }

    /** The entry of the case added last (the one the writers' {@code caseAdded} is about). */
    public CaseEntry last() {
        return cases.get(cases.size() - 1);
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

    /** Cases done so far, in run order. */
    public List<CaseEntry> cases() {
        return Collections.unmodifiableList(cases);
    }

    /** The number of cases done so far. */
    public int done() {
        return cases.size();
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
        return "the run has not finished: " + cases.size() + " of " + info.caseCount() + " cases done so far";
    }

    /** When the run ended, or null. */
    public Instant end() {
        return summary != null ? summary.end() : null;
    }

    /** Cases per verdict, every verdict present, in verdict order. */
    public Map<Verdict, Integer> counts() {
        final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        for (final Verdict verdict : Verdict.values()) {
            counts.put(verdict, 0);
        }
        if (summary != null) {
            counts.putAll(summary.counts());
        } else {
            for (final CaseEntry entry : cases) {
                counts.merge(entry.verdict(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** The rule matrix: the harness's once finished, else computed from the cases done. */
    public List<RuleVerdict> rules() {
        if (summary != null) {
            return summary.rules();
        }
        // every writer asks after every case: computed once per case added, not once per writer
        if (matrix == null || matrixCases != cases.size()) {
            matrix = RuleMatrix.of(cases, spec, new LinkedHashSet<>(info.pics()));
            matrixCases = cases.size();
        }
        return matrix;
    }

    /** The baseline comparison, or null (there is none before the run finishes). */
    public BaselineComparison baseline() {
        return summary != null ? summary.baseline() : null;
    }
}

package org.metaroce.mrct.reports.internal;

import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.reports.EvidencePolicy;

/**
 * The frames and control-plane records of a case that {@code report.json} and {@code report.html} carry: those around
 * the failure, so that one case of hundreds of thousands of frames does not make the documents (rewritten after every
 * case) hundreds of megabytes; {@code evidence.pcapng} has every one, and the documents name the range there.
 *
 * <p>The window is anchored on the offending frame; when there is none (a frame that never came), on the last frame of
 * the failed step or an earlier one; otherwise (no failure, or one tied to no step) on the case's last frame, where it
 * stopped. It holds up to {@link #BEFORE} frames before the anchor and {@link #AFTER} after it. The control records
 * kept are those made while the window's frames were exchanged ({@code framesBefore} within it, calls at unknown
 * points when it starts at the first frame), at most {@link #CONTROL_MAX}, the ones nearest the anchor.
 *
 * @param first index of the first frame kept (0 when none)
 * @param last index of the last frame kept (-1 when none)
 * @param frames the frames kept, {@code first..last}
 * @param control the control records kept, in order
 */
public record EvidenceWindow(int first, int last, List<FrameRecord> frames, List<ControlRecord> control) {
    /** Frames kept before the anchor. */
    public static final int BEFORE = 32;
    /** Frames kept after the anchor. */
    public static final int AFTER = 16;
    /** Control records kept at most. */
    public static final int CONTROL_MAX = 64;
    /** Frames kept before and after the anchor once a document has spent its budget ({@link #of}). */
    public static final int NARROW = 2;
    /** Control records kept at most once a document has spent its budget. */
    public static final int NARROW_CONTROL_MAX = 8;

    public EvidenceWindow {
        frames = List.copyOf(frames);
        control = List.copyOf(control);
    }

    /**
     * What the documents carry of {@code result} under {@code policy}: nothing when it does not keep the case's frames,
     * everything under {@link EvidencePolicy#ALL}, else the window {@link #around} the failure.
     */
    public static EvidenceWindow of(final EvidencePolicy policy, final CaseResult result) {
        return of(policy, result, false);
    }

    /**
     * As {@link #of(EvidencePolicy, CaseResult)}; when {@code spent} (the document already carries its budget of
     * earlier cases), the window shrinks to {@link #NARROW} frames either side and {@link #NARROW_CONTROL_MAX} records,
     * so that a run where hundreds of large cases fail still gives a document one can open.
     */
    public static EvidenceWindow of(final EvidencePolicy policy, final CaseResult result, final boolean spent) {
        if (!policy.keeps(result)) {
            return none();
        }
        if (policy == EvidencePolicy.ALL) {
            return all(result);
        }
        return spent ? around(result, NARROW, NARROW, NARROW_CONTROL_MAX) : around(result);
    }

    /** Every frame and record of {@code result}. */
    public static EvidenceWindow all(final CaseResult result) {
        return new EvidenceWindow(0, result.evidence().size() - 1, result.evidence(), result.control());
    }

    /** Nothing of {@code result} (a case whose frames the documents leave to evidence.pcapng). */
    public static EvidenceWindow none() {
        return new EvidenceWindow(0, -1, List.of(), List.of());
    }

    /** The frames and records of {@code result} around its failure. */
    public static EvidenceWindow around(final CaseResult result) {
        return around(result, BEFORE, AFTER, CONTROL_MAX);
    }

    /** The frames and records of {@code result} around its failure, with these bounds. */
    static EvidenceWindow around(final CaseResult result, final int before, final int after, final int controlMax) {
        final List<FrameRecord> evidence = result.evidence();
        final int anchor = anchor(result);
        final int first = Math.max(0, anchor - before);
        final int last = Math.min(evidence.size() - 1, anchor + after);
        final List<ControlRecord> records = result.control();
        if (first == 0 && last == evidence.size() - 1 && records.size() <= controlMax) {
            return all(result);
        }
        final List<ControlRecord> inside = new ArrayList<>();
        for (final ControlRecord record : records) {
            final long at = record.framesBefore();
            if (at < 0 ? first == 0 : at >= first && at <= last + 1) {
                inside.add(record);
            }
        }
        return new EvidenceWindow(first, last, evidence.subList(first, last + 1), nearest(inside, anchor, controlMax));
    }

    /** True when frames or records were left out. */
    public boolean cut(final CaseResult result) {
        return frames.size() < result.evidence().size() || control.size() < result.control().size();
    }

    /** The frame the window is centred on: the offending one, the failed step's last, or the case's last. */
    static int anchor(final CaseResult result) {
        final List<FrameRecord> evidence = result.evidence();
        final Failure failure = result.failure();
        if (failure != null && failure.frame() >= 0 && failure.frame() < evidence.size()) {
            return failure.frame();
        }
        if (failure != null && failure.step() >= 0) {
            int at = -1;
            for (int i = 0; i < evidence.size(); i++) {
                final int step = evidence.get(i).step();
                if (step >= 0 && step <= failure.step()) {
                    at = i;
                }
            }
            if (at >= 0) {
                return at;
            }
        }
        return evidence.size() - 1;
    }

    /** At most {@code max} of {@code records}, those whose {@code framesBefore} is nearest {@code anchor}. */
    private static List<ControlRecord> nearest(final List<ControlRecord> records, final int anchor, final int max) {
        if (records.size() <= max) {
            return records;
        }
        // records are in call order, so framesBefore never decreases: slide a window of max records along them and
        // keep the one whose middle is nearest the anchor (the first such, for determinism)
        int best = 0;
        long bestDistance = Long.MAX_VALUE;
        for (int start = 0; start + max <= records.size(); start++) {
            final long middle = records.get(start + max / 2).framesBefore();
            final long distance = Math.abs(middle - anchor);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = start;
            }
        }
        return records.subList(best, best + max);
    }
}

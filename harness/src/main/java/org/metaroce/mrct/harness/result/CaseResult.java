package org.metaroce.mrct.harness.result;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/**
 * The outcome of one case (one row of its parameter table).
 *
 * @param id the case ID, with the parameter row appended for table cases ({@code PLC-003[pmtu=256]})
 * @param caseId the case ID as written in its file
 * @param title one line
 * @param area the area of the case (the folder under {@code spec-cases/})
 * @param rules the rules it covers
 * @param level the strongest level among those rules (null for a result read back without one)
 * @param role {@link Role#RESPONDER} or {@link Role#REQUESTER} (null for a result read back without one)
 * @param file the case file, relative to its case directory
 * @param parameters the parameter row this run used (empty for plain cases)
 * @param verdict the verdict
 * @param reason why (one sentence); for PASS a short summary
 * @param failure details of a FAIL or WARN, else null
 * @param wallNanos wall-clock duration
 * @param deviceNanos duration on the adapter's clock
 * @param attempts runs of the case (more than one when its own evidence was incomplete and it was rerun)
 * @param evidence every frame exchanged, in order
 * @param notes further observations (left-over frames ignored, retries, warnings of the harness)
 * @param series named time series for plots (congestion cases: rate over time); may be empty
 * @param control every control-plane call the case made, with its outcome, in order
 * @param notChecked the expectations that did not run because a {@code when} step around them did not hold under the
 *     profile, with the reason (empty: every expectation of the case ran)
 */
public record CaseResult(String id, String caseId, String title, String area, List<String> rules, Level level,
                         Role role, String file, Map<String, Object> parameters, Verdict verdict, String reason,
                         Failure failure, long wallNanos, long deviceNanos, int attempts, List<FrameRecord> evidence,
                         List<String> notes, Map<String, List<double[]>> series, List<ControlRecord> control,
                         List<NotChecked> notChecked) {
    public CaseResult {
        rules = List.copyOf(rules);
        parameters = Map.copyOf(parameters);
        // FrameRecords is unmodifiable already, and copying it would describe every frame at once
        evidence = evidence instanceof FrameRecords ? evidence : List.copyOf(evidence);
        notes = List.copyOf(notes);
        series = Map.copyOf(series);
        control = List.copyOf(control);
        notChecked = List.copyOf(notChecked);
    }

    /** A result whose expectations all ran (or that has none gated by a {@code when}). */
    public CaseResult(final String id, final String caseId, final String title, final String area,
                      final List<String> rules, final Level level, final Role role, final String file,
                      final Map<String, Object> parameters, final Verdict verdict, final String reason,
                      final Failure failure, final long wallNanos, final long deviceNanos, final int attempts,
                      final List<FrameRecord> evidence, final List<String> notes,
                      final Map<String, List<double[]>> series, final List<ControlRecord> control) {
        this(id, caseId, title, area, rules, level, role, file, parameters, verdict, reason, failure, wallNanos,
            deviceNanos, attempts, evidence, notes, series, control, List.of());
    }

    /** A result without control-plane records (cases that made no control call, synthetic results). */
    public CaseResult(final String id, final String caseId, final String title, final String area,
                      final List<String> rules, final Level level, final Role role, final String file,
                      final Map<String, Object> parameters, final Verdict verdict, final String reason,
                      final Failure failure, final long wallNanos, final long deviceNanos, final int attempts,
                      final List<FrameRecord> evidence, final List<String> notes,
                      final Map<String, List<double[]>> series) {
        this(id, caseId, title, area, rules, level, role, file, parameters, verdict, reason, failure, wallNanos,
            deviceNanos, attempts, evidence, notes, series, List.of());
    }

    /**
     * This result after {@code attempts} runs of the case, with {@code verdict} and {@code reason} (INCONCLUSIVE when
     * the evidence stayed incomplete) and {@code extraNotes} appended to the notes; everything else is kept.
     */
    public CaseResult retried(final int attempts, final Verdict verdict, final String reason,
                              final List<String> extraNotes) {
        final java.util.ArrayList<String> allNotes = new java.util.ArrayList<>(notes);
        allNotes.addAll(extraNotes);
        return new CaseResult(id, caseId, title, area, rules, level, role, file, parameters, verdict, reason,
            verdict == this.verdict ? failure : null, wallNanos, deviceNanos, attempts, evidence, allNotes, series,
            control, notChecked);
    }
}

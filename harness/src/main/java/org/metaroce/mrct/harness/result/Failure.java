package org.metaroce.mrct.harness.result;

import java.util.List;

/**
 * Where and how a case failed.
 *
 * @param rule the rule the failed step checks ({@code MR-ORD-004})
 * @param step 0-based index of the failed step, -1 when the failure is not tied to one (left-over frames)
 * @param stepDescription the step as written, one line
 * @param stepLine line of the step in the case file, 0 when unknown
 * @param frame index of the offending frame in the evidence, -1 when there is none (nothing arrived)
 * @param diffs the fields that did not match
 * @param expectedFrame the expected frame as text (the template), or null
 * @param actualFrame the actual frame as text (decoded dump), or null
 * @param message one sentence a firmware engineer can act on
 * @param field the field whose value broke {@code rule} (a frame field, counter or completion field); empty when a frame
 *     is missing or unexpected as a whole
 * @param cause the failure's shape in a few words, free of values that vary from case to case; failures with the same
 *     rule, field and cause share a root cause
 * @param basis what blaming {@code rule} rests on ("from the rule governing the field", ...); empty when not blamed
 */
public record Failure(String rule, int step, String stepDescription, int stepLine, int frame, List<FieldDiff> diffs,
                      String expectedFrame, String actualFrame, String message, String field, String cause,
                      String basis) {
    public Failure {
        diffs = List.copyOf(diffs);
        field = field == null ? "" : field;
        cause = cause == null ? "" : cause;
        basis = basis == null ? "" : basis;
    }

    /** A failure whose rule was not blamed by the harness (named by the analyzer's check, say). */
    public Failure(final String rule, final int step, final String stepDescription, final int stepLine,
                   final int frame, final List<FieldDiff> diffs, final String expectedFrame, final String actualFrame,
                   final String message) {
        this(rule, step, stepDescription, stepLine, frame, diffs, expectedFrame, actualFrame, message, "", "", "");
    }

    /** The root-cause key failures are grouped by: rule, field and cause. */
    public String rootCause() {
        return rule + (field.isEmpty() ? "" : " " + field) + (cause.isEmpty() ? "" : ": " + cause);
    }
}

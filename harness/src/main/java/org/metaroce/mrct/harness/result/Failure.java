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
 */
public record Failure(String rule, int step, String stepDescription, int stepLine, int frame, List<FieldDiff> diffs,
                      String expectedFrame, String actualFrame, String message) {
    public Failure {
        diffs = List.copyOf(diffs);
    }
}

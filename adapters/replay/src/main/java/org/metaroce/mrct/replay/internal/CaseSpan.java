package org.metaroce.mrct.replay.internal;

/**
 * Where one case's packets lie in a recording: consecutive packet records, all commented with its ID.
 *
 * @param id the case ID with its parameter row
 * @param first the 1-based record number of its first packet
 * @param count how many packet records it has
 * @param verdict the verdict the recorded run gave it (from the comments)
 * @param problem null, or why the case cannot be answered whatever its packets hold (cut short by damage, recorded
 *     twice)
 */
public record CaseSpan(String id, long first, long count, String verdict, String problem) {
    CaseSpan withProblem(final String why) {
        return new CaseSpan(id, first, count, verdict, problem == null ? why : problem);
    }

    CaseSpan plusOne() {
        return new CaseSpan(id, first, count + 1, verdict, problem);
    }
}

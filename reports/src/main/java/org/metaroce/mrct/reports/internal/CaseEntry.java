package org.metaroce.mrct.reports.internal;

import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/**
 * What the writers keep of a finished case besides their own pre-rendered fragments: enough for counts, the rule
 * matrix and the summary, without the evidence (which can be large).
 *
 * @param id the case ID with its parameter row
 * @param area the area
 * @param rules the rules it covers
 * @param level the strongest level of those rules
 * @param role the device's role in it
 * @param verdict the verdict
 * @param reason why
 * @param failure the failure details, or null
 * @param pcapngBase packets {@code evidence.pcapng} held before this case's first frame (its frame {@code i} is then
 *     packet {@code pcapngBase + i + 1}, as Wireshark numbers them), or -1 when no evidence file is written
 */
public record CaseEntry(String id, String area, List<String> rules, Level level, Role role, Verdict verdict,
                        String reason, Failure failure, long pcapngBase) {
    public CaseEntry {
        rules = List.copyOf(rules);
    }

    /** The light entry of {@code result}, without evidence numbers. */
    public static CaseEntry of(final CaseResult result) {
        return of(result, -1);
    }

    /** The light entry of {@code result}, whose frames follow {@code pcapngBase} packets of evidence.pcapng. */
    public static CaseEntry of(final CaseResult result, final long pcapngBase) {
        return new CaseEntry(result.id(), result.area(), result.rules(), result.level(), result.role(),
            result.verdict(), result.reason(), result.failure(), pcapngBase);
    }

    /** The pcapng frame number of the case's frame {@code index} (see {@link Numbering#pcapngFrame}), or -1. */
    public long pcapngFrame(final int index) {
        return Numbering.pcapngFrame(pcapngBase, index);
    }

    /** The rule a failure names, else the first rule covered, else empty. */
    public String mainRule() {
        if (failure != null && failure.rule() != null && !failure.rule().isBlank()) {
            return failure.rule();
        }
        return rules.isEmpty() ? "" : rules.get(0);
    }
}

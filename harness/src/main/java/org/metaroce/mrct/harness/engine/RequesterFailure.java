package org.metaroce.mrct.harness.engine;

import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.RequesterGoBack;

/** How the live requester checker's findings read as the case's failure: the frame, the rule it breaks, and why. */
final class RequesterFailure {
    private RequesterFailure() {
    }

    /** A go-back-N violation (the oracle's) as the case's failure, or null. */
    static StepFailure goBack(final RequesterGoBack.Violation v, final int evidence) {
        if (v == null) {
            return null;
        }
        final Finding f = v.finding();
        return failure(f.rule(), evidence, switch (v.kind()) {
            case NEW_BEFORE_RESENT, SKIPPED_AFTER_NAK -> "PSN " + v.psn() + " is sent before PSN " + v.owed()
                + " was sent again, after the NAK 0x60 for PSN " + v.nakPsn() + (v.nakFrame() >= 0 ? " (frame #"
                + v.nakFrame() + ")" : "") + " asked for every PSN up to " + (v.nakUpTo() - 1);
            case SKIPPED_IN_ROUND -> "PSN " + v.psn() + " is sent again before in-flight PSN " + v.owed()
                + ": a timeout sends again every in-flight PSN from una, in order";
            case NOT_FROM_UNA -> "PSN " + v.psn() + " is sent again with no NAK 0x60 asking for it, and it is not una";
            case EARLY -> "PSN " + v.psn() + " is sent again, with no NAK 0x60 asking for it, sooner than a timeout";
        }, new FieldDiff(f.field(), f.expected(), f.actual()));
    }

    static StepFailure failure(final String rule, final int evidence, final String message,
                                       final FieldDiff diff) {
        return failure(rule, evidence, message, List.of(diff));
    }

    static StepFailure failure(final String rule, final int evidence, final String message,
                                       final List<FieldDiff> diffs) {
        return StepFailure.breaking(rule, (evidence >= 0 ? "frame #" + evidence : "the device") + " breaks " + rule
            + ": " + message, evidence, diffs);
    }
}

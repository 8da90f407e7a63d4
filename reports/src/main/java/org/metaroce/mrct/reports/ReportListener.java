package org.metaroce.mrct.reports;

import org.metaroce.mrct.harness.result.RunListener;

/**
 * The listener {@link Reports#open} returns: it writes the reports, and tells where a finished case's frames are in
 * {@code evidence.pcapng}, so that what is printed beside the reports (a terminal's FAIL line) names a frame by the
 * same number as the reports do.
 */
public interface ReportListener extends RunListener {
    /**
     * The number Wireshark shows (from 1, {@code frame.number}) for frame {@code index} (0-based in the case's
     * evidence, as {@code Failure.frame()}) of case {@code caseId} (with its parameter row) in {@code evidence.pcapng};
     * -1 when it is not known: no evidence file is written, the case has not finished, or {@code index} is negative.
     */
    long pcapngFrame(String caseId, int index);
}

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
     * -1 when it is not known: no evidence file is written, the case has not finished, it is not among the last 1,024
     * cases that finished (the numbers of older ones are not kept, so that a run of any size keeps a bounded heap: ask
     * as the case finishes, as a terminal's FAIL line does), or {@code index} is negative.
     */
    long pcapngFrame(String caseId, int index);
}

package org.metaroce.mrct.harness.engine;

import static org.metaroce.mrct.harness.engine.RequesterFailure.failure;

import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;

/** The send-queue completions a requester case polled, matched to the posted WQEs in order (MR-CMP-012). */
final class AckedCompletions {
    /** The posted WQEs before this index were matched to completions already. */
    private int completedUpTo;

    /**
     * MR-CMP-012 on a completion the device gave: a SEND or RDMA WRITE WQE completes with SUCCESS only once an
     * acknowledgement whose cumulative point is after the message's last PSN was taken (or, under MR-CMP-015, a
     * response to a later request). Completions are matched to the posted WQEs in posting order by wr_id and
     * operation; one that matches none, or any other status or operation, is not judged here. {@code ackCumulative}
     * is the highest cumulative point the device took, {@code respondedBefore} the first PSN of the latest request a
     * response answered.
     */
    StepFailure completed(final Completion c, final List<SendQueueModel.Work> works, final int ackCumulative,
                          final int respondedBefore) {
        if (c.status() != CompletionStatus.SUCCESS) {
            return null;
        }
        for (int i = completedUpTo; i < works.size(); i++) {
            final SendQueueModel.Work work = works.get(i);
            if (work.wrId != c.wrId() || work.op != c.opcode()) {
                continue;
            }
            completedUpTo = i + 1;
            if (work.isReadOrAtomic()) {
                return null;
            }
            final int last = work.lastPsn();
            if (last < ackCumulative || last < respondedBefore) {
                return null;
            }
            return failure("MR-CMP-012", -1, work.describe() + " completed with SUCCESS, but no acknowledgement "
                + "taken by then has its cumulative point after its last PSN " + last + " (the highest is "
                + ackCumulative + ")", new FieldDiff("completion of wr_id " + c.wrId(), "after an acknowledgement "
                    + "with sacketh.base > " + last, "SUCCESS with the cumulative point at " + ackCumulative));
        }
        return null;
    }
}

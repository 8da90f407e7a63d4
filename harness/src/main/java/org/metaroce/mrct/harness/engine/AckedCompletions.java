package org.metaroce.mrct.harness.engine;

import static org.metaroce.mrct.harness.engine.RequesterFailure.failure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.RequesterAnswers;
import org.metaroce.mrct.oracle.RequesterState;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The send-queue completions a requester case polled, matched to the posted WQEs in order (MR-CMP-012), and the
 * responses the device received that Table 11-4 drops, which a completion must not come from (MR-ROB-009).
 */
final class AckedCompletions {
    /** A response the checker did not take: when the device received it, and the PSN up to which it, taken, acks. */
    private record Dropped(long time, int acknowledgesBefore) {
    }

    /** The posted WQEs before this index were matched to completions already. */
    private int completedUpTo;
    private final List<Dropped> dropped = new ArrayList<>();

    /**
     * Notes a frame the device received at {@code time} (on the data plane's clock), before the checker takes it, when
     * it is a response that Table 11-4 drops on a TVer 1 QP: an acknowledgement not taken, or a read response that
     * fits no place of an outstanding READ. Kept with the PSN before which it, taken, would have acknowledged every PSN
     * ({@code relative} puts PSNs relative to the QP's first).
     */
    void noteDropped(final DecodedFrame f, final long time, final RequesterState view, final SendQueueModel model,
                     final IntUnaryOperator relative, final boolean legacy) {
        if (legacy) {
            return;
        }
        if (f.opcode() == Opcode.ACKNOWLEDGE && !RequesterAnswers.acknowledge(f, view).taken()) {
            dropped.add(new Dropped(time, relative.applyAsInt(f.has(HeaderKind.SACKETH) ? f.sacketh().basePsn()
                : Psn.add(f.bth().psn(), 1))));
        } else if (f.opcode().kind() == OpKind.RDMA_READ_RESPONSE) {
            final int psn = relative.applyAsInt(f.bth().psn());
            final SendQueueModel.Work work = psn < Psn.HALF ? model.byPsn(psn) : null;
            if (!RequesterAnswers.readResponse(f, view).taken() || !model.fitsReadResponse(f, work, psn)) {
                dropped.add(new Dropped(time, work != null ? work.firstPsn : psn));
            }
        }
    }

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
            final Dropped from = takenFrom(c, last);
            if (from != null) {
                return failure("MR-ROB-009", -1, work.describe() + " completed with SUCCESS at " + c.timestampNanos()
                    + " ns, but no acknowledgement taken by then has its cumulative point after its last PSN " + last
                    + " (the highest is " + ackCumulative + "); a response that Table 11-4 drops, received at "
                    + from.time() + " ns, would acknowledge it: the device took it", new FieldDiff("completion of "
                        + "wr_id " + c.wrId(), "none: the response received at " + from.time() + " ns dropped "
                        + "silently", "SUCCESS at " + c.timestampNanos() + " ns"));
            }
            return failure("MR-CMP-012", -1, work.describe() + " completed with SUCCESS, but no acknowledgement "
                + "taken by then has its cumulative point after its last PSN " + last + " (the highest is "
                + ackCumulative + ")", new FieldDiff("completion of wr_id " + c.wrId(), "after an acknowledgement "
                    + "with sacketh.base > " + last, "SUCCESS with the cumulative point at " + ackCumulative));
        }
        return null;
    }

    /**
     * The latest response that Table 11-4 drops, received no later than the completion {@code c} (both on the data
     * plane's clock), which, taken, would acknowledge the PSN {@code last}: the response the completion came from.
     * Null when none did: a completion before any such response (a device completing on sending, MR-CMP-012), or one
     * without a timestamp.
     */
    private Dropped takenFrom(final Completion c, final int last) {
        Dropped latest = null;
        for (final Dropped d : dropped) {
            if (d.time() <= c.timestampNanos() && d.acknowledgesBefore() > last && d.acknowledgesBefore() < (1 << 23)) {
                latest = d;
            }
        }
        return latest;
    }
}

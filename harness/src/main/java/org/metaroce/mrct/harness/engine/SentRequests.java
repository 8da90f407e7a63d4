package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.oracle.SentPsns;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The PSNs of the requests the device was sent on one connection since its last RESET (by the case or by a peer
 * through the network), as the oracle's {@link SentPsns.View}: a PSN no request carried and no READ's span holds was
 * never sent; one every copy of which had a wrong ICRC reached the device only as a frame it must drop. The live
 * engine sent every frame itself, so nothing here is unknown.
 */
final class SentRequests implements SentPsns.View {
    /** PSN to whether some copy had a right ICRC. */
    private final Map<Integer, Boolean> requests = new HashMap<>();
    /** The spans {@code [start, start + length)} of the READ REQUESTs sent: their responses' PSNs. */
    private final List<int[]> reads = new ArrayList<>();
    /** Whether any request was recorded, and the last PSN any of them holds (a READ's span included). */
    private boolean any;
    private int last;

    /** A frame the device was sent on this connection: a request's PSN (a READ's whole span) is recorded. */
    void onToDevice(final DecodedFrame f, final int pmtu) {
        if (!f.isRoce() || !f.opcode().kind().isRequest()) {
            return;
        }
        final int psn = f.bth().psn();
        requests.merge(psn, f.icrcValid(), Boolean::logicalOr);
        int end = psn;
        if (f.opcode() == Opcode.RDMA_READ_REQUEST && f.has(HeaderKind.RETH) && pmtu > 0) {
            final int span = (int) Math.min(Math.max(1, (f.reth().dmaLength() + pmtu - 1) / pmtu), Psn.HALF - 1);
            reads.add(new int[] {psn, span});
            end = Psn.add(psn, span - 1);
        }
        if (!any || Psn.isAfter(end, last)) {
            last = end;
            any = true;
        }
    }

    /** Forgets everything: the QP was reset. */
    void restart() {
        requests.clear();
        reads.clear();
        any = false;
    }

    /** No request recorded holds {@code psn} or a later PSN. */
    @Override
    public boolean noneFrom(final int psn) {
        return !any || Psn.isAfter(psn, last);
    }

    @Override
    public SentPsns.Sent of(final int psn) {
        final Boolean good = requests.get(psn);
        if (good != null && good) {
            return SentPsns.Sent.SENT_OR_UNKNOWN;
        }
        for (final int[] read : reads) {
            if (Psn.inWindow(psn, read[0], read[1])) {
                return SentPsns.Sent.SENT_OR_UNKNOWN;
            }
        }
        return good == null ? SentPsns.Sent.NEVER_SENT : SentPsns.Sent.BAD_ICRC_ONLY;
    }
}

package org.metaroce.mrct.harness.blame;

import java.util.List;
import org.metaroce.mrct.harness.blame.Blame.Values;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Psn;

/**
 * Blames an acknowledgement whose ePSN no conforming responder can report: before the connection's initial PSN (the
 * QP's rq_psn), or further past the last PSN the harness sent than the window. ePSN starts at rq_psn on entering RTR
 * and only moves forward over PSNs that arrived (sections 3 and 4.3), so such an ePSN did not start at rq_psn
 * (MR-QP-004); every symptom after it (requests classed as duplicates or beyond the window, missing answers) follows.
 */
final class Initial {
    private Initial() {
    }

    static Cause diagnose(final FailureContext c, final Blame.Choice choice) {
        if (c.requester()) {
            return null;
        }
        final Integer reported = reported(c);
        if (reported == null) {
            return null;
        }
        Integer end = null;
        long reach = 0;
        for (final SentPacket p : c.sent()) {
            if (p.isRequest() && p.valid()) {
                final int after = p.psn() + p.span();
                end = end == null || Psn.diff(after, end) > 0 ? after : end;
                reach = Math.max(reach, (long) Psn.distance(0, p.psn()) + p.span());
            }
        }
        // PSNs sent up to half the PSN space after rq_psn leave no ePSN that is surely outside them (a READ of 2^31
        // bytes at PMTU 256 spans 2^23 PSNs): before and after can no longer be told apart
        if (end == null || reach + c.window() >= 1L << 23) {
            return null;
        }
        if (Psn.diff(reported, 0) < 0 || Psn.diff(reported, end) > c.window()) {
            return choice.cause(List.of("MR-QP-004"), "sacketh.base", "an acknowledged ePSN outside the PSNs sent "
                + "since RTR: ePSN did not start at rq_psn", Cause.Basis.MODEL);
        }
        return null;
    }

    /**
     * The ePSN the offending frame reports when it is a plain ACK (sacketh.base, or bth.psn + 1 for a TVer 0 ACK) or
     * a TVer 0 NAK 0x60 (bth.psn), else the one of the device's last ACK after the harness's last request; null when neither is known.
     */
    private static Integer reported(final FailureContext c) {
        final DecodedFrame f = c.actual();
        if (f != null && f.isRoce() && f.opcode().kind() == OpKind.ACKNOWLEDGE && f.has(HeaderKind.AETH)
            && AethSyndrome.valueOf(f.aeth().syndromeValue()).type() == AethSyndrome.Type.ACK) {
            return f.has(HeaderKind.SACKETH) ? Values.relative(f.sacketh().basePsn(), c.psnBase())
                : Values.relative(Psn.add(f.bth().psn(), 1), c.psnBase());
        }
        if (f != null && f.isRoce() && f.tver() == 0 && f.opcode().kind() == OpKind.ACKNOWLEDGE
            && f.has(HeaderKind.AETH) && f.aeth().syndromeValue() == AethSyndrome.NAK_PSN_SEQUENCE_ERROR.value()) {
            return Values.relative(f.bth().psn(), c.psnBase()); // a TVer 0 NAK 0x60 names ePSN (MR-LEG-003)
        }
        return c.reportedEpsn();
    }
}

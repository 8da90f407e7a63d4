package org.metaroce.mrct.harness.blame;

import java.util.List;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;

/**
 * Blames a request rejected by the wrong check, from what the harness knows of the request: the checks of Table 6-2
 * it fails on arrival and the protection records of Table 10-1 (the regions it registered, their rights and bounds).
 */
final class Rejections {
    private Rejections() {
    }

    /**
     * A NAK 0x62 where the step expected another answer, naming a request that passes Table 10-1 by the harness's own
     * records while its region lacks a remote right the request does not need: only a rights check that reads the
     * wrong right rejects it, the region's (P4, MR-SEC-004) or the QP's (P3, MR-SEC-003), the first the case cites.
     */
    static Cause wrongRight(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        if (c.requester() || f == null || !f.isRoce() || f.opcode().kind() != OpKind.ACKNOWLEDGE
            || !f.has(HeaderKind.AETH) || f.aeth().syndromeValue() != 0x62) {
            return null;
        }
        final Long expected = c.expectedValues().get("aeth.syndrome");
        if (expected != null && AethSyndrome.valueOf(expected.intValue()).type() != AethSyndrome.Type.ACK) {
            return null; // the step expects a NAK: fields() judges its code
        }
        final int psn = Blame.Values.relative(f.bth().psn(), c.psnBase());
        for (final SentPacket p : c.sent()) {
            if (p.isRequest() && p.valid() && p.psn() == psn && p.wrongRightRule() != null) {
                return choice.cause(List.of(p.wrongRightRule(), "MR-SEC-003"), "aeth.syndrome",
                    "NAK 0x62 for a request whose region grants the right it needs (Table 10-1) and lacks another",
                    Cause.Basis.MODEL);
            }
        }
        return null;
    }

    /**
     * Memory written for a request rejected with NAK 0x61 that fails a check of Table 6-2 on arrival which the sequence
     * check of Table 4-2 repeats when ePSN reaches it (V4): a packet rejected by the sequence check was placed on
     * arrival as section 6 allows (MR-PLC-016), so the bytes show that the arrival check was not made, and that check's
     * rule governs. Null when no such request was rejected.
     */
    static Cause placedPastArrivalCheck(final FailureContext c, final Blame.Choice choice, final String region) {
        if (!c.naks().contains(0x61)) {
            return null;
        }
        for (final SentPacket p : c.sent()) {
            if (p.rejected() && p.arrivalRule() != null) {
                return choice.cause(List.of(p.arrivalRule()), region, "payload placed for a packet that the checks "
                    + "of Table 6-2 reject on arrival; only the sequence check at ePSN rejected it",
                    Cause.Basis.MODEL);
            }
        }
        return null;
    }
}

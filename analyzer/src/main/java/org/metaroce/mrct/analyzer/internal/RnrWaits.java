package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.RequesterRnr;

/**
 * The RNR waits of a TVer 1 requester (section 13.5) as the capture shows them, judged by the oracle's
 * {@link RequesterRnr} as the live engine judges them: no request during a wait and the next one at its end
 * (MR-RTX-012), the resends from the resume PSN in one increasing order before any new PSN (MR-RTX-013), no request
 * after an RNR NAK that exhausted rnr_retry (MR-RTX-014, only where the evidence's control records give the QP's
 * rnr_retry), a wait neither restarted nor counted by an RNR NAK during it (MR-RTX-015). Times are the capture's, with
 * the reaction time of the vantage as the slack; a finding is a violation only when the capture is complete (an RNR
 * NAK in the capture may not have reached the requester otherwise).
 */
final class RnrWaits {
    private static final org.metaroce.mrct.oracle.Basis SEEN =
        org.metaroce.mrct.oracle.Basis.inferred("the RNR NAKs and requests of the capture");
    private final RequesterStream stream;
    private RequesterRnr rnr;

    RnrWaits(final RequesterStream stream) {
        this.stream = stream;
    }

    /** Forgets every wait: a new incarnation of the QP. */
    void restart() {
        rnr = null;
    }

    private boolean judged() {
        return stream.flow.connection.tver == 1 && rnr != null;
    }

    /** An RNR NAK the requester takes, for a PSN sent and not delivered. */
    void onNak(final Frame fr, final Context cx) {
        if (stream.flow.connection.tver != 1 || !stream.ring.holds(fr.psn)
            || !stream.ring.has(fr.psn, PsnRing.SENT) || stream.ring.has(fr.psn, PsnRing.DELIVERED)) {
            return;
        }
        if (rnr == null) {
            final int retry = cx.control == null ? -1 : (int) cx.attribute(stream.flow, "rnr_retry", false, -1);
            rnr = new RequesterRnr(retry < 0 ? RequesterRnr.UNKNOWN : retry);
        }
        rnr.onNak(fr.tsNs, fr.psn, fr.syndrome() & 0x1F);
    }

    /** una moved: the RNR retry counter returns to 0. */
    void progress() {
        if (rnr != null) {
            rnr.progress();
        }
    }

    /** Any request the requester sends: MR-RTX-012, -014, -015. */
    void onRequest(final Frame fr, final Context cx) {
        if (!judged()) {
            return;
        }
        final boolean held = rnr.held() || rnr.exhausted();
        // read before the request: a request after the wait ends it (started() is then no time at all)
        final long began = rnr.started();
        final Finding f = rnr.request(fr.tsNs, cx.reaction(stream.flow), fr.number, SEEN);
        if (held) {
            observe(Check.RNR_WAIT);
        }
        if (f != null) {
            report(fr, cx, f, "PSN " + Text.psn(fr.psn) + " is sent at odds with the RNR wait that began "
                + Text.ago(fr.tsNs - began) + " before: " + f.expected());
        }
    }

    /** A retransmission: after a wait, the resends from the resume PSN go in one increasing order (MR-RTX-013). */
    void onResend(final Frame fr, final Context cx) {
        if (judged() && stream.unaKnown && rnr.resumeDue() && !rnr.held()) {
            observe(Check.RNR_RESUME);
            final Finding f = rnr.resend(stream.una, fr.psn, this::owed, fr.number, SEEN);
            if (f != null) {
                report(fr, cx, f, "after the RNR wait, PSN " + Text.psn(fr.psn) + " is sent again before in-flight "
                    + "PSNs from the resume PSN " + Text.psn(rnr.resume()));
            }
        }
    }

    /** A first transmission: after a wait, every in-flight PSN from the resume PSN was sent again (MR-RTX-013). */
    void onFirstTransmission(final Frame fr, final Context cx) {
        if (judged() && stream.unaKnown && rnr.resumeDue() && !rnr.held()) {
            observe(Check.RNR_RESUME);
            final Finding f = rnr.firstTransmission(stream.una, fr.psn, this::owed, fr.number, SEEN);
            if (f != null) {
                report(fr, cx, f, "after the RNR wait, new PSN " + Text.psn(fr.psn) + " is sent before every "
                    + "in-flight PSN from the resume PSN " + Text.psn(rnr.resume()) + " was sent again");
            }
        }
    }

    /** Sent, not delivered, and not sent again since the wait ended (as far as the capture shows). */
    private boolean owed(final int psn) {
        final PsnRing ring = stream.ring;
        if (!ring.holds(psn) || !ring.has(psn, PsnRing.SENT) || ring.has(psn, PsnRing.DELIVERED)) {
            return false;
        }
        return ring.lastTxNs[ring.slot(psn)] < rnr.until();
    }

    private void observe(final Check check) {
        Judge.observe(stream.connection(), stream.flow, check);
    }

    private void report(final Frame fr, final Context cx, final Finding f, final String message) {
        final Check check = switch (f.rule()) {
            case RequesterRnr.RESUME_RULE -> Check.RNR_RESUME;
            case RequesterRnr.RETRY_RULE -> Check.RNR_RETRY;
            case RequesterRnr.DURING_RULE -> Check.RNR_DURING;
            default -> Check.RNR_WAIT;
        };
        observe(check);
        cx.judge.report(stream.connection(), stream.flow, check,
            cx.judge.complete() ? Basis.DEFINITE : Basis.CAPTURE_GAP, fr, () -> message,
            () -> "an RNR NAK or acknowledgement missing from the capture (or not received) may explain it",
            new FieldDiff(f.field(), f.expected(), f.actual()));
    }
}

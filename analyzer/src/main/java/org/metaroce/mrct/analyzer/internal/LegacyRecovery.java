package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.RequesterGoBack;

/**
 * The go-back-N recovery of a TVer 0 requester (section 16, MR-LEG-008 and MR-LEG-009) as a capture shows it: the
 * rules are the oracle's {@link RequesterGoBack}, the live engine's too; what is left here is the capture's view (the
 * ring's PSNs, una as the answers showed it and the PSNs it moved over within the reaction time, the lenient end of
 * rto_low_ns), what a capture cannot rule out (a frame missing, a second copy, sprayed frames reordered) and the words
 * of a report.
 */
final class LegacyRecovery {
    private final RequesterStream stream;
    private final RequesterGoBack goBack = new RequesterGoBack();
    /** The stream's PSNs sent and not delivered, as the ring holds them. */
    private final RequesterGoBack.Psns owed = new RequesterGoBack.Psns() {
        @Override
        public boolean owed(final int psn) {
            final PsnRing ring = stream.ring;
            return ring.has(psn, PsnRing.SENT) && !ring.has(psn, PsnRing.DELIVERED);
        }

        @Override
        public int reach() {
            return stream.ring.capacity();
        }
    };

    LegacyRecovery(final RequesterStream stream) {
        this.stream = stream;
    }

    void restart() {
        goBack.restart();
    }

    private boolean legacy() {
        return stream.flow.connection.tver == 0;
    }

    /** An accepted NAK 0x60 for an in-flight PSN: the requester must go back to it. */
    void onNak60(final Frame fr, final Context cx) {
        if (!legacy()) {
            return;
        }
        goBack.onNak(fr.psn, stream.next, fr.tsNs, fr.number);
        Judge.observe(stream.connection(), stream.flow, Check.GO_BACK_N);
    }

    void onRnrNak(final Frame fr) {
        goBack.onRnrNak(fr.psn);
    }

    /** A new PSN: no NAK recovery may still be owed. */
    void onFirstTransmission(final Frame fr, final Context cx) {
        if (!legacy() || !goBack.recovering()) {
            return;
        }
        final RequesterGoBack.Violation v = goBack.onFirstTransmission(fr.psn, fr.tsNs, cx.reaction(stream.flow),
            owed, fr.number, org.metaroce.mrct.oracle.Basis.FRAME);
        if (v == null) {
            return;
        }
        cx.judge.report(stream.connection(), stream.flow, Check.GO_BACK_N, Basis.CAPTURE_GAP, fr,
            () -> "new PSN " + Text.psn(v.psn()) + " is sent before PSN " + Text.psn(v.owed()) + " was sent again, "
                + "after the NAK 0x60 for PSN " + Text.psn(v.nakPsn()) + " (frame " + v.nakFrame() + ") asked for "
                + "every PSN from " + Text.psn(v.nakPsn()) + " to " + Text.psn(org.metaroce.mrct.wire.Psn.add(
                    v.nakUpTo(), -1)),
            () -> "the retransmissions may be missing from the capture",
            new FieldDiff(v.finding().field(), "a retransmission of " + Text.psn(v.owed()),
                "new PSN " + Text.psn(v.psn())));
    }

    void onRetransmission(final Frame fr, final Context cx, final boolean copy) {
        if (!legacy()) {
            return;
        }
        final Connection c = stream.connection();
        final boolean afterNak = goBack.recovering();
        if (!afterNak) {
            Judge.observe(c, stream.flow, Check.LEGACY_TIMEOUT);
        }
        final long reaction = cx.reaction(stream.flow);
        final int una = stream.unaKnown ? stream.una : stream.firstPsn;
        final boolean recent = stream.unaChangedNs != Long.MIN_VALUE && fr.tsNs - stream.unaChangedNs <= reaction;
        // in mrct evidence, less the run's absolute tolerance, as the live engine judges it
        final long rto = cx.parameters.lenientMin("rto_low_ns") - (cx.judge.atDevice() ? cx.tolerance.absoluteNs() : 0);
        final RequesterGoBack.Violation v = goBack.onRetransmission(fr.psn, fr.tsNs, new RequesterGoBack.Una(una,
            recent ? stream.unaBefore : una, Math.max(stream.unaChangedNs, stream.firstTxNs)), rto, owed, fr.number,
            org.metaroce.mrct.oracle.Basis.FRAME);
        if (v == null) {
            return;
        }
        final int x = v.psn();
        final int owedPsn = v.owed();
        final Basis order = stream.flow.spray.sprayed() ? Basis.NETWORK_ORDER : Basis.CAPTURE_GAP;
        final Basis basis = copy ? Basis.CAPTURE_COPY : Basis.CAPTURE_GAP;
        switch (v.kind()) {
            case SKIPPED_AFTER_NAK -> cx.judge.report(c, stream.flow, Check.GO_BACK_N, order, fr,
                () -> "after the NAK 0x60 for PSN " + Text.psn(v.nakPsn()) + " (frame " + v.nakFrame() + "), PSN "
                    + Text.psn(x) + " is sent again before PSN " + Text.psn(owedPsn),
                () -> "the retransmission of PSN " + Text.psn(owedPsn) + " may be missing from the capture",
                new FieldDiff(v.finding().field(), Text.psn(owedPsn), Text.psn(x)));
            case SKIPPED_IN_ROUND -> cx.judge.report(c, stream.flow, Check.LEGACY_TIMEOUT,
                copy ? Basis.CAPTURE_COPY : order, fr, () -> "PSN " + Text.psn(x) + " is sent again before PSN "
                    + Text.psn(owedPsn) + ", which is in flight: a timeout sends again every in-flight PSN in order",
                () -> "the retransmission of PSN " + Text.psn(owedPsn) + " may be missing from the capture",
                new FieldDiff(v.finding().field(), Text.psn(owedPsn), Text.psn(x)));
            case NOT_FROM_UNA -> cx.judge.report(c, stream.flow, Check.LEGACY_TIMEOUT, basis, fr,
                () -> "PSN " + Text.psn(x) + " is sent again with no NAK 0x60 asking for it, and it is not una ("
                    + Text.psn(owedPsn) + "): a timeout sends again from una",
                () -> copy ? "this frame may be a second copy of the frame before it"
                    : "an acknowledgement, a NAK or the retransmission of una may be missing from the capture",
                new FieldDiff(v.finding().field(), "una = " + Text.psn(owedPsn), Text.psn(x)));
            case EARLY -> cx.judge.report(c, stream.flow, Check.LEGACY_TIMEOUT, basis, fr,
                () -> "PSN " + Text.psn(x) + " is sent again " + Text.ago(v.waitedNs()) + " after the retransmission "
                    + "timer last started, with no NAK 0x60 asking for it: a timeout takes at least rto_low_ns = "
                    + v.rtoNs() + " ns (" + cx.parameters.source() + ")",
                () -> copy ? "this frame may be a second copy of the frame before it"
                    : "a NAK 0x60 may be missing from the capture",
                new FieldDiff(v.finding().field(), "at least " + Text.ago(v.rtoNs()), Text.ago(v.waitedNs())));
            default -> {
            }
        }
    }
}

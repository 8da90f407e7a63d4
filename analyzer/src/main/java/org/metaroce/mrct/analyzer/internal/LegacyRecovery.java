package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.Psn;

/**
 * Go-back-N recovery of a TVer 0 requester (section 16): after a NAK 0x60 for PSN p it sends again every PSN it had
 * sent from p on, in increasing order, before any new PSN (MR-LEG-008); without a NAK, a retransmission is a timeout's,
 * which sends again every in-flight PSN from una on, in order (MR-LEG-009), and cannot come sooner than the shortest
 * retransmission timeout after the timer last started. An RNR NAK's wait ends with the retransmission of its PSN.
 */
final class LegacyRecovery {
    private final RequesterStream stream;

    private boolean nakActive;
    private int nakCursor;
    private int nakUpTo;
    private long nakNs;
    private long nakFrame;
    private int nakPsn;
    private boolean roundActive;
    private int roundCursor;
    private long lastRoundNs = Long.MIN_VALUE;
    private boolean rnrKnown;
    private int rnrPsn;

    LegacyRecovery(final RequesterStream stream) {
        this.stream = stream;
    }

    void restart() {
        nakActive = false;
        roundActive = false;
        rnrKnown = false;
        lastRoundNs = Long.MIN_VALUE;
    }

    private boolean legacy() {
        return stream.flow.connection.tver == 0;
    }

    /** An accepted NAK 0x60 for an in-flight PSN: the requester must go back to it. */
    void onNak60(final Frame fr, final Context cx) {
        if (!legacy()) {
            return;
        }
        nakActive = true;
        nakPsn = fr.psn;
        nakCursor = fr.psn;
        nakUpTo = stream.next;
        nakNs = fr.tsNs;
        nakFrame = fr.number;
        roundActive = false;
        Judge.observe(stream.connection(), stream.flow, Check.GO_BACK_N);
    }

    void onRnrNak(final Frame fr) {
        rnrKnown = true;
        rnrPsn = fr.psn;
    }

    /** A new PSN: no NAK recovery may still be owed. */
    void onFirstTransmission(final Frame fr, final Context cx) {
        if (!legacy() || !nakActive || fr.tsNs <= nakNs + cx.reaction(stream.flow)) {
            return;
        }
        nakActive = false;
        final int owed = firstUndelivered(nakCursor, nakUpTo);
        if (owed < 0) {
            return;
        }
        final int p = nakPsn;
        final long nak = nakFrame;
        final int upTo = Psn.add(nakUpTo, -1);
        cx.judge.report(stream.connection(), stream.flow, Check.GO_BACK_N, Basis.CAPTURE_GAP, fr,
            () -> "new PSN " + Text.psn(fr.psn) + " is sent before PSN " + Text.psn(owed) + " was sent again, after "
                + "the NAK 0x60 for PSN " + Text.psn(p) + " (frame " + nak + ") asked for every PSN from "
                + Text.psn(p) + " to " + Text.psn(upTo),
            () -> "the retransmissions may be missing from the capture",
            new FieldDiff("bth.psn", "a retransmission of " + Text.psn(owed), "new PSN " + Text.psn(fr.psn)));
    }

    void onRetransmission(final Frame fr, final Context cx, final boolean copy) {
        if (!legacy()) {
            return;
        }
        final int x = fr.psn;
        final Connection c = stream.connection();
        if (nakActive) {
            if (x == nakCursor) {
                nakCursor = Psn.add(x, 1);
            } else if (Psn.isAfter(x, nakCursor)) {
                final int owed = firstUndelivered(nakCursor, x);
                if (owed >= 0) {
                    final int p = nakPsn;
                    final long nak = nakFrame;
                    cx.judge.report(c, stream.flow, Check.GO_BACK_N,
                        stream.flow.spray.sprayed() ? Basis.NETWORK_ORDER : Basis.CAPTURE_GAP, fr,
                        () -> "after the NAK 0x60 for PSN " + Text.psn(p) + " (frame " + nak + "), PSN "
                            + Text.psn(x) + " is sent again before PSN " + Text.psn(owed),
                        () -> "the retransmission of PSN " + Text.psn(owed) + " may be missing from the capture",
                        new FieldDiff("bth.psn", Text.psn(owed), Text.psn(x)));
                }
                nakCursor = Psn.add(x, 1);
            } else {
                nakCursor = Psn.add(x, 1);
            }
            if (!Psn.isBefore(nakCursor, nakUpTo)) {
                nakActive = false;
            }
            return;
        }
        Judge.observe(c, stream.flow, Check.LEGACY_TIMEOUT);
        if (roundActive && x == roundCursor) {
            roundCursor = Psn.add(x, 1);
            return;
        }
        if (roundActive && Psn.isAfter(x, roundCursor)) {
            final int owed = firstUndelivered(roundCursor, x);
            roundCursor = Psn.add(x, 1);
            if (owed >= 0) {
                cx.judge.report(c, stream.flow, Check.LEGACY_TIMEOUT,
                    copy ? Basis.CAPTURE_COPY : stream.flow.spray.sprayed() ? Basis.NETWORK_ORDER : Basis.CAPTURE_GAP,
                    fr, () -> "PSN " + Text.psn(x) + " is sent again before PSN " + Text.psn(owed)
                        + ", which is in flight: a timeout sends again every in-flight PSN in order",
                    () -> "the retransmission of PSN " + Text.psn(owed) + " may be missing from the capture",
                    new FieldDiff("bth.psn", Text.psn(owed), Text.psn(x)));
            }
            return;
        }
        startRound(fr, cx, copy);
    }

    /** A retransmission that no NAK 0x60 asked for: a timeout (or the end of an RNR wait). */
    private void startRound(final Frame fr, final Context cx, final boolean copy) {
        final int x = fr.psn;
        final Connection c = stream.connection();
        final long reaction = cx.reaction(stream.flow);
        final int una = stream.unaKnown ? stream.una : stream.firstPsn;
        final boolean recent = stream.unaChangedNs != Long.MIN_VALUE && fr.tsNs - stream.unaChangedNs <= reaction;
        final boolean fromUna = x == una || recent && !Psn.isBefore(x, stream.unaBefore) && !Psn.isAfter(x, una);
        final boolean fromRnr = rnrKnown && x == rnrPsn;
        roundActive = true;
        roundCursor = Psn.add(x, 1);
        final long timerStart = Math.max(stream.unaChangedNs, Math.max(lastRoundNs, stream.firstTxNs));
        lastRoundNs = fr.tsNs;
        if (fromRnr) {
            rnrKnown = false;
            return;
        }
        final Basis basis = copy ? Basis.CAPTURE_COPY : Basis.CAPTURE_GAP;
        if (!fromUna && Psn.isAfter(x, una)) {
            cx.judge.report(c, stream.flow, Check.LEGACY_TIMEOUT, basis, fr,
                () -> "PSN " + Text.psn(x) + " is sent again with no NAK 0x60 asking for it, and it is not una ("
                    + Text.psn(una) + "): a timeout sends again from una",
                () -> copy ? "this frame may be a second copy of the frame before it"
                    : "an acknowledgement, a NAK or the retransmission of una may be missing from the capture",
                new FieldDiff("bth.psn", "una = " + Text.psn(una), Text.psn(x)));
            return;
        }
        final long rto = cx.parameters.lenientMin("rto_low_ns");
        final long waited = fr.tsNs - timerStart;
        if (timerStart != Long.MIN_VALUE && waited < rto) {
            cx.judge.report(c, stream.flow, Check.LEGACY_TIMEOUT, basis, fr,
                () -> "PSN " + Text.psn(x) + " is sent again " + Text.ago(waited) + " after the retransmission timer "
                    + "last started, with no NAK 0x60 asking for it: a timeout takes at least rto_low_ns = " + rto
                    + " ns (" + cx.parameters.source() + ")",
                () -> copy ? "this frame may be a second copy of the frame before it"
                    : "a NAK 0x60 may be missing from the capture",
                new FieldDiff("time since the timer started", "at least " + Text.ago(rto), Text.ago(waited)));
        }
    }

    /** The lowest PSN of {@code [from, to)} that was sent and is not delivered, or -1. */
    private int firstUndelivered(final int from, final int to) {
        final PsnRing ring = stream.ring;
        final int n = Math.min(Psn.distance(from, to), ring.capacity());
        for (int i = 0; i < n; i++) {
            final int psn = Psn.add(from, i);
            if (ring.has(psn, PsnRing.SENT) && !ring.has(psn, PsnRing.DELIVERED)) {
                return psn;
            }
        }
        return -1;
    }
}

package org.metaroce.mrct.harness.blame;

import java.util.List;
import org.metaroce.mrct.harness.blame.Blame.Values;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Psn;

/**
 * Blames a wrong ACK by comparing it with what a conforming responder holds after the packets the harness sent
 * ({@link ResponderView}, at every moment since an ACK reflects the packets that had arrived when it was built): which
 * of bth.psn, sacketh.base and sacketh.bitmap is wrong, and whether the device failed to report PSNs it recorded
 * (MR-ACK-002) or failed to accept them ({@link Discards}). The view is trusted only where the case's own expectation of
 * sacketh.base is one of its moments.
 */
final class Acknowledgements {
    private static final List<String> ACK_FIELDS = List.of("bth.psn", "sacketh.base", "sacketh.bitmap");

    private Acknowledgements() {
    }

    private static int lastIndex(final List<long[]> moments, final long epsn) {
        for (int i = moments.size() - 1; i >= 0; i--) {
            if (moments.get(i)[0] == epsn) {
                return i;
            }
        }
        return -1;
    }

    /** True when every PSN of {@code extra} (bits over {@code base}) was sent, though beyond the window. */
    private static boolean sentBeyondWindow(final FailureContext c, final int base, final long extra) {
        for (int i = 0; i < 64; i++) {
            if ((extra & (1L << (63 - i))) == 0) {
                continue;
            }
            final int psn = base + i;
            if (c.sent().stream().noneMatch(p -> p.isRequest() && p.psn() == psn)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The device's acknowledgement matches what a responder holds that also recorded frames it must drop (a bad ICRC,
     * a wrong P_Key, ...): the rule that makes it drop the first such frame.
     */
    private static Cause acceptedInvalid(final FailureContext c, final Blame.Choice choice, final int base,
                                         final long bitmap) {
        final List<SentPacket> before = c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()));
        String rule = null;
        final List<SentPacket> all = new java.util.ArrayList<>();
        for (final SentPacket p : before) {
            if (!p.valid() && rule == null && p.isRequest()) {
                rule = p.dropRule();
            }
            all.add(p.valid() ? p : new SentPacket(p.psn(), p.opcode(), p.ackReq(), p.ce(), p.span(), null, p.length(),
                p.rejected()));
        }
        if (rule == null) {
            return null;
        }
        final List<long[]> moments = ResponderView.momentsBefore(all, all.size(), c.window());
        if (moments.stream().anyMatch(m -> m[0] == base && m[1] == bitmap)) {
            return choice.cause(List.of(rule), "", "a frame it must drop silently was recorded", Cause.Basis.MODEL);
        }
        return null;
    }

    /**
     * The acknowledgement is right for a later moment than the one the step expected: the device built no ACK for the
     * packet that made the expected moment and answered a later one (Table 5-2: the ACK that packet's class owes).
     */
    private static Cause skipped(final FailureContext c, final Blame.Choice choice, final int base,
                                 final long bitmap) {
        final Long expectedBase = c.expectedValues().get("sacketh.base");
        if (expectedBase == null) {
            return null;
        }
        final Long expectedBitmap = c.expectedValues().get("sacketh.bitmap");
        final ResponderView view = ResponderView.of(List.of(), c.window());
        final List<long[]> moments = new java.util.ArrayList<>();
        final List<ResponderView.Arrival> classes = new java.util.ArrayList<>();
        final List<SentPacket> packets = new java.util.ArrayList<>();
        for (final SentPacket p : c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()))) {
            if (p.recordable()) {
                view.accept(p);
                moments.add(new long[] {view.ePsn(), view.bitmap()});
                classes.add(view.lastArrival());
                packets.add(p);
            }
        }
        int actual = -1;
        for (int i = moments.size() - 1; i >= 0 && actual < 0; i--) {
            if (moments.get(i)[0] == base && moments.get(i)[1] == bitmap) {
                actual = i;
            }
        }
        int expected = -1;
        for (int i = actual - 1; i >= 0 && expected < 0; i--) {
            if (moments.get(i)[0] == expectedBase && (expectedBitmap == null || moments.get(i)[1] == expectedBitmap)) {
                expected = i;
            }
        }
        if (expected < 0) {
            return null;
        }
        final boolean legacy = Long.valueOf(0).equals(c.expectedValues().get("bth.tver")) || c.actual().tver() == 0;
        return switch (classes.get(expected)) {
            case DUPLICATE -> choice.cause(List.of(legacy ? "MR-LEG-004" : "MR-ACK-006"), "",
                "no ACK for a duplicate; a later ACK came in its place", Cause.Basis.MODEL);
            case OUT_OF_ORDER -> choice.cause(List.of("MR-ACK-004"), "",
                "no ACK for a packet after ePSN; a later ACK came in its place", Cause.Basis.MODEL);
            case BEYOND_WINDOW -> choice.cause(List.of("MR-ACK-007"), "",
                "no ACK for a packet beyond the window; a later ACK came in its place", Cause.Basis.MODEL);
            case IN_ORDER -> packets.get(expected).ackReq() ? choice.cause(List.of(legacy ? "MR-LEG-005"
                : "MR-ACK-005"), "", "no ACK for an in-order packet with AckReq; a later ACK came in its place",
                Cause.Basis.MODEL) : null;
            case NONE -> null;
        };
    }

    /**
     * A TVer 0 acknowledgement (no SACKETH) for a later packet where the step expected the one for a packet with AckReq
     * that the harness sent in order: that packet's ACK was skipped (MR-LEG-005).
     */
    private static Cause legacySkipped(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        // the exact value the step expected, else the one its diff shows (an expression of a loop variable, say)
        final Long expected = c.expectedValues().containsKey("bth.psn") ? c.expectedValues().get("bth.psn")
            : c.diffs().stream().filter(d -> d.field().equals("bth.psn")).findFirst()
                .map(d -> Values.leadingNumber(d.expected(), Long.MIN_VALUE)).filter(v -> v != Long.MIN_VALUE)
                .orElse(null);
        if (f == null || !f.isRoce() || f.tver() != 0 || f.opcode().kind() != org.metaroce.mrct.wire.OpKind.ACKNOWLEDGE
            || !f.has(org.metaroce.mrct.wire.HeaderKind.AETH) || f.has(org.metaroce.mrct.wire.HeaderKind.SACKETH)
            || org.metaroce.mrct.wire.AethSyndrome.valueOf(f.aeth().syndromeValue()).type()
                != org.metaroce.mrct.wire.AethSyndrome.Type.ACK
            || expected == null || !c.differs("bth.psn")) {
            return null;
        }
        final int actual = Values.relative(f.bth().psn(), c.psnBase());
        if (Psn.diff(actual, expected.intValue()) <= 0) {
            return null;
        }
        int epsn = 0;
        boolean owed = false;
        for (final SentPacket p : c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()))) {
            if (!p.recordable() || p.psn() != epsn) {
                continue; // a TVer 0 responder accepts packets in order only
            }
            epsn = p.psn() + p.span();
            owed |= p.psn() + p.span() - 1 == expected && p.ackReq();
        }
        return owed && Psn.diff(epsn - 1, actual) >= 0 ? choice.cause(List.of("MR-LEG-005"), "",
            "no ACK for an in-order TVer 0 packet with AckReq; a later ACK came in its place", Cause.Basis.MODEL)
            : null;
    }

    /**
     * True when a PSN at or after the device's ePSN {@code base} arrived after an earlier ePSN (the harness sent it
     * valid into the window, out of order, so a conforming responder recorded it) and {@code bitmap} does not report
     * it: the device neither passed it nor holds it.
     */
    private static boolean forgotten(final FailureContext c, final int base, final long bitmap) {
        final ResponderView view = ResponderView.of(List.of(), c.window());
        for (final SentPacket p : c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()))) {
            view.accept(p);
            if (p.recordable() && view.lastPacket() == p && view.lastArrival() == ResponderView.Arrival.OUT_OF_ORDER) {
                final int bit = Psn.diff(p.psn(), base);
                if (bit >= 0 && bit < 64 && (bitmap & (1L << (63 - bit))) == 0) {
                    return true;
                }
            }
        }
        return false;
    }

    static Cause diagnose(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        final Cause legacy = legacySkipped(c, choice);
        if (legacy != null) {
            return legacy;
        }
        if (!Values.isPlainAck(f)) {
            return null;
        }
        final boolean checked = "MR-ACK-001".equals(c.checkRule()) || "MR-ACK-002".equals(c.checkRule());
        if (!checked && (c.differs("aeth.syndrome") || c.differs("bth.opcode")
            || ACK_FIELDS.stream().noneMatch(c::differs))) {
            return null;
        }
        List<long[]> moments = ResponderView.momentsBefore(c.sent(), c.sentBefore(), c.window());
        final Long expectedBase = c.expectedValues().get("sacketh.base");
        if (expectedBase != null) {
            moments = moments.stream().filter(m -> m[0] == expectedBase).toList();
            if (moments.isEmpty()) {
                return null;
            }
            final Long expectedBitmap = c.expectedValues().get("sacketh.bitmap");
            final List<long[]> exact = expectedBitmap == null ? List.of()
                : moments.stream().filter(m -> m[1] == expectedBitmap).toList();
            moments = exact.isEmpty() ? moments : exact;
        }
        final int base = Values.relative(f.sacketh().basePsn(), c.psnBase());
        final int next = Values.relative(Psn.add(f.bth().psn(), 1), c.psnBase());
        final long bitmap = f.sacketh().bitmap();
        final int atBase = lastIndex(moments, base);
        final int atNext = lastIndex(moments, next);
        if (next != base) {
            // the field that matches the later moment is right; the other was built from older state (or is wrong)
            if (atNext > atBase) {
                return choice.cause(List.of("MR-ACK-002"), "sacketh.base",
                    "sacketh.base is not the ePSN (bth.psn + 1 is)", Cause.Basis.MODEL);
            }
            if (atBase > atNext) {
                return choice.cause(List.of("MR-ACK-001"), "bth.psn", "ACK bth.psn is not ePSN - 1",
                    Cause.Basis.MODEL);
            }
            return null;
        }
        if (moments.stream().anyMatch(m -> m[0] == base && m[1] == bitmap)) {
            return null;
        }
        final Cause discarded = Discards.diagnose(c, choice);
        if (discarded != null) {
            return discarded;
        }
        final Cause accepted = acceptedInvalid(c, choice, base, bitmap);
        if (accepted != null) {
            return accepted;
        }
        final Cause skipped = skipped(c, choice, base, bitmap);
        if (skipped != null) {
            return skipped;
        }
        if (atBase >= 0) {
            final long extra = moments.stream().filter(m -> m[0] == base).mapToLong(m -> bitmap & ~m[1])
                .filter(bits -> bits != 0).findFirst().orElse(0);
            if (extra != 0 && sentBeyondWindow(c, base, extra)) {
                return choice.cause(List.of("MR-ORD-012"), "sacketh.bitmap",
                    "a packet beyond the window recorded", Cause.Basis.MODEL);
            }
            final boolean lacks = moments.stream().anyMatch(m -> m[0] == base && (m[1] & ~bitmap) != 0
                && (bitmap & ~m[1]) == 0);
            return choice.cause(List.of("MR-ACK-002"), "sacketh.bitmap", lacks
                ? "sacketh.bitmap lacks PSNs that arrived in the window" : "sacketh.bitmap has PSNs that never arrived",
                Cause.Basis.MODEL);
        }
        final long highest = moments.isEmpty() ? base : moments.get(moments.size() - 1)[0];
        if (base < highest && forgotten(c, base, bitmap)) {
            return choice.cause(List.of("MR-ORD-006"), "sacketh.bitmap", "a PSN that arrived neither passed by ePSN nor "
                + "reported in the bitmap: a recorded packet discarded", Cause.Basis.MODEL);
        }
        if (base < highest && (bitmap & (1L << 63)) != 0) {
            // the ACK itself reports its ePSN recorded: ePSN stopped at a recorded PSN, so nothing was discarded
            return choice.cause(List.of("MR-ORD-005"), "sacketh.base",
                "ePSN stopped before PSNs that arrived, the first of them reported recorded", Cause.Basis.MODEL);
        }
        if (base < highest) {
            return choice.cause(List.of("MR-ORD-005", "MR-ORD-002"), "sacketh.base",
                "ePSN stopped before PSNs that arrived", Cause.Basis.MODEL);
        }
        return choice.cause(List.of("MR-ORD-005"), "sacketh.base", "ePSN moved over PSNs that never arrived",
            Cause.Basis.MODEL);
    }
}

package org.metaroce.mrct.harness.blame;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.blame.Blame.Values;
import org.metaroce.mrct.wire.Psn;

/**
 * Tells from the device's counters that it discarded packets a conforming responder records: packets counted as beyond
 * the window when none was (MR-ORD-002), or new packets counted as duplicates (MR-ORD-001 when the PSNs crossed the
 * 2^24 wrap, where a comparison without modular arithmetic goes wrong). Applies to any failure of a case in which the
 * harness sent packets out of order or across the wrap: ACK fields, memory, completions and counters then all show the
 * same root cause.
 */
final class Discards {
    /** The counters of Table 11-1's silent drops (steps 2 to 18). */
    private static final List<String> SILENT_DROPS = List.of("drop_bad_ip_header", "drop_length_mismatch",
        "drop_bad_udp_checksum", "drop_truncated", "drop_bad_icrc", "drop_unknown_tver", "drop_legacy_disabled",
        "drop_unsupported_opcode", "drop_bad_pad", "drop_unknown_qp", "drop_pkey_mismatch", "drop_wrong_peer",
        "drop_qp_state", "drop_tver_mismatch", "drop_invalid_sequence");

    private Discards() {
    }

    static Cause diagnose(final FailureContext c, final Blame.Choice choice) {
        if (c.counterChange() == null || c.sent().isEmpty() || c.tver() == 0) {
            return null; // a TVer 0 responder discards every packet after ePSN (go-back-N, appendix D)
        }
        final ResponderView view = ResponderView.of(c.sent(), c.window());
        final boolean wraps = wraps(c);
        if (!view.outOfOrderSeen() && !wraps) {
            return null;
        }
        final Map<String, Long> changes = c.counterChange().get();
        if (changes == null) {
            return null;
        }
        final boolean outside = !view.beyondWindowSeen() && Values.change(changes, "drop_outside_window") > 0;
        final boolean doubted = Values.change(changes, "duplicate_received") > view.duplicates();
        final int dropped = (int) Values.change(changes, "drop_outside_window");
        if (!view.beyondWindowSeen() && dropped > 0 && dropped == duplicatesBefore(c.sent(), c.window())) {
            return duplicatesDropped(choice);
        }
        // the root cause is the discarding, whichever symptom (bitmap, base, memory, counters) the case saw first
        if (outside) {
            return choice.cause(List.of("MR-ORD-002"), "",
                "PSNs after ePSN in the window discarded instead of recorded", Cause.Basis.COUNTERS);
        }
        if (doubted) {
            return choice.cause(List.of("MR-ORD-001"), "", wraps
                ? "new PSNs across the 2^24 wrap classed as duplicates" : "new PSNs classed as duplicates",
                Cause.Basis.COUNTERS);
        }
        return null;
    }

    /**
     * A frame the device owed an answer to went unanswered, and its counters show it dropped a valid request as
     * truncated, of the wrong length or badly padded, where every frame the harness sent passes those checks: the rule
     * that makes the last request legal, when its shape is one blame recognises (an empty payload, MR-CMP-007; pad
     * bytes that are not zero, MR-WIRE-020). Null otherwise.
     */
    static Cause validDropped(final FailureContext c, final Blame.Choice choice) {
        if (c.shape() != FailureShape.FRAME_MISSING || c.counterChange() == null || c.requester()
            || c.sent().isEmpty() || !c.sent().stream().allMatch(SentPacket::valid)) {
            return null;
        }
        final SentPacket last = c.sent().get(c.sent().size() - 1);
        if (!last.isRequest()) {
            return null;
        }
        final Map<String, Long> changes = c.counterChange().get();
        if (changes == null) {
            return null;
        }
        final boolean length = Values.change(changes, "drop_length_mismatch") > 0
            || Values.change(changes, "drop_truncated") > 0;
        if (length && last.payload() == 0 && last.opcode().position().isFirst() && last.opcode().position().isLast()) {
            return choice.cause(List.of("MR-CMP-007"), "", "a zero-length message dropped as truncated",
                Cause.Basis.COUNTERS);
        }
        if (Values.change(changes, "drop_bad_pad") > 0 && last.padNonZero()) {
            return choice.cause(List.of("MR-WIRE-020"), "", "a packet whose pad bytes are not zero dropped",
                Cause.Basis.COUNTERS);
        }
        if (Values.change(changes, "drop_bad_udp_checksum") > 0) {
            // every frame sent had a udp.checksum of 0 or a correct one (valid): one dropped as bad was refused
            return choice.cause(List.of("MR-WIRE-011"), "udp.checksum",
                "a frame with a zero or correct udp.checksum dropped as bad", Cause.Basis.COUNTERS);
        }
        if (last.lowSport() && SILENT_DROPS.stream().anyMatch(counter -> Values.change(changes, counter) > 0)) {
            // a silent drop of a packet that passes every check of Table 11-1 blame can see, whose one trait outside
            // what a device sends is its udp.sport below 0xC000 (MR-WIRE-010 binds senders only)
            return choice.cause(List.of("MR-MP-005"), "udp.sport",
                "a valid request from a UDP source port below 0xC000 dropped", Cause.Basis.COUNTERS);
        }
        return null;
    }

    /**
     * How many SEND and RDMA WRITE packets of {@code sent} arrived before ePSN (duplicates a conforming responder counts
     * in duplicate_received and in no drop counter, MR-ORD-011).
     */
    static int duplicatesBefore(final List<SentPacket> sent, final int window) {
        final ResponderView view = ResponderView.of(List.of(), window);
        int count = 0;
        for (final SentPacket p : sent) {
            final boolean before = p.recordable() && org.metaroce.mrct.wire.Psn.diff(p.psn(), view.ePsn()) < 0;
            view.accept(p);
            if (before && (p.opcode().kind() == org.metaroce.mrct.wire.OpKind.SEND
                || p.opcode().kind() == org.metaroce.mrct.wire.OpKind.RDMA_WRITE)) {
                count++;
            }
        }
        return count;
    }

    /** Duplicate packets counted as discarded beyond the window as well as duplicates. */
    static Cause duplicatesDropped(final Blame.Choice choice) {
        return choice.cause(List.of("MR-ORD-011"), "drop_outside_window",
            "duplicate SEND or WRITE packets counted in drop_outside_window", Cause.Basis.COUNTERS);
    }

    /**
     * True when a request packet arrived after ePSN with an absolute PSN numerically below ePSN's: across the 2^24
     * wrap, where a comparison without modular arithmetic takes a new packet for an old one.
     */
    static boolean wraps(final FailureContext c) {
        final long base = c.psnBase() & Psn.MASK;
        final ResponderView view = ResponderView.of(List.of(), c.window());
        for (final SentPacket p : c.sent()) {
            if (!p.recordable()) {
                continue;
            }
            final long epsn = (base + view.ePsn()) % Psn.MODULUS;
            final long psn = (base + p.psn()) % Psn.MODULUS;
            if (p.psn() > view.ePsn() && psn < epsn) {
                return true;
            }
            view.accept(p);
        }
        return false;
    }
}

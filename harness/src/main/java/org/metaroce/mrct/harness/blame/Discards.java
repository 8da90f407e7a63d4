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
    private Discards() {
    }

    static Cause diagnose(final FailureContext c, final Blame.Choice choice) {
        if (c.counterChange() == null || c.sent().isEmpty()) {
            return null;
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

package org.metaroce.mrct.harness.blame;

import java.util.List;
import org.metaroce.mrct.harness.blame.Blame.Values;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Psn;

/**
 * Blames what READ and atomic execution got wrong: an MSN counting a READ or atomic request that a conforming
 * responder has not executed yet because PSNs before it are missing (MR-ORD-008), and an atomic acknowledgement whose
 * original value shows a duplicate executed again (MR-ATM-003).
 */
final class Execution {
    private Execution() {
    }

    static Cause diagnose(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        if (f == null || !f.isRoce()) {
            return null;
        }
        final List<SentPacket> before = c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()));
        if (f.opcode().kind() == OpKind.ATOMIC_ACKNOWLEDGE && c.differs("atomicacketh.orig")) {
            final int psn = Values.relative(f.bth().psn(), c.psnBase());
            final long sends = before.stream().filter(p -> p.valid() && p.executes() && p.psn() == psn).count();
            if (sends > 1) {
                return choice.cause(List.of("MR-ATM-003"), "atomicacketh.orig", "a duplicate atomic executed again",
                    Cause.Basis.MODEL);
            }
            // the right value in the wrong byte order: sent as memory holds it, not big-endian
            final Long expected = c.expectedValues().get("atomicacketh.orig");
            if (expected != null && expected != Long.reverseBytes(expected) && f.has(HeaderKind.ATOMIC_ACK_ETH)
                && f.atomicAckEth().original() == Long.reverseBytes(expected)) {
                return choice.cause(List.of("MR-ATM-008"), "atomicacketh.orig",
                    "atomicacketh.orig is the expected value byte-reversed", Cause.Basis.FIELD);
            }
        }
        for (final var diff : c.diffs()) {
            if (!diff.field().equals("aeth.msn")) {
                continue;
            }
            final long expected = Values.leadingNumber(diff.expected(), Long.MIN_VALUE);
            final long actual = Values.leadingNumber(diff.actual(), Long.MIN_VALUE);
            if (expected == Long.MIN_VALUE || actual == Long.MIN_VALUE || Psn.diff((int) actual, (int) expected) <= 0) {
                return null;
            }
            final ResponderView view = ResponderView.of(before, c.window());
            final boolean pending = before.stream().anyMatch(p -> p.valid() && p.executes() && p.psn() > view.ePsn()
                && p.psn() - view.ePsn() < c.window());
            return pending ? choice.cause(List.of("MR-ORD-008"), "aeth.msn",
                "a READ or atomic executed before every PSN before it had arrived", Cause.Basis.MODEL) : null;
        }
        return null;
    }
}

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
        final Cause zeroLength = zeroLengthRejected(c, choice, before);
        if (zeroLength != null) {
            return zeroLength;
        }
        final Cause segments = readSegments(c, choice, before);
        if (segments != null) {
            return segments;
        }
        final Cause rejected = inSequenceRejected(c, choice, before);
        if (rejected != null) {
            return rejected;
        }
        if (f.opcode().kind() == OpKind.ATOMIC_ACKNOWLEDGE && c.differs("atomicacketh.orig")) {
            final Long expected = c.expectedValues().get("atomicacketh.orig");
            if (expected != null && Long.reverseBytes(f.atomicAckEth().original()) == expected
                && Long.reverseBytes(expected) != expected) {
                return choice.cause(List.of("MR-ATM-008"), "atomicacketh.orig",
                    "atomicacketh.orig in memory byte order, not big-endian", Cause.Basis.MODEL);
            }
            final int psn = Values.relative(f.bth().psn(), c.psnBase());
            final long sends = before.stream().filter(p -> p.valid() && p.executes() && p.psn() == psn).count();
            if (sends > 1) {
                return choice.cause(List.of("MR-ATM-003"), "atomicacketh.orig", "a duplicate atomic executed again",
                    Cause.Basis.MODEL);
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
            // the MSN counts a READ or atomic the device executed. The evidence: a response it sent on a PSN at or
            // after the ePSN this very acknowledgement reports (a PSN before it still missing). A READ or atomic the
            // harness sent behind a hole is no evidence by itself: an MSN one too high for any reason (MR-ACK-003)
            // looks the same in that acknowledgement, and only the early response tells the two apart.
            final int epsn = f.has(HeaderKind.SACKETH) ? Values.relative(f.sacketh().basePsn(), c.psnBase()) : 0;
            final boolean answered = f.has(HeaderKind.SACKETH) && c.responded().stream()
                .anyMatch(psn -> Psn.diff(psn, epsn) >= 0 && Psn.diff(psn, epsn) < c.window());
            return answered ? choice.cause(List.of("MR-ORD-008"), "aeth.msn",
                "a READ or atomic executed before every PSN before it had arrived", Cause.Basis.MODEL)
                : reexecutionCounted(c, choice);
        }
        return null;
    }

    /**
     * A READ response or atomic acknowledgement sent while PSNs before its request were still missing (MR-ORD-008):
     * the device executed the request on arrival. Null when the frame answers no such request.
     */
    static Cause early(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        if (f == null || !f.isRoce() || f.opcode().kind() != OpKind.RDMA_READ_RESPONSE
            && f.opcode().kind() != OpKind.ATOMIC_ACKNOWLEDGE) {
            return null;
        }
        final List<SentPacket> before = c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()));
        final int psn = Values.relative(f.bth().psn(), c.psnBase());
        final ResponderView view = ResponderView.of(before, c.window());
        for (final SentPacket p : before) {
            if (p.recordable() && p.executes() && psn - p.psn() >= 0 && psn - p.psn() < p.span()
                && p.psn() > view.ePsn() && p.psn() - view.ePsn() < c.window()) {
                return choice.cause(List.of("MR-ORD-008"), "", "a READ or atomic executed before every PSN before "
                    + "it had arrived", Cause.Basis.MODEL);
            }
        }
        return null;
    }

    /**
     * A NAK 0x62 answering a WRITE or READ REQUEST with reth.dmalen 0, which no protection check applies to (MR-SEC-008),
     * where the step expected no such NAK.
     */
    private static Cause zeroLengthRejected(final FailureContext c, final Blame.Choice choice,
                                            final List<SentPacket> before) {
        final DecodedFrame f = c.actual();
        if (f.opcode().kind() != OpKind.ACKNOWLEDGE || !f.has(HeaderKind.AETH)
            || f.aeth().syndromeValue() != 0x62 || c.expectedOpcodes().contains("ACKNOWLEDGE")
            && c.expectedValues().containsKey("aeth.syndrome") && c.expectedValues().get("aeth.syndrome") == 0x62) {
            return null;
        }
        final int at = lastRequestAt(before, Values.relative(f.bth().psn(), c.psnBase()));
        return at >= 0 && before.get(at).length() == 0 ? choice.cause(List.of("MR-SEC-008"), "aeth.syndrome",
            "a request with reth.dmalen 0 rejected by a protection check", Cause.Basis.MODEL) : null;
    }

    /** The index of the last request the harness sent with relative PSN {@code psn}, or -1. */
    private static int lastRequestAt(final List<SentPacket> before, final int psn) {
        for (int i = before.size() - 1; i >= 0; i--) {
            if (before.get(i).isRequest() && before.get(i).psn() == psn) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A NAK 0x61 where the step expected another answer, naming a request the harness sent at the responder's ePSN (it
     * arrived in order, nothing before it missing). The checks that reject such a request on what came before it are
     * the sequence check of Table 4-2 (MR-ORD-007) and the RSN check V11, which counts the messages that consume a
     * receive WQE. A SEND or WRITE WITH IMMEDIATE rejected after plain RDMA WRITE messages completed: the device's
     * expected RSN is ahead, a plain WRITE consumed a receive WQE (MR-CMP-006). Another request rejected after ePSN
     * passed packets recorded out of order: the sequence state those packets left is wrong, they were not taken through
     * Table 4-2 at ePSN in PSN order (MR-ORD-007). Anything else, or a SEND where an RNR NAK was owed (V12 letting it
     * through to V13 answers the same): null.
     */
    private static Cause inSequenceRejected(final FailureContext c, final Blame.Choice choice,
                                            final List<SentPacket> before) {
        final DecodedFrame f = c.actual();
        if (f.opcode().kind() != OpKind.ACKNOWLEDGE || !f.has(HeaderKind.AETH) || f.aeth().syndromeValue() != 0x61
            || Long.valueOf(0x61).equals(c.expectedValues().get("aeth.syndrome"))) {
            return null;
        }
        final int psn = Values.relative(f.bth().psn(), c.psnBase());
        final int at = lastRequestAt(before, psn);
        if (at < 0 || !before.get(at).valid()) {
            return null;
        }
        final List<SentPacket> earlier = before.subList(0, at);
        final ResponderView view = ResponderView.of(earlier, c.window());
        if (view.ePsn() != psn) {
            return null; // not in order: other checks and other answers apply (PSNs recorded after it do not matter)
        }
        final SentPacket target = before.get(at);
        final boolean consumesWqe = target.opcode().kind() == OpKind.SEND
            || target.opcode().kind() == OpKind.RDMA_WRITE && target.opcode().hasImmediate();
        final boolean plainWrites = earlier.stream().anyMatch(p -> p.recordable() && p.psn() < psn
            && p.opcode().kind() == OpKind.RDMA_WRITE && p.opcode().position().isLast() && !p.opcode().hasImmediate());
        final Long expectedSyndrome = c.expectedValues().get("aeth.syndrome");
        final boolean rnrExpected = expectedSyndrome != null
            && org.metaroce.mrct.wire.AethSyndrome.valueOf(expectedSyndrome.intValue()).type()
                == org.metaroce.mrct.wire.AethSyndrome.Type.RNR_NAK;
        if (consumesWqe && plainWrites && !rnrExpected) {
            // (where an RNR NAK was owed, a device whose V12 let the SEND through to a later check answers the same)
            return choice.cause(List.of("MR-CMP-006"), "aeth.syndrome", "a SEND in sequence rejected with NAK 0x61 "
                + "after plain RDMA WRITEs, as if they had consumed receive WQEs", Cause.Basis.MODEL);
        }
        if (!consumesWqe && view.outOfOrderSeen()) {
            return choice.cause(List.of("MR-ORD-007"), "aeth.syndrome", "a request in sequence rejected with NAK 0x61 "
                + "after ePSN passed packets recorded out of order", Cause.Basis.MODEL);
        }
        return null;
    }

    /**
     * True when READ response {@code f} is on the last PSN of the span of the READ that holds it (ceil(L / PMTU) PSNs)
     * and the device sent no response after it on that span or just past it: a response that goes on past ceil(L /
     * PMTU) packets sends one more.
     */
    private static boolean endsRead(final FailureContext c, final List<SentPacket> before, final DecodedFrame f) {
        final int psn = Values.relative(f.bth().psn(), c.psnBase());
        for (int i = before.size() - 1; i >= 0; i--) {
            final SentPacket p = before.get(i);
            if (p.valid() && p.opcode().kind() == OpKind.RDMA_READ_REQUEST && p.length() > 0
                && Psn.diff(psn, p.psn()) >= 0 && Psn.diff(psn, p.psn()) < p.span()) {
                final boolean later = c.responded().stream().anyMatch(r -> Psn.diff(r, psn) > 0
                    && Psn.diff(r, p.psn()) <= p.span());
                return Psn.diff(psn, p.psn()) == p.span() - 1 && !later;
            }
        }
        return false;
    }

    /**
     * An MSN higher than expected by no more than the number of duplicate READ REQUESTs the harness had sent before
     * the frame (before ePSN, so re-executed, not executed: MR-RD-011). Null otherwise.
     */
    private static Cause reexecutionCounted(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        if (f == null || !f.isRoce() || !f.has(HeaderKind.AETH)) {
            return null;
        }
        for (final var diff : c.diffs()) {
            if (!diff.field().equals("aeth.msn")) {
                continue;
            }
            final long expected = Values.leadingNumber(diff.expected(), Long.MIN_VALUE);
            final long actual = Values.leadingNumber(diff.actual(), Long.MIN_VALUE);
            if (expected == Long.MIN_VALUE || actual == Long.MIN_VALUE) {
                return null;
            }
            final int excess = Psn.diff((int) actual, (int) expected);
            final ResponderView view = ResponderView.of(List.of(), c.window());
            int duplicateReads = 0;
            for (final SentPacket p : c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()))) {
                view.accept(p);
                if (p.recordable() && view.lastPacket() == p && view.lastArrival() == ResponderView.Arrival.DUPLICATE
                    && p.opcode().kind() == OpKind.RDMA_READ_REQUEST) {
                    duplicateReads++;
                }
            }
            return excess > 0 && excess <= duplicateReads ? choice.cause(List.of("MR-RD-011"), "aeth.msn",
                "aeth.msn counts duplicate READs the device re-executed", Cause.Basis.MODEL) : null;
        }
        return null;
    }

    /**
     * A READ response of the wrong position in its response (Table 8-1): one that restarts the response of a duplicate
     * READ at its first byte (MR-RD-009), one that goes on where the response must end or ends early (the count of
     * response packets, MR-RD-002), else a wrong opcode for the right count (MR-RD-003).
     */
    private static Cause readSegments(final FailureContext c, final Blame.Choice choice,
                                      final List<SentPacket> before) {
        final DecodedFrame f = c.actual();
        final Long psn = c.expectedValues().get("bth.psn");
        if (f.opcode().kind() == OpKind.RDMA_READ_RESPONSE && psn != null && c.differs("bth.psn")
            && Psn.diff(Values.relative(f.bth().psn(), c.psnBase()), psn.intValue()) > 0) {
            // a response for a later PSN where a lower one was due: the read's responses out of PSN order
            return choice.cause(List.of("MR-RD-006"), "bth.psn", "a READ response sent ahead of a lower PSN still owed",
                Cause.Basis.MODEL);
        }
        if (f.opcode().kind() != OpKind.RDMA_READ_RESPONSE || !c.differs("bth.opcode")
            || c.expectedOpcodes().size() != 1 || !c.expectedOpcodes().get(0).startsWith("RDMA_READ_RESPONSE_")) {
            return null;
        }
        final String expected = c.expectedOpcodes().get(0);
        final boolean expectedEnds = expected.endsWith("_LAST") || expected.endsWith("_ONLY");
        final boolean actualEnds = f.opcode().position().isLast();
        final boolean expectedStarts = expected.endsWith("_FIRST") || expected.endsWith("_ONLY");
        final boolean actualStarts = f.opcode().position().isFirst();
        final ResponderView view = ResponderView.of(before, c.window());
        if (actualStarts && !expectedStarts && view.lastPacket() != null
            && view.lastArrival() == ResponderView.Arrival.DUPLICATE
            && view.lastPacket().opcode().kind() == OpKind.RDMA_READ_REQUEST) {
            return choice.cause(List.of("MR-RD-009"), "bth.opcode",
                "a duplicate READ re-executed from its first byte", Cause.Basis.MODEL);
        }
        if (!actualEnds && expectedEnds && expectedStarts == actualStarts && endsRead(c, before, f)) {
            // the packet carries the read's last bytes and nothing follows it on the read's span: the count of
            // response packets is right (ceil(L / PMTU)), the opcode of the last one is not (Table 8-1)
            return choice.cause(List.of("MR-RD-003"), "bth.opcode",
                "the last response of a READ sent as a MIDDLE", Cause.Basis.MODEL);
        }
        if (expectedEnds != actualEnds && expectedStarts == actualStarts) {
            return choice.cause(List.of("MR-RD-002"), "bth.opcode", actualEnds
                ? "a READ response ended before ceil(L / PMTU) packets" : "a READ response went on past ceil(L / PMTU) "
                + "packets", Cause.Basis.MODEL);
        }
        return choice.cause(List.of("MR-RD-003"), "bth.opcode", "a READ response packet with the wrong opcode",
            Cause.Basis.MODEL);
    }
}

package org.metaroce.mrct.harness.blame;

import java.util.List;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.OpKind;

/**
 * Blames a frame the device owed and did not send, or sent when it owed none, from what the harness had sent last:
 * the acknowledgement events of Table 5-2 (MR-ACK-004 to 007), CNPs for CE-marked requests and read responses
 * (MR-CC-003, MR-CC-004), read responses and atomic acknowledgements (MR-RD-002, MR-RD-009, MR-ATM-004, MR-ATM-005),
 * and answers to frames that a device must drop silently.
 */
final class Owed {
    private Owed() {
    }

    static Cause missing(final FailureContext c, final Blame.Choice choice) {
        final List<String> opcodes = c.expectedOpcodes();
        if (opcodes.contains("CNP")) {
            final SentPacket marked = lastMarked(c);
            if (marked != null && marked.opcode().kind() == OpKind.RDMA_READ_RESPONSE) {
                return choice.cause(List.of("MR-CC-004"), "", "no CNP after a CE-marked read response",
                    Cause.Basis.MODEL);
            }
            if (marked != null && marked.isRequest()) {
                return choice.cause(List.of("MR-CC-003"), "", "no CNP after a CE-marked request", Cause.Basis.MODEL);
            }
            return null;
        }
        final ResponderView view = ResponderView.of(c.sent(), c.window());
        if (view.lastPacket() == null) {
            return null;
        }
        if (opcodes.contains("ACKNOWLEDGE") && expectsPlainAck(c)) {
            // a TVer 0 acknowledgement is owed under the legacy rules (appendix D), not those of section 5
            final boolean legacy = Long.valueOf(0).equals(c.expectedValues().get("bth.tver"));
            return switch (view.lastArrival()) {
                case IN_ORDER -> view.lastPacket().ackReq()
                    ? choice.cause(List.of(legacy ? "MR-LEG-005" : "MR-ACK-005"), "",
                        "no ACK for an in-order packet with AckReq", Cause.Basis.MODEL)
                    : closedHole(view) ? choice.cause(List.of("MR-ACK-008", "MR-ORD-005"), "",
                        "no ACK when ePSN had to pass PSNs recorded out of order", Cause.Basis.MODEL)
                    : null;
                case OUT_OF_ORDER -> choice.cause(List.of("MR-ACK-004"), "", "no ACK for a packet after ePSN",
                    Cause.Basis.MODEL);
                case DUPLICATE -> choice.cause(List.of(legacy ? "MR-LEG-004" : "MR-ACK-006"), "",
                    "no ACK for a duplicate", Cause.Basis.MODEL);
                case BEYOND_WINDOW -> choice.cause(List.of("MR-ACK-007"), "",
                    "no ACK for a packet beyond the window", Cause.Basis.MODEL);
                case NONE -> null;
            };
        }
        final boolean duplicate = view.lastArrival() == ResponderView.Arrival.DUPLICATE;
        final boolean answerOwed = opcodes.contains("ATOMIC_ACKNOWLEDGE")
            || opcodes.stream().anyMatch(o -> o.startsWith("RDMA_READ_RESPONSE"));
        if (answerOwed && c.reportedEpsn() != null && org.metaroce.mrct.wire.Psn.diff(view.ePsn(), c.reportedEpsn()) > 0
            && hasExecutable(c, c.reportedEpsn(), view.ePsn())) {
            // the device's own ACK after the last request shows its ePSN short of PSNs that had all arrived, and a READ
            // or atomic among them: it never reached the request to execute it (section 4.3), the answer is a symptom
            return choice.cause(List.of("MR-ORD-005"), "sacketh.base", "ePSN stopped before PSNs that arrived",
                Cause.Basis.MODEL);
        }
        if (opcodes.stream().anyMatch(o -> o.startsWith("RDMA_READ_RESPONSE"))
            && view.lastPacket().opcode().kind() == OpKind.RDMA_READ_REQUEST) {
            // a later response of a READ whose responses began is late rather than absent: on a QP that received no CNP,
            // where the case (or the step, first among its rules) is about it, paced by a CNP that named another QP
            final boolean lateWithoutCnp = !c.responded().isEmpty() && !opcodes.contains("RDMA_READ_RESPONSE_FIRST")
                && !opcodes.contains("RDMA_READ_RESPONSE_ONLY") && c.sent().stream().noneMatch(p -> p.opcode().kind()
                    == OpKind.CNP);
            if (!duplicate && lateWithoutCnp && "MR-CC-016".equals(choice.pick(List.of("MR-RD-002", "MR-CC-016")))) {
                return choice.cause(List.of("MR-CC-016"), "", "a read response late on a QP that received no CNP",
                    Cause.Basis.MODEL);
            }
            return duplicate
                ? choice.cause(List.of("MR-RD-009"), "", "no response to a duplicate READ REQUEST", Cause.Basis.MODEL)
                : choice.cause(List.of("MR-RD-002"), "", "no response to a READ REQUEST", Cause.Basis.MODEL);
        }
        if (opcodes.contains("ATOMIC_ACKNOWLEDGE")) {
            return duplicate
                ? choice.cause(List.of("MR-ATM-005"), "", "no ATOMIC ACKNOWLEDGE for a duplicate atomic",
                    Cause.Basis.MODEL)
                : choice.cause(List.of("MR-ATM-004"), "", "no ATOMIC ACKNOWLEDGE for an atomic request",
                    Cause.Basis.MODEL);
        }
        return null;
    }

    static Cause unexpected(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        if (f == null || !f.isRoce()) {
            return null;
        }
        final SentPacket last = c.sent().isEmpty() ? null : c.sent().get(c.sent().size() - 1);
        if (f.opcode().kind() == OpKind.CNP) {
            final SentPacket dropped = onlyDroppedMarked(c);
            if (dropped != null) {
                // every CE mark before it was on a frame the device had to drop before looking at its ECN: the rule
                // that drops the first of them (as acceptedInvalid does for ACKs)
                return choice.cause(List.of(dropped.dropRule()), "", "a CNP for a CE-marked frame it must drop",
                    Cause.Basis.MODEL);
            }
            final SentPacket marked = lastMarked(c);
            if (marked != null && (marked.opcode().kind() == OpKind.ACKNOWLEDGE
                || marked.opcode().kind() == OpKind.CNP)) {
                return choice.cause(List.of("MR-CC-008"), "", "a CNP for a CE-marked acknowledgement or CNP",
                    Cause.Basis.MODEL);
            }
            if (Boolean.TRUE.equals(c.cnpWithinInterval())) {
                return choice.cause(List.of("MR-CC-005"), "", "a CNP within cnp_interval_ns of the last",
                    Cause.Basis.MODEL);
            }
            if (Boolean.FALSE.equals(c.cnpWithinInterval())) {
                return choice.cause(List.of("MR-CC-006"), "", "a CNP for an indication that arrived while holding",
                    Cause.Basis.MODEL);
            }
            return choice.cause(List.of("MR-CC-005", "MR-CC-006"), "", "a CNP within cnp_interval_ns of the last",
                Cause.Basis.MODEL);
        }
        final Cause early = Execution.early(c, choice);
        if (early != null) {
            return early;
        }
        if (last != null && !last.valid()) {
            return choice.cause(List.of(last.dropRule(), "MR-ROB-003"), "",
                "an answer to a frame that must be dropped silently", Cause.Basis.MODEL);
        }
        return answeredResponse(c, choice);
    }

    /**
     * An acknowledgement from the device with no request it could answer, the last frame it had received being a
     * response or a CNP (MR-ACK-014): where no frame was expected, or where it came in place of another frame.
     */
    static Cause answeredResponse(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame f = c.actual();
        if (f == null || !f.isRoce() || f.opcode().kind() != OpKind.ACKNOWLEDGE) {
            return null;
        }
        final int sentBefore = Math.min(c.sentBefore(), c.sent().size());
        final SentPacket previous = sentBefore == 0 ? null : c.sent().get(sentBefore - 1);
        final boolean requests = c.sent().subList(0, sentBefore).stream().anyMatch(SentPacket::isRequest);
        if (previous != null && previous.valid() && !previous.isRequest() && (c.requester() || !requests)) {
            // no request it could answer: the last frame the device had received was a response or a CNP
            return choice.cause(List.of("MR-ACK-014"), "", "an acknowledgement in answer to a response or CNP",
                Cause.Basis.MODEL);
        }
        return null;
    }

    /**
     * True when the last packet arrived at ePSN and ePSN then had to pass PSNs recorded out of order: a hole closed,
     * which owes an ACK (MR-ACK-008, a SHOULD; under a MUST verdict, ePSN not passing them, MR-ORD-005, is what
     * leaves no hole to close).
     */
    private static boolean closedHole(final ResponderView view) {
        final SentPacket last = view.lastPacket();
        return org.metaroce.mrct.wire.Psn.diff(view.ePsn(), last.psn() + last.span()) > 0;
    }

    /** True when a valid READ REQUEST or atomic request the harness sent has its PSN in [from, to). */
    private static boolean hasExecutable(final FailureContext c, final int from, final int to) {
        return c.sent().stream().anyMatch(p -> p.recordable() && p.executes()
            && org.metaroce.mrct.wire.Psn.diff(p.psn(), from) >= 0 && org.metaroce.mrct.wire.Psn.diff(p.psn(), to) < 0);
    }

    private static boolean expectsPlainAck(final FailureContext c) {
        final Long syndrome = c.expectedValues().get("aeth.syndrome");
        return syndrome == null || AethSyndrome.valueOf(syndrome.intValue()).type() == AethSyndrome.Type.ACK;
    }

    /**
     * The first CE-marked frame sent before the offending one when every CE-marked frame before it is one a conforming
     * device drops silently; null otherwise.
     */
    private static SentPacket onlyDroppedMarked(final FailureContext c) {
        SentPacket first = null;
        for (final SentPacket p : c.sent().subList(0, Math.min(c.sentBefore(), c.sent().size()))) {
            if (!p.ce()) {
                continue;
            }
            if (p.valid()) {
                return null;
            }
            first = first == null ? p : first;
        }
        return first;
    }

    private static SentPacket lastMarked(final FailureContext c) {
        for (int i = c.sent().size() - 1; i >= 0; i--) {
            if (c.sent().get(i).ce()) {
                return c.sent().get(i);
            }
        }
        return null;
    }
}

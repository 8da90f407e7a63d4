package org.metaroce.mrct.harness.blame;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Psn;

/**
 * Decides which rule a failed case blames: the rule that governs what was wrong. In order: the harness's model of the
 * packets it sent (which acknowledgement field is wrong, which acknowledgement or CNP a conforming device owed), the
 * device's counters (a device that discarded what it had to accept), a rule a check named itself, the table of rules
 * governing each field ({@link FieldRules}), and last the case's first rule. A candidate rule weaker than the verdict
 * (a SHOULD rule for a FAIL) is never blamed. Deterministic: the same context gives the same cause.
 */
public final class Blame {
    private final Specification spec;
    private final FieldRules table;

    public Blame(final Specification spec) {
        this.spec = spec;
        this.table = FieldRules.bundled(spec);
    }

    /** The table of field rules in use. */
    public FieldRules table() {
        return table;
    }

    /** The cause of a failure whose verdict rests on rules of {@code level} at least. */
    public Cause cause(final FailureContext c, final Level level) {
        final Choice choice = new Choice(c.caseRules(), level);
        Cause cause = first(first(Initial.diagnose(c, choice), Discards.validDropped(c, choice)),
            Rejections.wrongRight(c, choice));
        cause = cause != null || c.shape() == FailureShape.FRAME_MISMATCH ? cause : Discards.diagnose(c, choice);
        if (cause == null && "MR-ACK-010".equals(c.checkRule()) && choice.allowed("MR-ACK-010")) {
            // the oracle saw the cumulative point move back below one already reported: that is the fault, and the
            // PSNs it leaves unreported are its consequence (not recorded packets discarded, MR-ORD-006)
            cause = new Cause("MR-ACK-010", c.diffs().isEmpty() ? "" : c.diffs().get(0).field(),
                "the cumulative acknowledgement moved back", Cause.Basis.CHECK);
        }
        if (cause == null && c.sentInError() && c.actual() != null && (c.shape() == FailureShape.FRAME_UNEXPECTED
            || c.shape() == FailureShape.FRAME_MISMATCH) && choice.allowed("MR-QP-005")) {
            // the QP was in ERROR (the case put it there or saw it there) when the frame left: whatever the frame is
            // (a CNP, an acknowledgement, a response), a QP in ERROR sends nothing
            cause = new Cause("MR-QP-005", "bth.opcode", "a frame sent by a QP in ERROR", Cause.Basis.MODEL);
        }
        if (cause == null && "MR-REQ-006".equals(c.checkRule())) {
            cause = Requests.extraPacket(c, choice);
        }
        cause = cause != null ? cause : switch (c.shape()) {
            case FRAME_MISMATCH -> first(first(Acknowledgements.diagnose(c, choice), Execution.diagnose(c, choice)),
                c.expectedOpcodes().contains("ACKNOWLEDGE") ? null : Owed.answeredResponse(c, choice));
            case FRAME_MISSING -> Owed.missing(c, choice);
            case FRAME_UNEXPECTED -> Owed.unexpected(c, choice);
            case COMPLETIONS -> completions(c, choice);
            case COUNTERS -> counters(c, choice);
            case MEMORY -> memory(c, choice);
            case CONTROL, OTHER -> null;
        };
        if (cause == null && c.checkRule() != null) {
            cause = new Cause(c.checkRule(), c.diffs().isEmpty() ? "" : c.diffs().get(0).field(),
                c.diffs().isEmpty() ? "" : pattern(c.diffs().get(0)), Cause.Basis.CHECK);
        }
        if (cause == null) {
            cause = fields(c, choice);
        }
        if (cause == null) {
            final String rule = c.caseRules().isEmpty() ? "" : c.caseRules().get(0);
            cause = new Cause(rule, c.diffs().isEmpty() ? "" : c.diffs().get(0).field(),
                c.diffs().isEmpty() ? "" : pattern(c.diffs().get(0)), Cause.Basis.CASE);
        }
        return cause;
    }

    private Cause fields(final FailureContext c, final Choice choice) {
        final Long syndrome = c.expectedValues().get("aeth.syndrome");
        if (syndrome != null && AethSyndrome.valueOf(syndrome.intValue()).type() == AethSyndrome.Type.RNR_NAK
            && c.differs("aeth.syndrome") && c.actual() != null && c.actual().isRoce()
            && c.actual().has(HeaderKind.AETH) && AethSyndrome.valueOf(c.actual().aeth().syndromeValue()).type()
                == AethSyndrome.Type.RNR_NAK) {
            // the packet was rejected as it had to be, with the wrong timer code in the RNR NAK: the code put in it
            // (MR-ACK-012) or, where the case is about it, a QP attribute that a rejected modification changed
            return choice.cause(List.of("MR-ACK-012", "MR-QP-009"), "aeth.syndrome",
                "an RNR NAK whose timer code is not the QP's min_rnr_timer", Cause.Basis.FIELD);
        }
        if (syndrome != null && syndrome.intValue() == AethSyndrome.NAK_PSN_SEQUENCE_ERROR.value() && c.tver() == 0
            && (c.differs("aeth.syndrome") || c.differs("bth.opcode"))) {
            // appendix D: a TVer 0 responder discards a packet after a hole and answers the first with NAK 0x60. An
            // ACK in the NAK's place says the packet was taken (MR-LEG-002); another frame, that the NAK was not sent
            return Values.isAck(c.actual())
                ? choice.cause(List.of("MR-LEG-002"), "aeth.syndrome", "a TVer 0 request after a hole taken (an ACK "
                    + "where NAK 0x60 was due)", Cause.Basis.FIELD)
                : choice.cause(List.of("MR-LEG-003"), "aeth.syndrome", "no NAK 0x60 for a TVer 0 request after a hole",
                    Cause.Basis.FIELD);
        }
        if (syndrome != null && AethSyndrome.valueOf(syndrome.intValue()).type() != AethSyndrome.Type.ACK
            && (c.differs("aeth.syndrome") || c.differs("bth.opcode"))) {
            // the device did not reject what it had to: the rule of the failed check, by the NAK code expected
            return choice.cause(rejections(AethSyndrome.valueOf(syndrome.intValue())), "aeth.syndrome",
                "no " + AethSyndrome.valueOf(syndrome.intValue()).name() + " for a request that must be rejected",
                Cause.Basis.FIELD);
        }
        if (c.differs("bth.opcode") || c.differs("aeth.syndrome") && FieldRules.kind(c.actual()).equals("nak")) {
            return null; // another kind of frame than expected: its other fields differ as a consequence
        }
        final String kind = FieldRules.kind(c.actual());
        Cause msn = null;
        for (final FieldDiff diff : c.diffs()) {
            final String rule = choice.pick(table.rules(diff.field(), kind));
            if (rule == null) {
                continue;
            }
            final Cause cause = new Cause(rule, diff.field(), pattern(diff), Cause.Basis.FIELD);
            if (!diff.field().equals("aeth.msn")) {
                return cause;
            }
            msn = msn == null ? cause : msn; // the MSN often differs as a consequence of another field: last resort
        }
        return msn;
    }

    /** The rules whose check answers with {@code nak}, most common first (spec Tables 6-2, 10-1 and 4-2). */
    private static List<String> rejections(final AethSyndrome nak) {
        if (nak.type() == AethSyndrome.Type.RNR_NAK) {
            return List.of("MR-PLC-014");
        }
        return switch (nak.value()) {
            case 0x62 -> List.of("MR-SEC-001", "MR-SEC-005", "MR-SEC-003", "MR-SEC-004", "MR-SEC-002", "MR-SEC-007",
                "MR-CMP-010", "MR-RD-010");
            case 0x61 -> List.of("MR-PLC-007", "MR-PLC-008", "MR-PLC-009", "MR-PLC-010", "MR-PLC-011", "MR-PLC-012",
                "MR-PLC-013", "MR-PLC-015", "MR-ORD-004", "MR-ORD-007", "MR-RD-008", "MR-RD-010", "MR-ATM-007");
            default -> List.of("MR-ACK-011");
        };
    }

    private Cause counters(final FailureContext c, final Choice choice) {
        for (final FieldDiff diff : c.diffs()) {
            if (diff.actual().startsWith("not kept")) {
                return choice.cause(List.of("MR-CONF-003"), diff.field(), "a counter of Table C-1 not kept",
                    Cause.Basis.FIELD);
            }
        }
        if (higher(c, "duplicate_received") && lower(c, "drop_outside_window")) {
            // a packet beyond the window taken for a duplicate: Table 4-1's classification, not the discard
            return choice.cause(List.of("MR-ORD-001"), "duplicate_received",
                "a packet beyond the window classed as a duplicate", Cause.Basis.FIELD);
        }
        final long excess = excess(c, "drop_outside_window");
        if (excess > 0 && !lower(c, "duplicate_received") && !c.requester()
            && excess == Discards.duplicatesBefore(c.sent(), c.window())) {
            // as many more discards beyond the window as the harness sent duplicates before ePSN
            return Discards.duplicatesDropped(choice);
        }
        if (c.requester() && c.tver() == 0 && higher(c, "timeouts")) {
            // a TVer 0 requester resends every in-flight PSN from una at an expiry, so one expiry recovers what the
            // case lost: more expiries mean it resent less each time (appendix D), not that timeouts are miscounted
            return choice.cause(List.of("MR-LEG-009"), "timeouts", "more retransmission timer expiries than a "
                + "go-back-N recovery needs", Cause.Basis.COUNTERS);
        }
        for (final FieldDiff diff : c.diffs()) {
            final String rule = choice.pick(table.counterRules(diff.field()));
            if (rule != null) {
                return new Cause(rule, diff.field(), pattern(diff), Cause.Basis.FIELD);
            }
        }
        return null;
    }

    /** How much more counter {@code field} changed than the case expected (0 when not more, or not compared). */
    private static long excess(final FailureContext c, final String field) {
        return c.diffs().stream().filter(d -> d.field().equals(field)).mapToLong(d -> Math.max(0,
            Values.leadingNumber(d.actual(), 0) - Values.leadingNumber(d.expected(), 0))).findFirst().orElse(0);
    }

    /** True when counter {@code field} changed more than the case expected. */
    private static boolean higher(final FailureContext c, final String field) {
        return c.diffs().stream().anyMatch(d -> d.field().equals(field)
            && Values.leadingNumber(d.actual(), Long.MIN_VALUE) > Values.leadingNumber(d.expected(), Long.MAX_VALUE));
    }

    /** True when counter {@code field} changed less than the case expected. */
    private static boolean lower(final FailureContext c, final String field) {
        return c.diffs().stream().anyMatch(d -> d.field().equals(field)
            && Values.leadingNumber(d.actual(), Long.MAX_VALUE) < Values.leadingNumber(d.expected(), Long.MIN_VALUE));
    }

    private static Cause first(final Cause a, final Cause b) {
        return a != null ? a : b;
    }

    /**
     * Memory written for a request the device rejected: nothing of it may be placed (MR-PLC-016, MR-SEC-006), unless
     * the failing step names MR-QP-006 as its own rule: the bytes it checks are at risk only from frames sent to a QP
     * in ERROR.
     */
    private static Cause memory(final FailureContext c, final Choice choice) {
        final String field = c.diffs().isEmpty() ? "" : c.diffs().get(0).field();
        final int bracket = field.indexOf('[');
        final String region = bracket > 0 ? field.substring(0, bracket) : field;
        if (!c.caseRules().isEmpty() && "MR-QP-006".equals(c.caseRules().get(0))) {
            return choice.cause(List.of("MR-QP-006"), region, "memory written on behalf of a frame a QP in ERROR "
                + "received", Cause.Basis.CASE);
        }
        if (c.requester()) {
            // the requester writes its own memory only with read responses' payloads (Table 6-1, MR-PLC-003; appendix
            // D for TVer 0, and never twice, MR-ROB-010) and atomics' original values (MR-CMP-014): the case's own
            // rule among them, else the placement of read responses
            return choice.cause(List.of("MR-PLC-003", "MR-CMP-014", "MR-LEG-010", "MR-ROB-010", "MR-ROB-009"), region,
                "memory the requester wrote differs", Cause.Basis.FIELD);
        }
        final Cause arrival = Rejections.placedPastArrivalCheck(c, choice, region);
        if (arrival != null) {
            return arrival;
        }
        if (c.naks().contains(0x61)) {
            return choice.cause(List.of("MR-PLC-016"), region, "payload of a request rejected with NAK 0x61 placed",
                Cause.Basis.MODEL);
        }
        if (c.naks().contains(0x62)) {
            return choice.cause(List.of("MR-SEC-006"), region, "payload of a request rejected with NAK 0x62 placed",
                Cause.Basis.MODEL);
        }
        return null;
    }

    /** Completions: out of order, early or missing, or with wrong fields (spec section 7). */
    private static Cause completions(final FailureContext c, final Choice choice) {
        if (c.requester()) {
            return sendQueueCompletions(c, choice);
        }
        for (final FieldDiff diff : c.diffs()) {
            if (diff.field().equals("completions")) {
                final long expected = Values.leadingNumber(diff.expected(), -1);
                final long actual = Values.leadingNumber(diff.actual(), -1);
                if (expected >= 0 && actual > expected) {
                    return choice.cause(List.of("MR-CMP-002", "MR-CMP-003", "MR-CMP-005", "MR-ORD-009",
                        "MR-CMP-006"), "completions", "a completion before its message had fully arrived or more "
                        + "completions than messages", Cause.Basis.FIELD);
                }
                // fewer: messages that completed without a completion, or WQEs of a QP in ERROR not flushed
                return choice.cause(List.of("MR-CMP-002", "MR-CMP-003", "MR-QP-007"), "completions",
                    "fewer completions than completed messages or flushed WQEs", Cause.Basis.FIELD);
            }
        }
        if (c.diffs().stream().anyMatch(d -> d.field().equals("opcode") && d.actual().startsWith("RECV_RDMA_WITH_IMM"))
            && c.sent().stream().noneMatch(p -> p.isRequest() && p.opcode().kind() == OpKind.RDMA_WRITE
                && p.opcode().hasImmediate())) {
            // Table 7-1: only an RDMA WRITE WITH IMMEDIATE completes a receive WQE with this opcode, and the harness
            // sent none (not even one rejected later): a plain WRITE consumed the WQE
            return choice.cause(List.of("MR-CMP-006"), "opcode", "a receive completion for an RDMA WRITE without "
                + "immediate data", Cause.Basis.MODEL);
        }
        if (c.differs("wr_id")) {
            return choice.cause(List.of("MR-CMP-003", "MR-CMP-011"), "wr_id", "completions out of order",
                Cause.Basis.FIELD);
        }
        if (c.differs("status")) {
            return choice.cause(List.of("MR-QP-007", "MR-CMP-004"), "status", "completion status differs",
                Cause.Basis.FIELD);
        }
        if (!c.diffs().isEmpty()) {
            final String field = c.diffs().get(0).field();
            return choice.cause(List.of("MR-CMP-004", "MR-CMP-005", "MR-CMP-014"), field,
                "completion " + field + " differs", Cause.Basis.FIELD);
        }
        return null;
    }

    /** The device's send-queue completions (section 7.5): early, out of posting order, or with a wrong status. */
    private static Cause sendQueueCompletions(final FailureContext c, final Choice choice) {
        if (c.differs("completions")) {
            final FieldDiff diff = c.diffs().stream().filter(d -> d.field().equals("completions")).findFirst()
                .orElseThrow();
            final long expected = Values.leadingNumber(diff.expected(), -1);
            final long actual = Values.leadingNumber(diff.actual(), -1);
            return expected >= 0 && actual > expected
                ? choice.cause(List.of("MR-CMP-012", "MR-CMP-013", "MR-CMP-014"), "completions",
                    "a work request completed before its acknowledgement", Cause.Basis.FIELD)
                : choice.cause(List.of("MR-CMP-012", "MR-CMP-013", "MR-CMP-014"), "completions",
                    "a work request did not complete once acknowledged", Cause.Basis.FIELD);
        }
        if (c.differs("wr_id")) {
            return choice.cause(List.of("MR-CMP-011"), "wr_id", "send-queue completions out of posting order",
                Cause.Basis.FIELD);
        }
        if (c.differs("status")) {
            return choice.cause(List.of("MR-CMP-016", "MR-QP-007", "MR-RTX-010"), "status",
                "completion status differs", Cause.Basis.FIELD);
        }
        return null;
    }

    /** A value-free description of a field diff: which field, and for two numbers which way it is off. */
    static String pattern(final FieldDiff diff) {
        final int bracket = diff.field().indexOf('[');
        if (bracket > 0 && diff.field().endsWith("]")) {
            return "memory of " + diff.field().substring(0, bracket) + " differs"; // a region at some offset
        }
        final long expected = Values.leadingNumber(diff.expected(), Long.MIN_VALUE);
        final long actual = Values.leadingNumber(diff.actual(), Long.MIN_VALUE);
        if (expected != Long.MIN_VALUE && actual != Long.MIN_VALUE && !diff.field().equals("sacketh.bitmap")) {
            final long delta = actual - expected;
            if (delta == 1 || delta == -1) {
                return diff.field() + " one " + (delta > 0 ? "higher" : "lower") + " than expected";
            }
            return diff.field() + " " + (delta > 0 ? "higher" : "lower") + " than expected";
        }
        return diff.field() + " differs";
    }

    /**
     * Picks among candidate rules: the first the case cites, else the first; never one weaker than the verdict's
     * level or unknown to the specification.
     */
    final class Choice {
        private final List<String> caseRules;
        private final Level level;

        Choice(final List<String> caseRules, final Level level) {
            this.caseRules = caseRules;
            this.level = level;
        }

        /** The first of the case's rules that is a candidate, else the first candidate; both strong enough. */
        String pick(final List<String> candidates) {
            for (final String id : caseRules) {
                if (candidates.contains(id) && allowed(id)) {
                    return id;
                }
            }
            for (final String id : candidates) {
                if (allowed(id)) {
                    return id;
                }
            }
            return null;
        }

        Cause cause(final List<String> candidates, final String field, final String pattern, final Cause.Basis basis) {
            final String rule = pick(candidates);
            return rule == null ? null : new Cause(rule, field, pattern, basis);
        }

        /** True when the specification knows {@code id} and it is strong enough for the verdict. */
        boolean allowed(final String id) {
            final Rule rule = spec.rule(id);
            return rule != null && rule.level().ordinal() <= level.ordinal();
        }
    }

    /** Reading numbers back out of the text of field diffs and frames. */
    static final class Values {
        private Values() {
        }

        /** The number a diff text starts with ({@code "5 (0x5)"}, {@code "0x4000000000000000"}), or {@code dflt}. */
        static long leadingNumber(final String text, final long dflt) {
            if (text == null) {
                return dflt;
            }
            final String stripped = text.strip();
            final String t = stripped.startsWith("+") ? stripped.substring(1) : stripped;
            final int start = t.startsWith("-") ? 1 : 0;
            final boolean hex = t.startsWith("0x", start);
            final int digits = hex ? start + 2 : start;
            int end = digits;
            while (end < t.length() && Character.digit(t.charAt(end), hex ? 16 : 10) >= 0) {
                end++;
            }
            if (end == digits || end < t.length() && !Character.isWhitespace(t.charAt(end))) {
                return dflt;
            }
            try {
                final long value = hex ? Long.parseUnsignedLong(t.substring(digits, end), 16)
                    : Long.parseLong(t.substring(digits, end));
                return start == 1 ? -value : value;
            } catch (NumberFormatException e) {
                return dflt;
            }
        }

        /** True for an ACKNOWLEDGE frame whose syndrome is a plain ACK, with a SACKETH (TVer 1) or without. */
        static boolean isAck(final DecodedFrame f) {
            return f != null && f.isRoce() && f.opcode().kind() == OpKind.ACKNOWLEDGE && f.has(HeaderKind.AETH)
                && AethSyndrome.valueOf(f.aeth().syndromeValue()).type() == AethSyndrome.Type.ACK;
        }

        /** True for an ACKNOWLEDGE frame whose syndrome is a plain ACK. */
        static boolean isPlainAck(final DecodedFrame f) {
            return f != null && f.isRoce() && f.opcode().kind() == OpKind.ACKNOWLEDGE && f.has(HeaderKind.AETH)
                && f.has(HeaderKind.SACKETH)
                && AethSyndrome.valueOf(f.aeth().syndromeValue()).type() == AethSyndrome.Type.ACK;
        }

        /** {@code psn} relative to {@code base} (script space). */
        static int relative(final int psn, final int base) {
            return Psn.diff(psn, base);
        }

        /** The change of {@code counter}, or 0. */
        static long change(final Map<String, Long> changes, final String counter) {
            final Long value = changes == null ? null : changes.get(counter);
            return value == null ? 0 : value;
        }
    }
}

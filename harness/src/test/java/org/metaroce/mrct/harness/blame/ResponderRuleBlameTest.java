package org.metaroce.mrct.harness.blame;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Opcode;

/**
 * Blame that names a responder fault's own rule where a neighbouring rule was named before, on hand-built situations,
 * each with a twin that keeps the rule quiet: an ACK reporting its own ePSN recorded (MR-ORD-005, not the go-back-N
 * discard MR-ORD-002 a case cites), a receive completion for a WRITE without immediate data (MR-CMP-006), an
 * acknowledgement in place of a request after a response (MR-ACK-014), a valid request from a low UDP source port
 * dropped (MR-MP-005), bytes placed for a packet failing V4 (MR-PLC-010) and a NAK 0x62 for a request whose region
 * grants the right it needs (MR-SEC-004). PSNs are relative to {@link #BASE}; W is 128.
 */
class ResponderRuleBlameTest {
    private static final Blame BLAME = new Blame(Specification.bundled());
    private static final int BASE = 1000;
    private static final int WINDOW = 128;

    private static SentPacket packet(final int psn, final Opcode opcode, final int sport, final String arrival,
                                     final String right) {
        return new SentPacket(psn, opcode, true, false, 1, null, -1, false, 64, false, sport, arrival, right);
    }

    private static SentPacket write(final int psn) {
        return packet(psn, Opcode.RDMA_WRITE_ONLY, 0xC000, null, null);
    }

    private static FailureContext context(final FailureShape shape, final List<FieldDiff> diffs,
                                          final List<String> opcodes, final Map<String, Long> expected,
                                          final DecodedFrame actual, final List<SentPacket> sent,
                                          final Supplier<Map<String, Long>> counters, final List<String> rules,
                                          final boolean requester, final Set<Integer> naks) {
        return new FailureContext(shape, null, diffs, opcodes, expected, actual, sent, sent.size(), WINDOW, BASE,
            counters, rules, requester, naks, null, List.of());
    }

    private static String rule(final FailureContext c) {
        return BLAME.cause(c, Level.MUST).rule();
    }

    @Test
    void anAckReportingItsOwnEpsnRecordedBlamesMrOrd005WhereTheCaseCitesMrOrd002() {
        final List<SentPacket> sent = List.of(write(0), write(1), write(2));
        final List<FieldDiff> base = List.of(new FieldDiff("sacketh.base", "3 (0x3)", "1 (0x1)"));
        final List<String> rules = List.of("MR-PLC-001", "MR-ORD-002");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, base, List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 3L),
            BlameModelTest.ack(1, 0xC000000000000000L), sent, null, rules, false, Set.of()))).isEqualTo("MR-ORD-005");
        // nothing reported: stopped short without the ACK saying why, the case's MR-ORD-002 stays a candidate
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, base, List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 3L),
            BlameModelTest.ack(1, 0), sent, null, rules, false, Set.of()))).isEqualTo("MR-ORD-002");
    }

    @Test
    void aWriteWithImmediateCompletionWithoutSuchAWriteBlamesMrCmp006AndWithOneMrCmp004() {
        final List<FieldDiff> opcode = List.of(new FieldDiff("opcode", "RECV", "RECV_RDMA_WITH_IMM"));
        final List<String> rules = List.of("MR-LEG-004");
        assertThat(rule(context(FailureShape.COMPLETIONS, opcode, List.of(), Map.of(), null,
            List.of(write(0), packet(1, Opcode.SEND_ONLY, 0xC000, null, null)), null, rules, false, Set.of())))
            .isEqualTo("MR-CMP-006");
        assertThat(rule(context(FailureShape.COMPLETIONS, opcode, List.of(), Map.of(), null,
            List.of(packet(0, Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE, 0xC000, null, null),
                packet(1, Opcode.SEND_ONLY, 0xC000, null, null)), null, rules, false, Set.of())))
            .isEqualTo("MR-CMP-004");
    }

    @Test
    void anAckInPlaceOfARequestAfterAResponseBlamesMrAck014AndAfterARequestNot() {
        final List<FieldDiff> opcode = List.of(new FieldDiff("bth.opcode", "COMPARE_SWAP", "ACKNOWLEDGE (17, 0x11)"));
        final DecodedFrame ack = BlameModelTest.ack(0, 0);
        final List<String> rules = List.of("MR-REQ-013");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("COMPARE_SWAP"), Map.of(), ack,
            List.of(packet(1, Opcode.RDMA_READ_RESPONSE_ONLY, 0xC000, null, null)), null, rules, true, Set.of())))
            .isEqualTo("MR-ACK-014");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("COMPARE_SWAP"), Map.of(), ack,
            List.of(write(0)), null, rules, false, Set.of()))).isEqualTo("MR-REQ-013");
    }

    @Test
    void aValidRequestFromALowSourcePortDroppedBlamesMrMp005AndFromAHighPortOrUncountedNot() {
        final Supplier<Map<String, Long>> dropped = () -> Map.of("drop_wrong_peer", 1L);
        final List<String> rules = List.of("MR-MP-005");
        final SentPacket low = packet(3, Opcode.RDMA_WRITE_LAST, 0, null, null);
        final SentPacket high = packet(3, Opcode.RDMA_WRITE_LAST, 0xFFFF, null, null);
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(low), dropped, rules, false, Set.of()))).isEqualTo("MR-MP-005");
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(high), dropped, rules, false, Set.of()))).isEqualTo("MR-ACK-004");
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(low), Map::of, rules, false, Set.of()))).isEqualTo("MR-ACK-004");
    }

    @Test
    void bytesPlacedForAPacketFailingV4BlameMrPlc010AndForAnotherRejectionMrPlc016() {
        final List<FieldDiff> memory = List.of(new FieldDiff("m[0]", "03", "ee"));
        final List<String> rules = List.of("MR-PLC-016", "MR-PLC-010");
        final SentPacket v4 = packet(1, Opcode.RDMA_WRITE_MIDDLE, 0xC000, "MR-PLC-010", null).asRejected();
        final SentPacket other = packet(1, Opcode.SEND_LAST, 0xC000, null, null).asRejected();
        assertThat(rule(context(FailureShape.MEMORY, memory, List.of(), Map.of(), null, List.of(write(0), v4), null,
            rules, false, Set.of(0x61)))).isEqualTo("MR-PLC-010");
        assertThat(rule(context(FailureShape.MEMORY, memory, List.of(), Map.of(), null, List.of(write(0), other),
            null, rules, false, Set.of(0x61)))).isEqualTo("MR-PLC-016");
    }

    @Test
    void aNak62ForARequestItsRegionGrantsBlamesMrSec004AndWhereExpectedOrUnflaggedNot() {
        final DecodedFrame nak = BlameModelTest.frame(Opcode.ACKNOWLEDGE, 1, Map.of("aeth.syndrome", 0x62L,
            "sacketh.base", (long) BASE + 1));
        final List<FieldDiff> opcode = List.of(new FieldDiff("bth.opcode", "ATOMIC_ACKNOWLEDGE",
            "ACKNOWLEDGE (17, 0x11)"));
        final List<String> rules = List.of("MR-ORD-010");
        final SentPacket flagged = packet(1, Opcode.FETCH_ADD, 0xC000, null, "MR-SEC-004").asRejected();
        final SentPacket plain = packet(1, Opcode.FETCH_ADD, 0xC000, null, null).asRejected();
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("ATOMIC_ACKNOWLEDGE"), Map.of(), nak,
            List.of(write(0), flagged), null, rules, false, Set.of(0x62)))).isEqualTo("MR-SEC-004");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("ATOMIC_ACKNOWLEDGE"), Map.of(), nak,
            List.of(write(0), plain), null, rules, false, Set.of(0x62)))).isNotEqualTo("MR-SEC-004");
        // the step expects a NAK: its code is judged by the field table, not by this model
        assertThat(BLAME.cause(context(FailureShape.FRAME_MISMATCH, List.of(new FieldDiff("aeth.syndrome", "0x61",
            "0x62")), List.of("ACKNOWLEDGE"), Map.of("aeth.syndrome", 0x61L), nak, List.of(write(0), flagged), null,
            rules, false, Set.of(0x62)), Level.MUST).pattern()).doesNotContain("region grants");
    }
}

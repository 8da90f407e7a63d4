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
 * The blame that tells responder bugs apart on hand-built situations, each with a twin that keeps the rule quiet: an
 * ePSN that did not start at rq_psn (MR-QP-004), an MSN counting re-executed READs (MR-RD-011), the last read response
 * sent as a MIDDLE (MR-RD-003), duplicates counted as discards (MR-ORD-011), valid requests dropped for their shape
 * (MR-CMP-007, MR-WIRE-020), a recorded packet forgotten (MR-ORD-006), no ACK where a hole had to close (MR-ORD-005)
 * and memory written by a QP in ERROR (MR-QP-006). PSNs are relative to {@link #BASE}; W is 128.
 */
class ResponderFaultBlameTest {
    private static final Blame BLAME = new Blame(Specification.bundled());
    private static final int BASE = 1000;
    private static final int WINDOW = 128;
    private static final List<String> RULES = List.of("MR-WIRE-001");

    private static SentPacket write(final int psn, final boolean ackReq) {
        return new SentPacket(psn, Opcode.RDMA_WRITE_ONLY, ackReq, false, 1, true);
    }

    private static SentPacket read(final int psn, final int span, final long length) {
        return new SentPacket(psn, Opcode.RDMA_READ_REQUEST, true, false, span, null, length, false);
    }

    private static DecodedFrame frame(final Opcode opcode, final int psn, final Map<String, Long> fields) {
        return BlameModelTest.frame(opcode, psn, fields); // PSNs relative to the same BASE
    }

    private static DecodedFrame ack(final int next, final long bitmap) {
        return BlameModelTest.ack(next, bitmap);
    }

    private static FailureContext context(final FailureShape shape, final List<FieldDiff> diffs,
                                          final List<String> opcodes, final Map<String, Long> expected,
                                          final DecodedFrame actual, final List<SentPacket> sent,
                                          final Supplier<Map<String, Long>> counters, final List<Integer> responded) {
        return new FailureContext(shape, null, diffs, opcodes, expected, actual, sent, sent.size(), WINDOW, BASE,
            counters, RULES, false, Set.of(), null, responded);
    }

    private static String rule(final FailureContext c) {
        return BLAME.cause(c, Level.MUST).rule();
    }

    @Test
    void anAckedEpsnOutsideEveryPsnSentBlamesMrQp004AndOneInsideDoesNot() {
        final List<SentPacket> sent = List.of(write(0, true), write(1, true));
        final List<FieldDiff> base = List.of(new FieldDiff("sacketh.base", "2 (0x2)", "300000 (0x493E0)"));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, base, List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 2L),
            ack(300_000, 0), sent, null, List.of()))).isEqualTo("MR-QP-004");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, base, List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 2L),
            ack(-500, 0), sent, null, List.of()))).isEqualTo("MR-QP-004");
        // ePSN short of what arrived, but among the PSNs sent: not where ePSN started
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, List.of(new FieldDiff("sacketh.base", "2 (0x2)",
            "1 (0x1)")), List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 2L), ack(1, 0), sent, null, List.of())))
            .isNotEqualTo("MR-QP-004");
        // a READ spanning half the PSN space was sent: an ePSN of 0 is no longer outside what was sent, though a
        // 24-bit comparison with the span's end (2^23 + 1 PSNs on) reads it as ahead of it (PLC-012 on a device
        // that recorded the span blamed MR-QP-004)
        final List<SentPacket> half = List.of(read(1, 1 << 23, 1L << 31));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, List.of(new FieldDiff("aeth.syndrome",
            "NAK_INVALID_REQUEST 97 (0x61)", "ACK 31 (0x1F)")), List.of("ACKNOWLEDGE"), Map.of("aeth.syndrome", 0x61L),
            ack(0, -1L >>> 1), half, null, List.of()))).isNotEqualTo("MR-QP-004");
    }

    @Test
    void anMsnCountingADuplicateReadBlamesMrRd011AndWithoutOneMrAck003() {
        final List<FieldDiff> msn = List.of(new FieldDiff("aeth.msn", "1 (0x1)", "2 (0x2)"));
        final DecodedFrame response = frame(Opcode.RDMA_READ_RESPONSE_ONLY, 0, Map.of("aeth.msn", 2L));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, msn, List.of("RDMA_READ_RESPONSE_ONLY"), Map.of(),
            response, List.of(read(0, 1, 64), read(0, 1, 64)), null, List.of(0, 0)))).isEqualTo("MR-RD-011");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, msn, List.of("RDMA_READ_RESPONSE_ONLY"), Map.of(),
            response, List.of(read(0, 1, 64)), null, List.of(0)))).isEqualTo("MR-ACK-003");
    }

    @Test
    void aMiddleOnTheLastPsnOfAReadBlamesMrRd003UnlessAResponseFollows() {
        final List<FieldDiff> opcode = List.of(new FieldDiff("bth.opcode", "RDMA_READ_RESPONSE_LAST",
            "RDMA_READ_RESPONSE_MIDDLE (14, 0xE)"));
        final DecodedFrame middle = frame(Opcode.RDMA_READ_RESPONSE_MIDDLE, 1, Map.of());
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_LAST"), Map.of(),
            middle, List.of(read(0, 2, 2048)), null, List.of(0, 1)))).isEqualTo("MR-RD-003");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_LAST"), Map.of(),
            middle, List.of(read(0, 2, 2048)), null, List.of(0, 1, 2)))).isEqualTo("MR-RD-002");
    }

    @Test
    void discardsAsManyAsTheDuplicatesBeforeEpsnBlameMrOrd011() {
        final List<FieldDiff> drops = List.of(new FieldDiff("drop_outside_window", "+0 (unchanged)", "+1"));
        assertThat(rule(context(FailureShape.COUNTERS, drops, List.of(), Map.of(), null,
            List.of(write(0, true), write(0, true)), null, List.of()))).isEqualTo("MR-ORD-011");
        // a packet beyond the window explains the discard: not a duplicate counted twice
        assertThat(rule(context(FailureShape.COUNTERS, drops, List.of(), Map.of(), null,
            List.of(write(0, true), write(200, true)), null, List.of()))).isNotEqualTo("MR-ORD-011");
    }

    @Test
    void aValidRequestDroppedForItsShapeBlamesTheRuleThatMakesItValid() {
        final SentPacket empty = new SentPacket(0, Opcode.SEND_ONLY, true, false, 1, null, -1, false, 0, false);
        final SentPacket padded = new SentPacket(0, Opcode.SEND_ONLY, true, false, 1, null, -1, false, 5, true);
        final SentPacket plain = new SentPacket(0, Opcode.SEND_ONLY, true, false, 1, null, -1, false, 5, false);
        final Supplier<Map<String, Long>> length = () -> Map.of("drop_length_mismatch", 1L);
        final Supplier<Map<String, Long>> pad = () -> Map.of("drop_bad_pad", 1L);
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(empty), length, List.of()))).isEqualTo("MR-CMP-007");
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(padded), pad, List.of()))).isEqualTo("MR-WIRE-020");
        // every frame sent valid (its udp.checksum 0 or correct), yet one counted as a bad checksum (MR-WIRE-011)
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(plain), () -> Map.of("drop_bad_udp_checksum", 1L), List.of()))).isEqualTo("MR-WIRE-011");
        // a packet of another shape, or no drop counted: the missing ACK itself
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(plain), length, List.of()))).isEqualTo("MR-ACK-005");
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(padded), () -> Map.of(), List.of()))).isEqualTo("MR-ACK-005");
    }

    @Test
    void aRecordedPsnNeitherPassedNorReportedBlamesMrOrd006AndOneStillReportedMrOrd005() {
        final List<SentPacket> sent = List.of(write(1, true), write(0, true));
        final List<FieldDiff> base = List.of(new FieldDiff("sacketh.base", "2 (0x2)", "1 (0x1)"));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, base, List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 2L),
            ack(1, 0), sent, null, List.of()))).isEqualTo("MR-ORD-006");
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, base, List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 2L),
            ack(1, 1L << 63), sent, null, List.of()))).isEqualTo("MR-ORD-005");
    }

    @Test
    void noAckWhereAHoleHadToCloseBlamesMrOrd005AndNoAckForAPlainInOrderPacketNothingOfIt() {
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(write(1, false), write(0, false)), null, List.of()))).isEqualTo("MR-ORD-005");
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            List.of(write(0, false)), null, List.of()))).isEqualTo("MR-WIRE-001");
    }

    @Test
    void memoryCheckedUnderMrQp006BlamesItEvenAfterANakAndOtherwiseTheRejectionsRule() {
        final List<FieldDiff> memory = List.of(new FieldDiff("m[0]", "00", "ee"));
        final FailureContext inError = new FailureContext(FailureShape.MEMORY, null, memory, List.of(), Map.of(), null,
            List.of(write(0, true)), 1, WINDOW, BASE, null, List.of("MR-QP-006", "MR-RD-008"), false, Set.of(0x61),
            null, List.of());
        assertThat(rule(inError)).isEqualTo("MR-QP-006");
        final FailureContext rejected = new FailureContext(FailureShape.MEMORY, null, memory, List.of(), Map.of(), null,
            List.of(write(0, true)), 1, WINDOW, BASE, null, List.of("MR-RD-008", "MR-QP-006"), false, Set.of(0x61),
            null, List.of());
        assertThat(rule(rejected)).isEqualTo("MR-PLC-016");
    }
}

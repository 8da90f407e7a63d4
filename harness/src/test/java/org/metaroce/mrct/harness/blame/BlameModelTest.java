package org.metaroce.mrct.harness.blame;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * Blame from the harness's model on hand-built situations, each with a twin that keeps the rule quiet: an ACK skipped
 * and a later one in its place, a request the device rejected, the half-window edge, CNP pacing, execution before lower
 * PSNs, the position of READ response packets, protection checks on zero-length requests, byte order of
 * atomicacketh.orig, counters of a misclassified packet and an acknowledgement of a response. PSNs are relative to
 * {@link #BASE}; W is 128.
 */
class BlameModelTest {
    private static final Blame BLAME = new Blame(Specification.bundled());
    private static final int BASE = 1000;
    private static final int WINDOW = 128;
    private static final List<String> RULES = List.of("MR-WIRE-001");

    private static SentPacket write(final int psn) {
        return new SentPacket(psn, Opcode.RDMA_WRITE_ONLY, true, false, 1, true);
    }

    static DecodedFrame frame(final Opcode opcode, final int psn, final Map<String, Long> fields) {
        FrameBuilder builder = FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"), opcode).tver(1)
            .psn(BASE + psn);
        for (final Map.Entry<String, Long> field : fields.entrySet()) {
            builder = builder.with(field.getKey(), field.getValue());
        }
        final byte[] bytes = builder.build();
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    static DecodedFrame ack(final int next, final long bitmap) {
        return frame(Opcode.ACKNOWLEDGE, next - 1, Map.of("aeth.syndrome", 0x1FL, "sacketh.base", (long) BASE + next,
            "sacketh.bitmap", bitmap));
    }

    private static FailureContext context(final FailureShape shape, final List<FieldDiff> diffs,
                                          final List<String> opcodes, final Map<String, Long> expected,
                                          final DecodedFrame actual, final List<SentPacket> sent,
                                          final Supplier<Map<String, Long>> counters, final Boolean cnpWithin,
                                          final List<Integer> responded) {
        return new FailureContext(shape, null, diffs, opcodes, expected, actual, sent, sent.size(), WINDOW, BASE,
            counters, RULES, false, Set.of(), cnpWithin, responded);
    }

    private static String rule(final FailureContext c) {
        return BLAME.cause(c, Level.MUST).rule();
    }

    @Test
    void anAckSkippedForADuplicateAndALaterOneInItsPlaceBlamesMrAck006() {
        // 1 arrives out of order (ACK base 0, bit 1), its duplicate is owed the same ACK, then 0 closes the hole: the
        // device answered 0 in place of the duplicate
        final List<SentPacket> sent = List.of(write(1), write(1), write(0));
        final FailureContext c = context(FailureShape.FRAME_MISMATCH,
            List.of(new FieldDiff("sacketh.base", "0 (0x0)", "2 (0x2)")), List.of("ACKNOWLEDGE"),
            Map.of("sacketh.base", 0L, "sacketh.bitmap", 1L << 62), ack(2, 0), sent, null, null, List.of());
        assertThat(rule(c)).isEqualTo("MR-ACK-006");
    }

    @Test
    void anAckSkippedForAnOutOfOrderPacketBlamesMrAck004AndAStateNoMomentHadDoesNot() {
        final List<SentPacket> sent = List.of(write(2), write(1), write(0));
        final FailureContext skipped = context(FailureShape.FRAME_MISMATCH,
            List.of(new FieldDiff("sacketh.base", "0 (0x0)", "3 (0x3)")), List.of("ACKNOWLEDGE"),
            Map.of("sacketh.base", 0L, "sacketh.bitmap", 1L << 61), ack(3, 0), sent, null, null, List.of());
        assertThat(rule(skipped)).isEqualTo("MR-ACK-004");
        // base 5 was never a conforming responder's state: no ACK was skipped, ePSN moved over PSNs never sent
        final FailureContext moved = context(FailureShape.FRAME_MISMATCH,
            List.of(new FieldDiff("sacketh.base", "0 (0x0)", "5 (0x5)")), List.of("ACKNOWLEDGE"),
            Map.of("sacketh.base", 0L, "sacketh.bitmap", 1L << 61), ack(5, 0), sent, null, null, List.of());
        assertThat(rule(moved)).isEqualTo("MR-ORD-005");
    }

    @Test
    void aRequestTheDeviceRejectedDoesNotMoveTheViewOfEpsn() {
        // PSN 0 got an RNR NAK: ePSN stays 0, so PSN 128 is beyond the window and owed an ACK (MR-ACK-007)
        final List<SentPacket> rejected = List.of(write(0).asRejected(), write(WINDOW));
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            rejected, null, null, List.of()))).isEqualTo("MR-ACK-007");
        // accepted, ePSN is 1 and PSN 128 is in the window, recorded out of order (MR-ACK-004)
        final List<SentPacket> accepted = List.of(write(0), write(WINDOW));
        assertThat(rule(context(FailureShape.FRAME_MISSING, List.of(), List.of("ACKNOWLEDGE"), Map.of(), null,
            accepted, null, null, List.of()))).isEqualTo("MR-ACK-004");
    }

    @Test
    void theHalfWindowEdgeIsClassedOnThe24BitCircle() {
        // relative PSNs are signed 24-bit: ePSN 1 + 2^23 - 1 reads back as -2^23, and is beyond the window
        final ResponderView beyond = ResponderView.of(List.of(write(0), write(-(1 << 23))), WINDOW);
        assertThat(beyond.lastArrival()).isEqualTo(ResponderView.Arrival.BEYOND_WINDOW);
        // distance 2^23 counts as before ePSN: a duplicate
        final ResponderView duplicate = ResponderView.of(List.of(write(0), write(-(1 << 23) + 1)), WINDOW);
        assertThat(duplicate.lastArrival()).isEqualTo(ResponderView.Arrival.DUPLICATE);
    }

    @Test
    void anUnexpectedCnpBlamesPacingOrHoldingByItsDistanceFromThePreviousOne() {
        final List<SentPacket> marked = List.of(new SentPacket(0, Opcode.RDMA_WRITE_ONLY, true, true, 1, true));
        final DecodedFrame cnp = frame(Opcode.CNP, 0, Map.of());
        assertThat(rule(context(FailureShape.FRAME_UNEXPECTED, List.of(), List.of(), Map.of(), cnp, marked, null,
            true, List.of()))).isEqualTo("MR-CC-005");
        assertThat(rule(context(FailureShape.FRAME_UNEXPECTED, List.of(), List.of(), Map.of(), cnp, marked, null,
            false, List.of()))).isEqualTo("MR-CC-006");
        // every CE mark was on a frame with a bad ICRC: the device had to drop it before looking at its ECN
        final List<SentPacket> dropped = List.of(new SentPacket(0, Opcode.RDMA_WRITE_ONLY, true, true, 1, false));
        assertThat(rule(context(FailureShape.FRAME_UNEXPECTED, List.of(), List.of(), Map.of(), cnp, dropped, null,
            true, List.of()))).isEqualTo("MR-WIRE-015");
    }

    @Test
    void aReadResponseWhileALowerPsnIsMissingBlamesMrOrd008() {
        final SentPacket read = new SentPacket(1, Opcode.RDMA_READ_REQUEST, false, false, 1, true);
        final DecodedFrame response = frame(Opcode.RDMA_READ_RESPONSE_ONLY, 1, Map.of());
        assertThat(rule(context(FailureShape.FRAME_UNEXPECTED, List.of(), List.of(), Map.of(), response,
            List.of(read), null, null, List.of()))).isEqualTo("MR-ORD-008");
        // PSN 0 arrived first: the response is owed, nothing here blames execution order
        assertThat(BLAME.cause(context(FailureShape.FRAME_UNEXPECTED, List.of(), List.of(), Map.of(), response,
            List.of(write(0), read), null, null, List.of()), Level.MUST).basis()).isEqualTo(Cause.Basis.CASE);
    }

    @Test
    void anMsnOneHigherBlamesExecutionOnlyWithAResponseBeyondTheReportedEpsn() {
        final SentPacket read = new SentPacket(1, Opcode.RDMA_READ_REQUEST, false, false, 1, true);
        final List<FieldDiff> msn = List.of(new FieldDiff("aeth.msn", "0 (0x0)", "1 (0x1)"));
        final DecodedFrame ack = ack(0, 1L << 62);
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, msn, List.of("ACKNOWLEDGE"), Map.of(), ack,
            List.of(read), null, null, List.of(1)))).isEqualTo("MR-ORD-008");
        // the READ waits behind the hole but no response came: an MSN one high for any reason looks the same
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, msn, List.of("ACKNOWLEDGE"), Map.of(), ack,
            List.of(read), null, null, List.of()))).isEqualTo("MR-ACK-003");
        // PSN 0 had arrived: nothing was pending, the MSN itself is wrong
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, msn, List.of("ACKNOWLEDGE"), Map.of(), ack(2, 0),
            List.of(write(0), read), null, null, List.of()))).isEqualTo("MR-ACK-003");
    }

    @Test
    void aReadResponseOfTheWrongPositionBlamesTheCountTheRestartOrTheOpcode() {
        final SentPacket read = new SentPacket(0, Opcode.RDMA_READ_REQUEST, false, false, 3, true);
        final List<FieldDiff> opcode = List.of(new FieldDiff("bth.opcode", "RDMA_READ_RESPONSE_LAST", "MIDDLE"));
        // the response goes on where it must end: too many packets
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_LAST"), Map.of(),
            frame(Opcode.RDMA_READ_RESPONSE_MIDDLE, 2, Map.of()), List.of(read), null, null, List.of())))
            .isEqualTo("MR-RD-002");
        // a duplicate READ whose response restarts at the first byte
        final SentPacket again = new SentPacket(1, Opcode.RDMA_READ_REQUEST, false, false, 2, true);
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_MIDDLE"), Map.of(),
            frame(Opcode.RDMA_READ_RESPONSE_FIRST, 1, Map.of()), List.of(read, again), null, null, List.of())))
            .isEqualTo("MR-RD-009");
        // the right count, the wrong opcode for its position
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_FIRST"), Map.of(),
            frame(Opcode.RDMA_READ_RESPONSE_MIDDLE, 0, Map.of()), List.of(read), null, null, List.of())))
            .isEqualTo("MR-RD-003");
    }

    @Test
    void aNak62ForAZeroLengthRequestBlamesMrSec008() {
        final DecodedFrame nak = frame(Opcode.ACKNOWLEDGE, 0, Map.of("aeth.syndrome", 0x62L, "sacketh.base",
            (long) BASE));
        final List<FieldDiff> opcode = List.of(new FieldDiff("bth.opcode", "RDMA_READ_RESPONSE_ONLY", "ACKNOWLEDGE"));
        final SentPacket empty = new SentPacket(0, Opcode.RDMA_READ_REQUEST, false, false, 1, null, 0, false);
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_ONLY"), Map.of(),
            nak, List.of(empty), null, null, List.of()))).isEqualTo("MR-SEC-008");
        final SentPacket eight = new SentPacket(0, Opcode.RDMA_READ_REQUEST, false, false, 1, null, 8, false);
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_ONLY"), Map.of(),
            nak, List.of(eight), null, null, List.of()))).isNotEqualTo("MR-SEC-008");
    }

    @Test
    void aByteSwappedOriginalValueBlamesMrAtm008() {
        final SentPacket atomic = new SentPacket(0, Opcode.FETCH_ADD, false, false, 1, true);
        final long expected = 0x0102030405060708L;
        final DecodedFrame swapped = frame(Opcode.ATOMIC_ACKNOWLEDGE, 0, Map.of("aeth.syndrome", 0x1FL,
            "atomicacketh.orig", Long.reverseBytes(expected)));
        final List<FieldDiff> orig = List.of(new FieldDiff("atomicacketh.orig", "72623859790382856", "1"));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, orig, List.of("ATOMIC_ACKNOWLEDGE"),
            Map.of("atomicacketh.orig", expected), swapped, List.of(atomic), null, null, List.of())))
            .isEqualTo("MR-ATM-008");
        final DecodedFrame wrong = frame(Opcode.ATOMIC_ACKNOWLEDGE, 0, Map.of("aeth.syndrome", 0x1FL,
            "atomicacketh.orig", expected + 1));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, orig, List.of("ATOMIC_ACKNOWLEDGE"),
            Map.of("atomicacketh.orig", expected), wrong, List.of(atomic), null, null, List.of())))
            .isNotEqualTo("MR-ATM-008");
    }

    @Test
    void aPacketBeyondTheWindowCountedAsADuplicateBlamesTheClassificationMrOrd001() {
        final List<FieldDiff> counters = List.of(new FieldDiff("drop_outside_window", "+1", "+0"),
            new FieldDiff("duplicate_received", "+0", "+1"));
        assertThat(rule(context(FailureShape.COUNTERS, counters, List.of(), Map.of(), null, List.of(write(0)), null,
            null, List.of()))).isEqualTo("MR-ORD-001");
        final List<FieldDiff> fewer = List.of(new FieldDiff("drop_outside_window", "+1", "+0"));
        assertThat(rule(context(FailureShape.COUNTERS, fewer, List.of(), Map.of(), null, List.of(write(0)), null,
            null, List.of()))).isNotEqualTo("MR-ORD-001");
    }

    @Test
    void aTver0AckForALaterPacketWhereOneWithAckReqWasOwedBlamesMrLeg005() {
        final byte[] bytes = FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"), Opcode.ACKNOWLEDGE)
            .tver(0).psn(BASE + 2).with("aeth.syndrome", 0x1F).build();
        final DecodedFrame later = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
        final List<FieldDiff> psn = List.of(new FieldDiff("bth.psn", "0 (0x0)", "2 (0x2)"));
        final List<SentPacket> sent = List.of(write(0), write(1), write(2));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, psn, List.of("ACKNOWLEDGE"), Map.of(), later, sent,
            null, null, List.of()))).isEqualTo("MR-LEG-005");
        // PSN 0 without AckReq owed no ACK: the later one is not a skipped one
        final List<SentPacket> quiet = List.of(new SentPacket(0, Opcode.RDMA_WRITE_FIRST, false, false, 1, true),
            write(1), write(2));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, psn, List.of("ACKNOWLEDGE"), Map.of(), later, quiet,
            null, null, List.of()))).isNotEqualTo("MR-LEG-005");
    }

    @Test
    void anAcknowledgementAfterAResponseBlamesMrAck014() {
        final SentPacket response = new SentPacket(0, Opcode.ATOMIC_ACKNOWLEDGE, false, false, 1, true);
        final DecodedFrame ack = ack(1, 0);
        assertThat(rule(context(FailureShape.FRAME_UNEXPECTED, List.of(), List.of(), Map.of(), ack,
            List.of(response), null, null, List.of()))).isEqualTo("MR-ACK-014");
        assertThat(rule(context(FailureShape.FRAME_UNEXPECTED, List.of(), List.of(), Map.of(), ack,
            List.of(write(0)), null, null, List.of()))).isNotEqualTo("MR-ACK-014");
    }

    @Test
    void aMissingAtomicAcknowledgeWhileTheDevicesAckStopsShortBlamesMrOrd005() {
        // PSN 0 held back, the FETCH ADD on PSN 1 recorded, then PSN 0: every PSN up to 1 arrived (ePSN 2)
        final List<SentPacket> sent = List.of(new SentPacket(1, Opcode.FETCH_ADD, false, false, 1, true), write(0));
        final FailureContext stopped = new FailureContext(FailureShape.FRAME_MISSING, null, List.of(),
            List.of("ATOMIC_ACKNOWLEDGE"), Map.of(), null, sent, sent.size(), WINDOW, BASE, null, RULES, false,
            Set.of(), null, List.of(), 1, 1);
        assertThat(rule(stopped)).isEqualTo("MR-ORD-005");
        // the device's ACK after PSN 0 reported ePSN 2: it reached the atomic and owes its answer
        final FailureContext reached = new FailureContext(FailureShape.FRAME_MISSING, null, List.of(),
            List.of("ATOMIC_ACKNOWLEDGE"), Map.of(), null, sent, sent.size(), WINDOW, BASE, null, RULES, false,
            Set.of(), null, List.of(), 2, 1);
        assertThat(rule(reached)).isEqualTo("MR-ATM-004");
    }

    private static DecodedFrame nak61(final int psn) {
        return frame(Opcode.ACKNOWLEDGE, psn, Map.of("aeth.syndrome", 0x61L, "sacketh.base", (long) BASE + psn,
            "sacketh.bitmap", 0L));
    }

    @Test
    void aRequestInSequenceRejectedAfterAHoleClosedBlamesMrOrd007() {
        // the LAST of a WRITE arrives first, then its FIRST closes the hole; the READ after them is in sequence
        final SentPacket read = new SentPacket(2, Opcode.RDMA_READ_REQUEST, false, false, 1, true);
        final List<FieldDiff> opcode = List.of(new FieldDiff("bth.opcode", "RDMA_READ_RESPONSE_FIRST", "ACKNOWLEDGE"));
        final List<SentPacket> reordered = List.of(new SentPacket(1, Opcode.RDMA_WRITE_LAST, false, false, 1, true),
            new SentPacket(0, Opcode.RDMA_WRITE_FIRST, true, false, 1, true), read);
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_FIRST"), Map.of(),
            nak61(2), reordered, null, null, List.of()))).isEqualTo("MR-ORD-007");
        // the same packets in order: nothing was recorded out of order, the sequence state is not in question
        final List<SentPacket> inOrder = List.of(new SentPacket(0, Opcode.RDMA_WRITE_FIRST, true, false, 1, true),
            new SentPacket(1, Opcode.RDMA_WRITE_LAST, false, false, 1, true), read);
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, opcode, List.of("RDMA_READ_RESPONSE_FIRST"), Map.of(),
            nak61(2), inOrder, null, null, List.of()))).isNotEqualTo("MR-ORD-007");
    }

    @Test
    void aSendInSequenceRejectedAfterAPlainWriteBlamesMrCmp006() {
        final SentPacket send = new SentPacket(1, Opcode.SEND_ONLY, true, false, 1, true);
        final List<FieldDiff> syndrome = List.of(new FieldDiff("aeth.syndrome", "ACK 31 (0x1F)",
            "NAK_INVALID_REQUEST 97 (0x61)"));
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, syndrome, List.of("ACKNOWLEDGE"),
            Map.of("aeth.syndrome", 0x1FL), nak61(1), List.of(write(0), send), null, null, List.of())))
            .isEqualTo("MR-CMP-006");
        // an RNR NAK was owed (no receive WQE posted): a device whose V12 let the SEND through answers the same
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, syndrome, List.of("ACKNOWLEDGE"),
            Map.of("aeth.syndrome", 0x20L), nak61(1), List.of(write(0), send), null, null, List.of())))
            .isNotEqualTo("MR-CMP-006");
        // a WRITE WITH IMMEDIATE before it consumes a receive WQE by right: no plain WRITE to blame
        final SentPacket withImmediate = new SentPacket(0, Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE, true, false, 1,
            true);
        assertThat(rule(context(FailureShape.FRAME_MISMATCH, syndrome, List.of("ACKNOWLEDGE"),
            Map.of("aeth.syndrome", 0x1FL), nak61(1), List.of(withImmediate, send), null, null, List.of())))
            .isNotEqualTo("MR-CMP-006");
    }

    @Test
    void moreTimeoutsThanExpectedOnATver0RequesterBlameMrLeg009() {
        final List<FieldDiff> timeouts = List.of(new FieldDiff("timeouts", "+1", "+4"));
        final FailureContext legacy = new FailureContext(FailureShape.COUNTERS, null, timeouts, List.of(), Map.of(),
            null, List.of(), 0, WINDOW, BASE, null, List.of("MR-LEG-001"), true, Set.of(), null, List.of(), null, 0);
        assertThat(rule(legacy)).isEqualTo("MR-LEG-009");
        // the same counters on a TVer 1 QP: the counter's own rules, not the legacy recovery
        final FailureContext tver1 = new FailureContext(FailureShape.COUNTERS, null, timeouts, List.of(), Map.of(),
            null, List.of(), 0, WINDOW, BASE, null, List.of("MR-LEG-001"), true, Set.of(), null, List.of(), null, 1);
        assertThat(rule(tver1)).isNotEqualTo("MR-LEG-009");
        // fewer timeouts than expected on TVer 0: not a recovery that resent too little
        final FailureContext fewer = new FailureContext(FailureShape.COUNTERS, null,
            List.of(new FieldDiff("timeouts", "+2", "+1")), List.of(), Map.of(), null, List.of(), 0, WINDOW, BASE,
            null, List.of("MR-LEG-001"), true, Set.of(), null, List.of(), null, 0);
        assertThat(rule(fewer)).isNotEqualTo("MR-LEG-009");
    }
}

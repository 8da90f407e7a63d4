package org.metaroce.mrct.harness.blame;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * Blame on hand-built situations: the harness sent these packets, the device answered this frame (or nothing), which
 * rule governs what was wrong. PSNs are relative to {@link #BASE}; W is 128.
 */
class BlameTest {
    private static final Specification SPEC = Specification.bundled();
    private static final Blame BLAME = new Blame(SPEC);
    private static final int BASE = 1000;
    private static final int WINDOW = 128;
    private static final List<String> RULES = List.of("MR-WIRE-001");

    private static SentPacket write(final int psn, final boolean ackReq) {
        return new SentPacket(psn, Opcode.RDMA_WRITE_ONLY, ackReq, false, 1, true);
    }

    /** An ACK from the device: bth.psn = next - 1, sacketh.base = base, bitmap, all relative to {@link #BASE}. */
    private static DecodedFrame ack(final int next, final int base, final long bitmap) {
        final byte[] bytes = FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"), Opcode.ACKNOWLEDGE)
            .tver(1).psn(BASE + next - 1).with("aeth.syndrome", 0x1F).with("sacketh.base", BASE + base)
            .with("sacketh.bitmap", bitmap).build();
        final DecodedFrame f = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
        assertThat(f.has(HeaderKind.SACKETH)).isTrue();
        return f;
    }

    private static FailureContext mismatch(final DecodedFrame actual, final List<SentPacket> sent,
                                           final List<FieldDiff> diffs, final String checkRule,
                                           final Map<String, Long> expected,
                                           final Supplier<Map<String, Long>> counters) {
        return new FailureContext(FailureShape.FRAME_MISMATCH, checkRule, diffs, List.of("ACKNOWLEDGE"), expected,
            actual, sent, sent.size(), WINDOW, BASE, counters, RULES);
    }

    private static FailureContext missing(final List<String> opcodes, final List<SentPacket> sent) {
        return new FailureContext(FailureShape.FRAME_MISSING, null, List.of(), opcodes, Map.of(), null, sent,
            sent.size(), WINDOW, BASE, null, RULES);
    }

    /**
     * A later read response missing after the READ's responses began: on a QP that received no CNP, where the case
     * (its step first) names MR-CC-016, it blames MR-CC-016 (the QP paced by a CNP that named another); where the QP
     * received a CNP itself, or the case is not about MR-CC-016, the missing response blames MR-RD-002.
     */
    @Test
    void aLateReadResponseOnAQpWithoutCnpBlamesMrCc016WhereTheCaseIsAboutIt() {
        final SentPacket read = new SentPacket(0, Opcode.RDMA_READ_REQUEST, false, false, 17, true);
        final SentPacket cnp = new SentPacket(0, Opcode.CNP, false, false, 1, true);
        final List<String> cc016 = List.of("MR-CC-016", "MR-CC-016", "MR-CC-018");
        assertThat(BLAME.cause(lateResponse(List.of(read), cc016, List.of(0)), Level.MUST).rule())
            .isEqualTo("MR-CC-016");
        assertThat(BLAME.cause(lateResponse(List.of(cnp, read), cc016, List.of(0)), Level.MUST).rule())
            .as("the QP received a CNP itself").isEqualTo("MR-RD-002");
        assertThat(BLAME.cause(lateResponse(List.of(read), List.of("MR-RD-002"), List.of(0)), Level.MUST).rule())
            .isEqualTo("MR-RD-002");
        assertThat(BLAME.cause(lateResponse(List.of(read), cc016, List.of()), Level.MUST).rule())
            .as("no response came at all").isEqualTo("MR-RD-002");
    }

    private static FailureContext lateResponse(final List<SentPacket> sent, final List<String> rules,
                                               final List<Integer> responded) {
        return new FailureContext(FailureShape.FRAME_MISSING, null, List.of(), List.of("RDMA_READ_RESPONSE_LAST"),
            Map.of(), null, sent, sent.size(), WINDOW, BASE, null, rules, false, java.util.Set.of(), null, responded);
    }

    @Test
    void aStaleSackBaseBlamesMrAck002NotTheBthPsnTheCheckNamed() {
        // PSN 0 then PSN 1 arrived: ePSN 2; the device says bth.psn 1 (right) and sacketh.base 1 (the previous ePSN)
        final List<SentPacket> sent = List.of(write(0, false), write(1, true));
        final Cause cause = BLAME.cause(mismatch(ack(2, 1, 0), sent,
            List.of(new FieldDiff("bth.psn", "sacketh.base - 1 = 0", "1")), "MR-ACK-001", Map.of(), null), Level.MUST);
        assertThat(cause.rule()).isEqualTo("MR-ACK-002");
        assertThat(cause.field()).isEqualTo("sacketh.base");
        assertThat(cause.basis()).isEqualTo(Cause.Basis.MODEL);
    }

    @Test
    void aWrongAckPsnBlamesMrAck001() {
        final List<SentPacket> sent = List.of(write(0, false), write(1, true));
        final Cause cause = BLAME.cause(mismatch(ack(3, 2, 0), sent,
            List.of(new FieldDiff("bth.psn", "sacketh.base - 1 = 1", "2")), "MR-ACK-001", Map.of(), null), Level.MUST);
        assertThat(cause.rule()).isEqualTo("MR-ACK-001");
        assertThat(cause.field()).isEqualTo("bth.psn");
    }

    @Test
    void anEmptyBitmapBlamesTheReportUnlessTheCountersShowADiscard() {
        // PSN 0 lost; PSN 1 arrived after the hole: a conforming responder records it (bit 1)
        final List<SentPacket> sent = List.of(write(1, true));
        final List<FieldDiff> diffs = List.of(new FieldDiff("sacketh.bitmap", "0x4000000000000000",
            "0x0000000000000000"));
        final Map<String, Long> expected = Map.of("sacketh.base", 0L, "sacketh.bitmap", 0x4000000000000000L);
        final Cause report = BLAME.cause(mismatch(ack(0, 0, 0), sent, diffs, null, expected,
            () -> Map.of("drop_outside_window", 0L, "duplicate_received", 0L)), Level.MUST);
        assertThat(report.rule()).isEqualTo("MR-ACK-002");
        assertThat(report.pattern()).contains("lacks PSNs");
        final Cause discard = BLAME.cause(mismatch(ack(0, 0, 0), sent, diffs, null, expected,
            () -> Map.of("drop_outside_window", 1L)), Level.MUST);
        assertThat(discard.rule()).isEqualTo("MR-ORD-002");
        assertThat(discard.basis()).isEqualTo(Cause.Basis.COUNTERS);
    }

    @Test
    void aDiscardAcrossThePsnWrapBlamesTheComparisonMrOrd001() {
        // the connection starts 2 PSNs before the 2^24 wrap: PSN 2 (absolute 0) arrives after the hole at PSN 0
        final int base = (1 << 24) - 2;
        final List<SentPacket> sent = List.of(write(2, true));
        final byte[] bytes = FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"), Opcode.ACKNOWLEDGE)
            .tver(1).psn(base - 1).with("aeth.syndrome", 0x1F).with("sacketh.base", base).with("sacketh.bitmap", 0)
            .build();
        final DecodedFrame f = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
        final FailureContext c = new FailureContext(FailureShape.FRAME_MISMATCH, null,
            List.of(new FieldDiff("sacketh.bitmap", "0x2000000000000000", "0x0000000000000000")),
            List.of("ACKNOWLEDGE"), Map.of("sacketh.base", 0L), f, sent, 1, WINDOW, base,
            () -> Map.of("duplicate_received", 1L), RULES);
        assertThat(BLAME.cause(c, Level.MUST).rule()).isEqualTo("MR-ORD-001");
    }

    @Test
    void aMissingAckIsBlamedOnTheEventThatOwedIt() {
        assertThat(BLAME.cause(missing(List.of("ACKNOWLEDGE"), List.of(write(0, true))), Level.MUST).rule())
            .isEqualTo("MR-ACK-005");
        assertThat(BLAME.cause(missing(List.of("ACKNOWLEDGE"), List.of(write(3, false))), Level.MUST).rule())
            .isEqualTo("MR-ACK-004");
        assertThat(BLAME.cause(missing(List.of("ACKNOWLEDGE"), List.of(write(0, true), write(0, false))),
            Level.MUST).rule()).isEqualTo("MR-ACK-006");
        assertThat(BLAME.cause(missing(List.of("ACKNOWLEDGE"), List.of(write(WINDOW, false))), Level.MUST).rule())
            .isEqualTo("MR-ACK-007");
    }

    @Test
    void aMissingCnpIsBlamedByWhatWasCeMarked() {
        final SentPacket markedRequest = new SentPacket(0, Opcode.SEND_ONLY, true, true, 1, true);
        final SentPacket markedResponse = new SentPacket(0, Opcode.RDMA_READ_RESPONSE_ONLY, false, true, 1, true);
        assertThat(BLAME.cause(missing(List.of("CNP"), List.of(markedRequest)), Level.MUST).rule())
            .isEqualTo("MR-CC-003");
        assertThat(BLAME.cause(missing(List.of("CNP"), List.of(markedResponse)), Level.MUST).rule())
            .isEqualTo("MR-CC-004");
    }

    /**
     * Appendix D: where a TVer 0 NAK 0x60 was due for a packet after a hole, an ACK in its place says the packet was
     * taken (MR-LEG-002); a NAK naming the wrong PSN breaks the NAK's own rule (MR-LEG-003), the case citing it, and
     * not MR-ACK-011 (the TVer 1 NAK's PSN).
     */
    @Test
    void aTver0SequenceNakDueBlamesTheLegacyRules() {
        final List<String> rules = List.of("MR-LEG-003", "MR-LEG-002", "MR-LEG-005");
        final List<SentPacket> sent = List.of(write(0, false), write(2, false), write(3, true));
        final DecodedFrame ack = decode(FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"),
            Opcode.ACKNOWLEDGE).tver(0).psn(BASE + 3).with("aeth.syndrome", 0x1F).build());
        final List<FieldDiff> syndrome = List.of(new FieldDiff("aeth.syndrome", "96 (0x60)", "31 (0x1f)"));
        assertThat(BLAME.cause(tver0(syndrome, ack, sent, rules), Level.MUST).rule())
            .as("an ACK where NAK 0x60 was due").isEqualTo("MR-LEG-002");
        final DecodedFrame nak = decode(FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"),
            Opcode.ACKNOWLEDGE).tver(0).psn(BASE + 2).with("aeth.syndrome", 0x60).build());
        final List<FieldDiff> psn = List.of(new FieldDiff("bth.psn", "1 (0x1)", "2 (0x2)"));
        assertThat(BLAME.cause(tver0(psn, nak, sent, rules), Level.MUST).rule())
            .as("NAK 0x60 naming the received PSN, not ePSN").isEqualTo("MR-LEG-003");
        assertThat(BLAME.cause(tver0(psn, nak, sent, List.of("MR-ORD-002")), Level.MUST).rule())
            .as("a case citing neither: the NAK PSN's default rule").isEqualTo("MR-ACK-011");
    }

    /**
     * A requester writes its own memory only with read responses and atomic results: memory that differs in a
     * requester case blames the placement of read responses (MR-PLC-003), or the case's own rule among those that
     * govern what a requester writes (an atomic's original value, MR-CMP-014), never the case's first rule.
     */
    @Test
    void requesterMemoryBlamesWhatTheRequesterWrites() {
        final List<FieldDiff> memory = List.of(new FieldDiff("dst[100]", "0x11...", "0x22..."));
        assertThat(BLAME.cause(requesterMemory(memory, List.of("MR-CMP-013", "MR-CMP-011")), Level.MUST).rule())
            .isEqualTo("MR-PLC-003");
        assertThat(BLAME.cause(requesterMemory(memory, List.of("MR-CMP-011", "MR-CMP-014")), Level.MUST).rule())
            .isEqualTo("MR-CMP-014");
    }

    private static FailureContext requesterMemory(final List<FieldDiff> diffs, final List<String> rules) {
        return new FailureContext(FailureShape.MEMORY, null, diffs, List.of(), Map.of(), null, List.of(), 0, WINDOW,
            BASE, null, rules, true, java.util.Set.of(), null, List.of(), null, 1);
    }

    /** A READ's LAST response where its FIRST was due (a higher PSN while a lower one is owed): MR-RD-006. */
    @Test
    void aReadResponseAheadOfALowerPsnBlamesMrRd006() {
        final DecodedFrame last = decode(FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"),
            Opcode.RDMA_READ_RESPONSE_LAST).tver(1).psn(BASE + 3).payload(new byte[4]).build());
        final List<FieldDiff> diffs = List.of(new FieldDiff("bth.opcode", "RDMA_READ_RESPONSE_FIRST",
            "RDMA_READ_RESPONSE_LAST"), new FieldDiff("bth.psn", "0 (0x0)", "3 (0x3)"));
        final SentPacket read = new SentPacket(0, Opcode.RDMA_READ_REQUEST, false, false, 4, true);
        assertThat(BLAME.cause(new FailureContext(FailureShape.FRAME_MISMATCH, null, diffs,
            List.of("RDMA_READ_RESPONSE_FIRST"), Map.of("bth.psn", 0L), last, List.of(read), 1, WINDOW, BASE, null,
            List.of("MR-RD-002", "MR-RD-006")), Level.MUST).rule()).isEqualTo("MR-RD-006");
    }

    /**
     * An ACK whose cumulative point moved back below one already reported (the oracle's MR-ACK-010 check fired on
     * it): that is the fault, though the PSNs it leaves unreported would read as recorded packets discarded.
     */
    @Test
    void aCumulativePointMovingBackBlamesMrAck010() {
        final List<SentPacket> sent = new ArrayList<>();
        for (int psn = 0; psn < 8; psn++) {
            sent.add(write(psn, true));
        }
        sent.add(write(1, true)); // a duplicate, answered with an ACK naming its own PSN + 1
        final List<FieldDiff> base = List.of(new FieldDiff("sacketh.base", "8 (0x8)", "2 (0x2)"));
        assertThat(BLAME.cause(mismatch(ack(2, 2, 0), sent, base, "MR-ACK-010", Map.of("sacketh.base", 8L),
            () -> Map.of()), Level.MUST).rule()).isEqualTo("MR-ACK-010");
    }

    private static FailureContext tver0(final List<FieldDiff> diffs, final DecodedFrame actual,
                                        final List<SentPacket> sent, final List<String> rules) {
        return new FailureContext(FailureShape.FRAME_MISMATCH, null, diffs, List.of("ACKNOWLEDGE"),
            Map.of("aeth.syndrome", 0x60L), actual, sent, sent.size(), 1, BASE, null, rules, false,
            java.util.Set.of(), null, List.of(), null, 0);
    }

    @Test
    void aFieldIsBlamedOnTheRuleGoverningItTheCasesOwnPreferred() {
        final DecodedFrame f = ack(1, 1, 0);
        final List<FieldDiff> msn = List.of(new FieldDiff("aeth.msn", "1 (0x1)", "2 (0x2)"));
        final Cause cause = BLAME.cause(new FailureContext(FailureShape.FRAME_MISMATCH, null, msn, List.of(),
            Map.of(), f, List.of(), 0, WINDOW, BASE, null, List.of("MR-ORD-002")), Level.MUST);
        assertThat(cause.rule()).isEqualTo("MR-ACK-003");
        assertThat(cause.pattern()).isEqualTo("aeth.msn one higher than expected");
        final List<FieldDiff> sport = List.of(new FieldDiff("udp.sport", "0xC000-0xFFFF", "0x1234"));
        final DecodedFrame response = decode(FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"),
            Opcode.RDMA_READ_RESPONSE_ONLY).tver(1).payload(new byte[4]).build());
        assertThat(BLAME.cause(new FailureContext(FailureShape.FRAME_MISMATCH, null, sport, List.of(), Map.of(),
            response, List.of(), 0, WINDOW, BASE, null, List.of("MR-MP-001")), Level.MUST).rule())
            .as("the case cites one of the rules governing the field").isEqualTo("MR-MP-001");
    }

    @Test
    void aRuleWeakerThanTheVerdictIsNeverBlamed() {
        // MR-ACK-008 (SHOULD) is not among the candidates of a FAIL: the case's own MUST rule stands
        final FailureContext c = new FailureContext(FailureShape.OTHER, null, List.of(), List.of(), Map.of(), null,
            List.of(), 0, WINDOW, BASE, null, List.of("MR-ACK-008", "MR-ORD-005"));
        final Blame.Choice choice = BLAME.new Choice(c.caseRules(), Level.MUST);
        assertThat(choice.pick(List.of("MR-ACK-008"))).isNull();
        assertThat(choice.pick(List.of("MR-ACK-008", "MR-ORD-005"))).isEqualTo("MR-ORD-005");
        assertThat(BLAME.new Choice(c.caseRules(), Level.SHOULD).pick(List.of("MR-ACK-008"))).isEqualTo("MR-ACK-008");
    }

    @Test
    void aCounterTheDeviceDoesNotKeepBlamesMrConf003() {
        final FailureContext c = new FailureContext(FailureShape.COUNTERS, null,
            List.of(new FieldDiff("drop_invalid_request", "+1", "not kept by the device")), List.of(), Map.of(), null,
            List.of(), 0, WINDOW, BASE, null, List.of("MR-LEG-006"));
        assertThat(BLAME.cause(c, Level.MUST).rule()).isEqualTo("MR-CONF-003");
    }

    @Test
    void withNothingToGoOnTheCasesFirstRuleIsBlamed() {
        final FailureContext c = new FailureContext(FailureShape.MEMORY, null,
            List.of(new FieldDiff("m[12]", "0x11", "0x00")), List.of(), Map.of(), null, List.of(), 0, WINDOW, BASE,
            null, List.of("MR-PLC-001", "MR-PLC-002"));
        final Cause cause = BLAME.cause(c, Level.MUST);
        assertThat(cause.rule()).isEqualTo("MR-PLC-001");
        assertThat(cause.basis()).isEqualTo(Cause.Basis.CASE);
        assertThat(cause.pattern()).isEqualTo("memory of m differs");
    }

    @Test
    void theFieldTableNamesOnlyRulesOfTheSpecAndFieldsMrctDecodes() {
        final List<String> problems = new ArrayList<>();
        final DecodedFrame any = ack(1, 1, 0);
        for (final FieldRules.Row row : BLAME.table().rows()) {
            for (final String rule : row.rules()) {
                if (SPEC.rule(rule) == null) {
                    problems.add("line " + row.line() + ": " + rule + " is not a rule of the specification");
                }
            }
            final boolean known = row.field().equals("payload") || row.field().equals("payload_len")
                || row.field().equals("icrc") || org.metaroce.mrct.wire.FrameFields.variants(row.field()) != null
                && !org.metaroce.mrct.wire.FrameFields.variants(row.field()).isEmpty();
            if (!known) {
                problems.add("line " + row.line() + ": " + row.field() + " is not a field mrct decodes");
            }
        }
        assertThat(any).isNotNull();
        assertThat(problems).isEmpty();
        assertThat(BLAME.table().counterRules("drop_outside_window")).contains("MR-ORD-012");
    }

    /** A request of the device's message at {@code psn} with {@code bytes} of payload. */
    private static DecodedFrame request(final Opcode opcode, final int psn, final int bytes) {
        return decode(FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"), opcode).tver(1).psn(psn)
            .payload(new byte[bytes]).build());
    }

    private static FailureContext middleForLast(final DecodedFrame next) {
        final DecodedFrame actual = request(Opcode.RDMA_WRITE_MIDDLE, 3, 1024);
        assertThat(actual.payloadLength()).isEqualTo(1024);
        return new FailureContext(FailureShape.FRAME_MISMATCH, "MR-REQ-006", List.of(new FieldDiff("bth.opcode",
            "RDMA_WRITE_LAST (8, 0x8)", "RDMA_WRITE_MIDDLE (7, 0x7)")), List.of(), Map.of(), actual, List.of(), 0,
            WINDOW, 0, null, List.of("MR-REQ-006", "MR-REQ-005"), true, java.util.Set.of(), null, List.of(), null, 1,
            next, false);
    }

    /**
     * A MIDDLE where a message's LAST was due (the requester model's MR-REQ-006): followed by an empty LAST of the same
     * message at the next PSN, the message had one packet too many (length / pmtu + 1 for a multiple of pmtu,
     * MR-REQ-005); followed by the next message's first packet, or by nothing, the opcode itself was wrong.
     */
    @Test
    void emptyLastAfterMiddleForLastIsOnePacketTooMany() {
        assertThat(BLAME.cause(middleForLast(request(Opcode.RDMA_WRITE_LAST, 4, 0)), Level.MUST).rule())
            .isEqualTo("MR-REQ-005");
        assertThat(BLAME.cause(middleForLast(request(Opcode.RDMA_WRITE_FIRST, 4, 1024)), Level.MUST).rule())
            .isEqualTo("MR-REQ-006");
        assertThat(BLAME.cause(middleForLast(request(Opcode.RDMA_WRITE_LAST, 4, 16)), Level.MUST).rule())
            .as("a LAST with payload is not the empty extra packet").isEqualTo("MR-REQ-006");
        assertThat(BLAME.cause(middleForLast(request(Opcode.RDMA_WRITE_LAST, 9, 0)), Level.MUST).rule())
            .as("not at the next PSN").isEqualTo("MR-REQ-006");
        assertThat(BLAME.cause(middleForLast(request(Opcode.SEND_LAST, 4, 0)), Level.MUST).rule())
            .as("another message kind").isEqualTo("MR-REQ-006");
        assertThat(BLAME.cause(middleForLast(null), Level.MUST).rule()).isEqualTo("MR-REQ-006");
        // a message of exactly pmtu bytes: a FIRST where the ONLY was due, then the empty LAST
        final DecodedFrame first = request(Opcode.SEND_FIRST, 3, 1024);
        final FailureContext c = new FailureContext(FailureShape.FRAME_MISMATCH, "MR-REQ-006", List.of(new FieldDiff(
            "bth.opcode", "SEND_ONLY (4, 0x4)", "SEND_FIRST (0, 0x0)")), List.of(), Map.of(), first, List.of(), 0,
            WINDOW, 0, null, List.of("MR-REQ-006"), true, java.util.Set.of(), null, List.of(), null, 1,
            request(Opcode.SEND_LAST, 4, 0), false);
        assertThat(BLAME.cause(c, Level.MUST).rule()).isEqualTo("MR-REQ-005");
    }

    private static FailureContext unexpectedCnp(final boolean sentInError) {
        final DecodedFrame cnp = decode(FrameBuilder.of(Encapsulation.ipv4("198.51.100.2", "198.51.100.1"), Opcode.CNP)
            .tver(0).build());
        return new FailureContext(FailureShape.FRAME_UNEXPECTED, null, List.of(), List.of(), Map.of(), cnp,
            List.of(write(0, true)), 1, WINDOW, BASE, null, List.of("MR-QP-005", "MR-QP-006", "MR-QP-001"), false,
            java.util.Set.of(), Boolean.TRUE, List.of(), null, 1, null, sentInError);
    }

    /**
     * A frame the device sent on a QP the case had put in ERROR (or seen there) blames MR-QP-005, whatever the frame:
     * a CNP within cnp_interval_ns of the last is otherwise read as a pacing fault (MR-CC-005).
     */
    @Test
    void frameFromQpInErrorBlamesQp005() {
        assertThat(BLAME.cause(unexpectedCnp(true), Level.MUST).rule()).isEqualTo("MR-QP-005");
        assertThat(BLAME.cause(unexpectedCnp(false), Level.MUST).rule()).isNotEqualTo("MR-QP-005");
    }

    private static DecodedFrame decode(final byte[] bytes) {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }
}

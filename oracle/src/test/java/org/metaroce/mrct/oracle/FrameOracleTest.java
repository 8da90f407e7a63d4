package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.oracle.Frames.DEVICE;
import static org.metaroce.mrct.oracle.Frames.PEER;
import static org.metaroce.mrct.oracle.Frames.V4;
import static org.metaroce.mrct.oracle.Frames.V6;
import static org.metaroce.mrct.oracle.Frames.ack;
import static org.metaroce.mrct.oracle.Frames.decode;
import static org.metaroce.mrct.oracle.Frames.of;
import static org.metaroce.mrct.oracle.Frames.send;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/** Every per-frame rule of the oracle fires on a frame built to break it, and keeps quiet on one that meets it. */
class FrameOracleTest {
    private static final Vantage LIVE = Vantage.live(DEVICE, PEER);
    private static final Vantage AWAY = Vantage.capture(0, false, false);
    private static final QpFacts QP = new QpFacts(1, 0xFFFF, Basis.configured("the QP's pkey attribute"), false,
        null, null);

    /** rule, field, the frame that breaks it, where it is seen from, what is known of the QP. */
    static Stream<Arguments> broken() {
        return Stream.of(
            broken("MR-WIRE-001", "eth.src", send().encapsulation(V4.withMacs(0x02_00_00_00_00_99L, PEER))),
            broken("MR-WIRE-001", "vlan.dei", send().encapsulation(V4.withVlan(7, 3)).with("vlan.dei", 1)),
            broken("MR-MP-007", "eth.dst", send().encapsulation(V4.withMacs(DEVICE, 0x02_00_00_00_00_77L))),
            broken("MR-WIRE-004", "ip.df", send().with("ip.df", 0)),
            broken("MR-WIRE-004", "ip.mf", send().with("ip.mf", 1)),
            broken("MR-WIRE-004", "ip.checksum", send().correctIpChecksum(false).with("ip.checksum", 0x1234)),
            broken("MR-WIRE-004", "ip.ttl", send().encapsulation(V4.withTtl(0))),
            broken("MR-WIRE-004", "ip.total_length", send().payload(new byte[64]).trailer(new byte[6])),
            broken("MR-WIRE-007", "ip.ttl", send().encapsulation(V6.withTtl(0))),
            broken("MR-WIRE-007", "ip6.payload_length", send().encapsulation(V6).trailer(new byte[2])),
            broken("MR-WIRE-009", "udp.checksum", send().validUdpChecksum(true)),
            broken("MR-WIRE-010", "udp.sport", send().encapsulation(V4.withUdpSourcePort(0x1234))),
            broken("MR-WIRE-014", "icrc", send().correctIcrc(false)),
            broken("MR-WIRE-013", "bth.m", send().with("bth.m", 1)),
            broken("MR-WIRE-013", "bth.fecn", send().with("bth.fecn", 1)),
            broken("MR-WIRE-013", "bth.becn", send().with("bth.becn", 1)),
            broken("MR-WIRE-013", "bth.resv6a", send().with("bth.resv6a", 4)),
            broken("MR-WIRE-013", "bth.resv7", send().with("bth.resv7", 1)),
            broken("MR-WIRE-013", "bth.tver", send().tver(0)),
            broken("MR-WIRE-013", "bth.pkey", send().with("bth.pkey", 0x8001)),
            broken("MR-WIRE-013", "bth.ackreq", ack().with("bth.ackreq", 1)),
            broken("MR-WIRE-013", "bth.se", of(Opcode.SEND_FIRST).payload(new byte[8]).with("bth.se", 1)),
            broken("MR-HDR-012", "bth.becn", of(Opcode.CNP).with("bth.becn", 0)),
            broken("MR-HDR-012", "bth.psn", of(Opcode.CNP).psn(5)),
            broken("MR-HDR-012", "bth.pkey", of(Opcode.CNP).with("bth.pkey", 0x7FFF)),
            broken("MR-HDR-012", "cnp", of(Opcode.CNP).payload(new byte[4])),
            broken("MR-WIRE-019", "pad", send().payload(new byte[5]).padFill(0xAA)),
            broken("MR-WIRE-019", "bth.padcnt", send().payload(new byte[5]).padLength(1)),
            broken("MR-HDR-001", "payload_len", ack().payload(new byte[4])),
            broken("MR-LEG-001", "payload_len", of(Opcode.ACKNOWLEDGE).tver(0).psn(99).payload(new byte[4]),
                new QpFacts(0, null, null, null, null, null)),
            broken("MR-HDR-002", "pleth.first/last", send().with("pleth.first", 0)),
            broken("MR-HDR-003", "pleth.flags_resv", send().with("pleth.flags_resv", 1)),
            broken("MR-HDR-003", "pleth.resv", send().with("pleth.resv", 1)),
            broken("MR-RD-004", "pleth.rsn", of(Opcode.RDMA_READ_RESPONSE_ONLY).payload(new byte[8])
                .with("pleth.rsn", 3)),
            broken("MR-HDR-008", "aeth.syndrome", ack().with("aeth.syndrome", 0x41)),
            broken("MR-HDR-008", "aeth.syndrome", ack().with("aeth.syndrome", 0x9F)),
            broken("MR-HDR-008", "aeth.syndrome", of(Opcode.RDMA_READ_RESPONSE_ONLY).payload(new byte[8])
                .with("aeth.syndrome", 0x00)),
            broken("MR-HDR-009", "atomiceth.va", of(Opcode.COMPARE_SWAP).with("atomiceth.va", 0x1004)),
            broken("MR-HDR-009", "atomiceth.compare", of(Opcode.FETCH_ADD).with("atomiceth.compare", 5)),
            broken("MR-ACK-013", "aeth.syndrome", ack().with("aeth.syndrome", 0x60).psn(100)),
            broken("MR-ACK-002", "sacketh.resv", ack().with("sacketh.resv", 1)),
            broken("MR-ACK-002", "sacketh.bitmap", ack().with("sacketh.bitmap", Long.MIN_VALUE)),
            broken("MR-ACK-002", "sacketh.bitmap bit 2", ack().with("aeth.syndrome", 0x61).psn(102)
                .with("sacketh.bitmap", Long.MIN_VALUE >>> 2)),
            broken("MR-ACK-001", "bth.psn", ack().psn(98)),
            broken("MR-CC-002", "ip.ecn", send().ecn(3)),
            broken("MR-CC-001", "ip.ecn", send().ecn(0)),
            broken("MR-CC-001", "ip.ecn", send().tver(0).ecn(0), new QpFacts(0, null, null, null, null, null)));
    }

    private static Arguments broken(final String rule, final String field, final FrameBuilder frame) {
        return broken(rule, field, frame, QP);
    }

    private static Arguments broken(final String rule, final String field, final FrameBuilder frame,
                                    final QpFacts qp) {
        return Arguments.of(rule, field, frame, qp);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("broken")
    void fires(final String rule, final String field, final FrameBuilder frame, final QpFacts qp) {
        final List<Finding> findings = FrameOracle.check(decode(frame), 42, LIVE, qp);
        assertThat(findings).as(findings.toString()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(rule);
            assertThat(f.field()).isEqualTo(field);
            assertThat(f.frame()).isEqualTo(42);
        });
    }

    /** rule, a frame the rule judges and that meets every rule. */
    static Stream<Arguments> sound() {
        return Stream.of(
            Arguments.of(FrameRule.WIRE_001, send().encapsulation(V4.withVlan(7, 3))),
            Arguments.of(FrameRule.MP_007, send()),
            Arguments.of(FrameRule.WIRE_004, send()),
            Arguments.of(FrameRule.WIRE_004, of(Opcode.CNP)),
            Arguments.of(FrameRule.WIRE_007, send().encapsulation(V6)),
            Arguments.of(FrameRule.WIRE_009, ack()),
            Arguments.of(FrameRule.WIRE_010, send().encapsulation(V4.withUdpSourcePort(0xFFFF))),
            Arguments.of(FrameRule.WIRE_014, send().payload(new byte[300])),
            Arguments.of(FrameRule.WIRE_013, of(Opcode.SEND_LAST).payload(new byte[4]).with("bth.se", 1)),
            Arguments.of(FrameRule.HDR_012, of(Opcode.CNP)),
            Arguments.of(FrameRule.WIRE_019, send().payload(new byte[5])),
            Arguments.of(FrameRule.HDR_001, ack()),
            Arguments.of(FrameRule.LEG_001, of(Opcode.RDMA_WRITE_ONLY).tver(0).payload(new byte[12])),
            Arguments.of(FrameRule.HDR_002, of(Opcode.RDMA_WRITE_MIDDLE).payload(new byte[16])),
            Arguments.of(FrameRule.HDR_003, send()),
            Arguments.of(FrameRule.RD_004, of(Opcode.RDMA_READ_RESPONSE_MIDDLE).payload(new byte[8])),
            Arguments.of(FrameRule.HDR_008, ack().with("aeth.syndrome", 0x2A)),
            Arguments.of(FrameRule.HDR_009, of(Opcode.FETCH_ADD).with("atomiceth.va", 0x1008)),
            Arguments.of(FrameRule.ACK_013, ack().with("aeth.syndrome", 0x61).psn(100)),
            Arguments.of(FrameRule.ACK_002, ack().with("sacketh.bitmap", 0x6000_0000_0000_0000L)),
            Arguments.of(FrameRule.ACK_001, ack()),
            Arguments.of(FrameRule.CC_002, send().ecn(1)),
            Arguments.of(FrameRule.CC_001, send().ecn(1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sound")
    void keepsQuiet(final FrameRule rule, final FrameBuilder frame) {
        final Set<FrameRule> examined = EnumSet.noneOf(FrameRule.class);
        final DecodedFrame f = decode(frame);
        final QpFacts qp = new QpFacts(f.tver(), 0xFFFF, Basis.configured("the QP's pkey attribute"), false, null,
            null);
        final List<Finding> findings = FrameOracle.check(f, 1, false, LIVE, qp, examined::add);
        assertThat(examined).as("the rule judged the frame").contains(rule);
        assertThat(findings).isEmpty();
    }

    @Test
    void aFrameCanBreakSeveralRulesAndEveryFindingIsReturnedInRuleOrder() {
        final List<Finding> findings = FrameOracle.check(decode(send().correctIcrc(false).ecn(0)
            .with("bth.m", 1).validUdpChecksum(true)), 3, LIVE, QP);
        assertThat(findings).extracting(Finding::rule)
            .containsExactly("MR-WIRE-009", "MR-WIRE-014", "MR-WIRE-013", "MR-CC-001");
    }

    @Test
    void aCeMarkIsJudgedOnlyWhereTheFramesWereTakenAtTheSender() {
        final Set<FrameRule> examined = EnumSet.noneOf(FrameRule.class);
        assertThat(FrameOracle.check(decode(send().ecn(3)), 1, false, AWAY, QP, examined::add)).isEmpty();
        assertThat(examined).doesNotContain(FrameRule.CC_002);
    }

    @Test
    void aTver0DataPacketIsJudgedForEctOnlyFromAKnownMetaRoceDevice() {
        final QpFacts legacy = new QpFacts(0, null, null, null, null, null);
        final DecodedFrame notEct = decode(send().tver(0).ecn(0));
        assertThat(FrameOracle.check(notEct, 1, AWAY, legacy)).as("plain RoCEv2 of an unknown device").isEmpty();
        assertThat(FrameOracle.check(notEct, 1, Vantage.capture(0, false, true), legacy)).extracting(Finding::rule)
            .containsExactly("MR-CC-001");
        assertThat(FrameOracle.check(decode(send().ecn(0)), 1, AWAY, QP)).as("TVer 1 is MetaRoCE whoever sent it")
            .extracting(Finding::rule).containsExactly("MR-CC-001");
    }

    @Test
    void withoutTheMacAddressesNeitherIsJudged() {
        final Set<FrameRule> examined = EnumSet.noneOf(FrameRule.class);
        final FrameBuilder elsewhere = send().encapsulation(V4.withMacs(0x02_00_00_00_00_01L, 0x02_00_00_00_00_02L));
        assertThat(FrameOracle.check(decode(elsewhere), 1, false, AWAY, QP, examined::add)).isEmpty();
        assertThat(examined).contains(FrameRule.WIRE_001).doesNotContain(FrameRule.MP_007);
    }

    @Test
    void theFcsACaptureKeepsIsNoLengthError() {
        final FrameBuilder withFcs = send().payload(new byte[64]).trailer(new byte[4]);
        assertThat(FrameOracle.check(decode(withFcs), 1, Vantage.capture(4, false, false), QP)).isEmpty();
        assertThat(FrameOracle.check(decode(withFcs), 1, Vantage.capture(-1, false, false), QP)).isEmpty();
        assertThat(FrameOracle.check(decode(withFcs), 1, LIVE, QP)).extracting(Finding::field)
            .containsExactly("ip.total_length");
    }

    @Test
    void aFrameTheCaptureCutIsNotJudgedOnWhatWasCut() {
        final byte[] whole = send().payload(new byte[5]).padFill(0xAA).correctIcrc(false).build();
        final byte[] cut = whole.clone();
        java.util.Arrays.fill(cut, cut.length - 10, cut.length, (byte) 0);
        assertThat(FrameOracle.check(decode(cut), 1, true, AWAY, QP, null)).isEmpty();
    }

    @Test
    void aPkeyInferredFromTheCaptureSaysSo() {
        final QpFacts inferred = new QpFacts(1, 0x8001, Basis.inferred("frame 3"), null, null, null);
        assertThat(FrameOracle.check(decode(send()), 9, AWAY, inferred)).singleElement().satisfies(f -> {
            assertThat(f.field()).isEqualTo("bth.pkey");
            assertThat(f.basis().certain()).isFalse();
            assertThat(f.expected()).contains("frame 3");
        });
    }

    @Test
    void aFrameThatDoesNotDecodeBreaksTheRuleOfItsDamage() {
        final DecodedFrame lengths = decode(send().correctLengths(false).with("ip.total_length", 20)
            .with("udp.length", 30));
        assertThat(lengths.isRoce()).isFalse();
        assertThat(FrameOracle.check(lengths, 5, LIVE, QP)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isIn("MR-WIRE-004", "MR-WIRE-009");
            assertThat(f.expected()).isEqualTo("a well-formed frame");
        });
        final DecodedFrame pad = decode(ack().padLength(0).with("bth.padcnt", 3));
        assertThat(pad.isRoce()).isFalse();
        assertThat(FrameOracle.ruleOfUndecodable(pad)).isEqualTo(FrameRule.WIRE_019);
    }
}

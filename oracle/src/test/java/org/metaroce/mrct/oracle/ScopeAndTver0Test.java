package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.oracle.Frames.DEVICE;
import static org.metaroce.mrct.oracle.Frames.PEER;
import static org.metaroce.mrct.oracle.Frames.V4;
import static org.metaroce.mrct.oracle.Frames.ack;
import static org.metaroce.mrct.oracle.Frames.decode;
import static org.metaroce.mrct.oracle.Frames.of;
import static org.metaroce.mrct.oracle.Frames.send;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The scope of MetaRoCE v1 (Appendix F.1: UC, UD, MADs and look-alikes are not judged, RC still is) and the TVer 0
 * binding of each rule (Appendix F.2: what RoCEv2 leaves free is not a violation in a TVer 0 frame, the rest still is).
 */
class ScopeAndTver0Test {
    private static final Vantage AWAY = Vantage.capture(0, false, false);
    private static final Vantage LIVE = Vantage.live(DEVICE, PEER);
    private static final QpFacts LEGACY = new QpFacts(0, 0xFFFF, Basis.inferred("frame 1"), null, null, null);
    private static final QpFacts METAROCE = new QpFacts(1, 0xFFFF, Basis.inferred("frame 1"), null, null, null);

    private static Scope.Kind kind(final FrameBuilder frame, final Vantage v) {
        return FrameOracle.scope(decode(frame), v).kind();
    }

    @Test
    void ucUdAndManagementDatagramsAreOutsideTheScopeWhoeverSendsThem() {
        final FrameBuilder uc = of(Opcode.UC_SEND_ONLY).tver(0).payload(new byte[8]);
        final FrameBuilder ucWrite = of(Opcode.UC_RDMA_WRITE_ONLY).tver(0).payload(new byte[8]);
        final FrameBuilder ud = of(Opcode.UD_SEND_ONLY).tver(0).destQp(0x11).payload(new byte[8]);
        final FrameBuilder mad = of(Opcode.UD_SEND_ONLY).tver(0).destQp(1).payload(new byte[256]);
        final FrameBuilder smp = of(Opcode.UD_SEND_ONLY).tver(0).destQp(0).payload(new byte[256]);
        for (final Vantage v : List.of(AWAY, LIVE)) {
            assertThat(kind(uc, v)).isEqualTo(Scope.Kind.UC);
            assertThat(kind(ucWrite, v)).isEqualTo(Scope.Kind.UC);
            assertThat(kind(ud, v)).isEqualTo(Scope.Kind.UD);
            assertThat(kind(mad, v)).isEqualTo(Scope.Kind.MAD);
            assertThat(kind(smp, v)).isEqualTo(Scope.Kind.MAD);
        }
        assertThat(FrameOracle.scope(decode(mad), AWAY).reason()).contains("QP1", "connection manager");
        assertThat(FrameOracle.scope(decode(uc), AWAY).reason()).contains("0x24", "UC_SEND_ONLY", "unreliable connected");
        // a UC frame that would break MR-LEG-001 and MR-WIRE-013 as RC is not judged at all
        final Set<FrameRule> examined = EnumSet.noneOf(FrameRule.class);
        assertThat(FrameOracle.check(decode(uc.with("bth.m", 1)), 1, false, AWAY, LEGACY, examined::add)).isEmpty();
        assertThat(examined).isEmpty();
    }

    @Test
    void otherServicesOfTheOpcodeSpaceAreOutsideTheScope() {
        final DecodedFrame rd = decode(of(Opcode.valueOf(0x44)).tver(0).headers().payload(new byte[8]));
        assertThat(rd.isRoce()).isTrue();
        assertThat(FrameOracle.scope(rd, AWAY).kind()).isEqualTo(Scope.Kind.OTHER_SERVICE);
        assertThat(FrameOracle.scope(rd, AWAY).reason()).contains("RD");
        final DecodedFrame vendor = decode(of(Opcode.valueOf(0xC3)).tver(0).headers().payload(new byte[8]));
        assertThat(FrameOracle.scope(vendor, AWAY).kind()).isEqualTo(Scope.Kind.OTHER_SERVICE);
        assertThat(FrameOracle.check(vendor, 1, AWAY, LEGACY)).isEmpty();
    }

    @Test
    void rcAndCnpsAreJudgedAndAnRcViolationIsStillFound() {
        assertThat(kind(send().tver(0), AWAY)).isEqualTo(Scope.Kind.METAROCE);
        assertThat(kind(of(Opcode.CNP), AWAY)).isEqualTo(Scope.Kind.METAROCE);
        assertThat(kind(of(Opcode.valueOf(0x15)).tver(0).headers(), AWAY)).as("an unassigned RC opcode is RC's")
            .isEqualTo(Scope.Kind.METAROCE);
        assertThat(FrameOracle.check(decode(send().tver(0).with("bth.resv7", 1)), 4, AWAY, LEGACY))
            .extracting(Finding::rule, Finding::field).containsExactly(org.assertj.core.groups.Tuple.tuple(
                "MR-WIRE-013", "bth.resv7"));
        assertThat(FrameOracle.check(decode(send().tver(0).correctIcrc(false)), 4, AWAY, LEGACY))
            .as("a damaged RC frame is judged, not taken for a look-alike").extracting(Finding::rule)
            .containsExactly("MR-WIRE-014");
    }

    @Test
    void aDatagramThatIsNoBthIsALookAlikeOnlyFromAnUnknownSender() {
        final byte[] shortDatagram = udp4791(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        final DecodedFrame tiny = decode(shortDatagram);
        assertThat(tiny.isRoce()).isFalse();
        assertThat(FrameOracle.scope(tiny, AWAY).kind()).isEqualTo(Scope.Kind.NOT_BTH);
        assertThat(FrameOracle.scope(tiny, AWAY).reason()).contains("8 bytes");
        assertThat(FrameOracle.check(tiny, 1, AWAY, QpFacts.UNKNOWN)).isEmpty();
        assertThat(FrameOracle.check(tiny, 1, LIVE, QpFacts.UNKNOWN)).as("a MetaRoCE device's own frame")
            .extracting(Finding::rule).containsExactly("MR-HDR-001");
        final FrameBuilder garbage = send().tver(9).correctIcrc(false);
        assertThat(kind(garbage, AWAY)).isEqualTo(Scope.Kind.NOT_BTH);
        assertThat(kind(garbage, LIVE)).isEqualTo(Scope.Kind.METAROCE);
        assertThat(FrameOracle.check(decode(garbage), 1, LIVE, METAROCE)).extracting(Finding::field)
            .contains("bth.tver", "icrc");
        assertThat(kind(send().tver(9), AWAY)).as("a matching ICRC: a RoCE sender's BTH, judged")
            .isEqualTo(Scope.Kind.METAROCE);
        assertThat(FrameOracle.scope(decode(garbage), AWAY, true).kind()).as("a damaged frame of a known flow")
            .isEqualTo(Scope.Kind.METAROCE);
        assertThat(FrameOracle.check(decode(garbage), 1, false, AWAY, METAROCE, null, true))
            .extracting(Finding::field).contains("bth.tver", "icrc");
    }

    @Test
    void whatRoCEv2LeavesFreeIsNoViolationInATver0Frame() {
        // hardware NICs: MigReq 1 and a hashed source port below 0xC000
        final FrameBuilder hardware = send().encapsulation(V4.withUdpSourcePort(0x1A2B)).with("bth.m", 1);
        assertThat(FrameOracle.check(decode(hardware.tver(0)), 1, AWAY, LEGACY)).isEmpty();
        assertThat(FrameOracle.check(decode(hardware.tver(0)), 1, LIVE, LEGACY)).as("whoever sends it").isEmpty();
        assertThat(FrameOracle.check(decode(hardware), 1, AWAY, METAROCE)).extracting(Finding::field)
            .containsExactly("udp.sport", "bth.m");
        // an ACK, a read response and an atomic acknowledgement with a credit count
        final FrameBuilder credit = of(Opcode.ACKNOWLEDGE).tver(0).psn(99).with("aeth.syndrome", 0x0A);
        assertThat(FrameOracle.check(decode(credit), 1, AWAY, LEGACY)).isEmpty();
        assertThat(FrameOracle.check(decode(of(Opcode.RDMA_READ_RESPONSE_ONLY).tver(0).payload(new byte[8])
            .with("aeth.syndrome", 0x03)), 1, AWAY, LEGACY)).isEmpty();
        assertThat(FrameOracle.check(decode(of(Opcode.ATOMIC_ACKNOWLEDGE).tver(0).with("aeth.syndrome", 0x00)), 1,
            AWAY, LEGACY)).isEmpty();
        assertThat(FrameOracle.check(decode(ack().with("aeth.syndrome", 0x0A)), 1, AWAY, METAROCE))
            .extracting(Finding::rule).containsExactly("MR-HDR-008");
        // the compare field of a FETCH ADD
        assertThat(FrameOracle.check(decode(of(Opcode.FETCH_ADD).tver(0).with("atomiceth.compare", 5)), 1, AWAY,
            LEGACY)).isEmpty();
    }

    @Test
    void whatRoCEv2RequiresIsStillAViolationInATver0Frame() {
        assertThat(FrameOracle.check(decode(of(Opcode.ACKNOWLEDGE).tver(0).psn(99).with("aeth.syndrome", 0x41)), 1,
            AWAY, LEGACY)).extracting(Finding::rule, Finding::field).containsExactly(
                org.assertj.core.groups.Tuple.tuple("MR-HDR-008", "aeth.syndrome"));
        assertThat(FrameOracle.check(decode(of(Opcode.FETCH_ADD).tver(0).with("atomiceth.va", 0x1004)), 1, AWAY,
            LEGACY)).extracting(Finding::field).containsExactly("atomiceth.va");
        assertThat(FrameOracle.check(decode(send().tver(0).with("bth.fecn", 1).with("bth.m", 1)), 1, AWAY, LEGACY))
            .extracting(Finding::field).containsExactly("bth.fecn");
        assertThat(FrameOracle.check(decode(send().tver(0).validUdpChecksum(true)), 1, AWAY, LEGACY))
            .extracting(Finding::rule).containsExactly("MR-WIRE-009");
    }

    @Test
    void aRuleThatDoesNotBindTver0NeverExaminesATver0Frame() {
        final List<FrameBuilder> legacy = List.of(send().tver(0), of(Opcode.ACKNOWLEDGE).tver(0).psn(99),
            of(Opcode.RDMA_READ_RESPONSE_FIRST).tver(0).payload(new byte[256]),
            of(Opcode.RDMA_WRITE_FIRST).tver(0).payload(new byte[256]), of(Opcode.FETCH_ADD).tver(0));
        final Set<FrameRule> examined = EnumSet.noneOf(FrameRule.class);
        for (final FrameBuilder frame : legacy) {
            FrameOracle.check(decode(frame), 1, false, AWAY, LEGACY, examined::add);
        }
        for (final FrameRule rule : FrameRule.values()) {
            if (rule.tver0() == FrameRule.Tver0.NONE || rule.tver0() == FrameRule.Tver0.METAROCE_DEVICE) {
                assertThat(examined).as(rule.rule()).doesNotContain(rule);
            }
        }
        assertThat(examined).contains(FrameRule.WIRE_013, FrameRule.LEG_001, FrameRule.HDR_008, FrameRule.HDR_009,
            FrameRule.WIRE_014);
    }

    @Test
    void everyBindingSaysWhy() {
        for (final FrameRule rule : FrameRule.values()) {
            assertThat(rule.tver0Reason().isEmpty()).as(rule.rule())
                .isEqualTo(rule.tver0() == FrameRule.Tver0.BINDS);
            assertThat(rule.tver0Exempt().isEmpty()).as(rule.rule())
                .isEqualTo(rule.tver0() != FrameRule.Tver0.EXCEPT);
            assertThat(rule.binds(1, "any", false)).as(rule.rule() + " binds every TVer 1 frame").isTrue();
        }
        assertThat(FrameRule.WIRE_010.tver0()).isEqualTo(FrameRule.Tver0.NONE);
        assertThat(FrameRule.WIRE_013.tver0Exempt()).containsExactly("bth.m");
    }

    /** An IPv4 UDP datagram to port 4791 carrying {@code payload}, from the device to its peer. */
    private static byte[] udp4791(final byte[] payload) {
        final byte[] frame = new byte[14 + 20 + 8 + payload.length];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(frame);
        b.put(0, (byte) 0x02).put(5, (byte) 0x0A).put(6, (byte) 0x02).put(11, (byte) 0x0D);
        b.putShort(12, (short) 0x0800);
        b.put(14, (byte) 0x45).putShort(16, (short) (20 + 8 + payload.length)).putShort(20, (short) 0x4000);
        b.put(22, (byte) 64).put(23, (byte) 17);
        b.put(26, (byte) 198).put(27, (byte) 51).put(28, (byte) 100).put(29, (byte) 2);
        b.put(30, (byte) 198).put(31, (byte) 51).put(32, (byte) 100).put(33, (byte) 1);
        b.putShort(34, (short) 0xC001).putShort(36, (short) 4791).putShort(38, (short) (8 + payload.length));
        b.put(42, payload);
        return frame;
    }
}

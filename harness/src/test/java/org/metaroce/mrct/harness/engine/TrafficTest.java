package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.PacketSpec;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The PSN span of READ REQUESTs the harness sends, first transmissions and re-requests (sections 8.1 and 13.6), and
 * the defaults of frames the harness sends.
 */
class TrafficTest {
    @Test
    void aReadOccupiesOnePsnPerResponse() {
        assertThat(Traffic.readSpan(0, 0, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(1, 0, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(1024, 0, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(1025, 0, 1024)).isEqualTo(2);
        assertThat(Traffic.readSpan(4000, 0, 256)).isEqualTo(16);
    }

    @Test
    void aReRequestOccupiesThePsnsFromItsOffsetToTheEndOfTheRead() {
        assertThat(Traffic.readSpan(4000, 2048, 1024)).isEqualTo(2);
        assertThat(Traffic.readSpan(4000, 3072, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(4096, 4096, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(4096, 100, 1024)).isEqualTo(4);
    }

    @Test
    void aCnpIsTver0WhateverTheConnectionAndOtherFramesFollowIt() {
        assertThat(Traffic.defaultTver(Opcode.CNP, 1)).isZero();
        assertThat(Traffic.defaultTver(Opcode.CNP, 0)).isZero();
        assertThat(Traffic.defaultTver(Opcode.ACKNOWLEDGE, 1)).isEqualTo(1);
        assertThat(Traffic.defaultTver(Opcode.RDMA_WRITE_ONLY, 0)).isZero();
    }

    @Test
    void aCnpIsSentWithTverZeroOnATverOneQpUnlessTheCaseSaysOtherwise() {
        final Connection c = new Connection("q", 1, 0x123, 0x456, 100, 200,
            Encapsulation.ipv4("198.51.100.1", "198.51.100.2").withMacs(0x020000000001L, 0x020000000002L), 1, 0xFFFF,
            1024, 128);
        final DecodedFrame cnp = decode(new Traffic(1).packet(spec("CNP", null), c, Map.of(), n -> null).bytes());
        assertThat(cnp.opcode()).isEqualTo(Opcode.CNP);
        assertThat(cnp.bth().tver()).isZero();
        assertThat(cnp.bth().destQp()).isEqualTo(0x123);
        assertThat(cnp.bth().psn()).isZero();
        assertThat(cnp.bth().ackReq()).isFalse();
        final DecodedFrame forced = decode(new Traffic(1).packet(spec("CNP", 1L), c, Map.of(), n -> null).bytes());
        assertThat(forced.bth().tver()).isEqualTo(1);
        final DecodedFrame ack = decode(new Traffic(1).packet(spec("ACKNOWLEDGE", null), c, Map.of(), n -> null)
            .bytes());
        assertThat(ack.bth().tver()).isEqualTo(1);
    }

    private static PacketSpec spec(final String opcode, final Long tver) {
        return new PacketSpec("q", org.metaroce.mrct.wire.Opcode.byName(opcode), null, null, null, null, null, null,
            null, null, null, null, null, null,
            null, null, null, null, null, null, Map.of(), null, null, null, null, null, false, false,
            tver == null ? null : org.metaroce.mrct.harness.cases.Expr.of(tver), false, null, 1);
    }

    private static DecodedFrame decode(final byte[] bytes) {
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length);
    }
}

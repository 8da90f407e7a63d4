package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpcodeTest {
    @Test
    void everyByteValueDecodesWithoutThrowing() {
        for (int code = 0; code < 256; code++) {
            final Opcode opcode = Opcode.valueOf(code);
            assertThat(opcode.code()).isEqualTo(code);
            assertThat(Opcode.valueOf(code)).isSameAs(opcode);
            if (!opcode.isKnown()) {
                assertThat(opcode.name()).startsWith("UNKNOWN(0x");
                assertThat(opcode.kind()).isEqualTo(OpKind.UNKNOWN);
            }
        }
    }

    @Test
    void reservedAndManufacturerValuesAreUnknown() {
        for (final int code : new int[] {0x15, 0x18, 0x19, 0x1A, 0x1B, 0x1E, 0x1F, 0x40, 0x80, 0xA0, 0xC0, 0xFF}) {
            assertThat(Opcode.valueOf(code).isKnown()).as("0x%02X", code).isFalse();
        }
        assertThat(Opcode.valueOf(0xC5).transport()).isEqualTo(Transport.MANUFACTURER);
    }

    @Test
    void namesResolveWithAndWithoutPrefix() {
        assertThat(Opcode.byName("RDMA_WRITE_ONLY")).isSameAs(Opcode.RDMA_WRITE_ONLY);
        assertThat(Opcode.byName("rc_rdma_write_only")).isSameAs(Opcode.RDMA_WRITE_ONLY);
        assertThat(Opcode.byName("UC_SEND_ONLY").code()).isEqualTo(0x24);
        assertThat(Opcode.byName("0x81")).isSameAs(Opcode.CNP);
        assertThat(Opcode.byName("UNKNOWN(0x15)").code()).isEqualTo(0x15);
        assertThat(Opcode.byName("NOT_AN_OPCODE")).isNull();
        assertThat(Opcode.byName("300")).isNull();
    }

    @Test
    void positionsAndKindsFollowTheTable() {
        assertThat(Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE.position()).isEqualTo(Position.LAST);
        assertThat(Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE.hasImmediate()).isTrue();
        assertThat(Opcode.SEND_ONLY_WITH_INVALIDATE.hasInvalidate()).isTrue();
        assertThat(Opcode.RDMA_READ_RESPONSE_MIDDLE.kind()).isEqualTo(OpKind.RDMA_READ_RESPONSE);
        assertThat(Opcode.FLUSH.isMetaRoceV1()).isFalse();
        assertThat(Opcode.UC_SEND_ONLY.isMetaRoceV1()).isFalse();
        assertThat(Opcode.FETCH_ADD.isMetaRoceV1()).isTrue();
    }

    @Test
    void aethSyndromesAreOpen() {
        assertThat(AethSyndrome.valueOf(0x1F)).isSameAs(AethSyndrome.ACK);
        assertThat(AethSyndrome.valueOf(0x1F).type()).isEqualTo(AethSyndrome.Type.ACK);
        assertThat(AethSyndrome.valueOf(0x2E).type()).isEqualTo(AethSyndrome.Type.RNR_NAK);
        assertThat(AethSyndrome.valueOf(0x2E).code()).isEqualTo(14);
        assertThat(AethSyndrome.valueOf(0x62).name()).isEqualTo("NAK_REMOTE_ACCESS_ERROR");
        assertThat(AethSyndrome.valueOf(0x67).name()).isEqualTo("UNKNOWN(0x67)");
        assertThat(AethSyndrome.valueOf(0x67).isKnown()).isFalse();
        assertThat(AethSyndrome.valueOf(0x40).type()).isEqualTo(AethSyndrome.Type.RESERVED);
        assertThat(AethSyndrome.valueOf(0x9F).type()).isEqualTo(AethSyndrome.Type.RESERVED);
        assertThat(RnrTimer.nanos(0)).isEqualTo(655_360_000L);
        assertThat(RnrTimer.nanos(14)).isEqualTo(1_280_000L);
        assertThat(RnrTimer.nanos(31)).isEqualTo(491_520_000L);
    }

    @Test
    void metaRoceLayoutsCarryPlethAndRethOnEveryWritePacket() {
        assertThat(HeaderLayout.extensionHeaders(Opcode.RDMA_WRITE_MIDDLE, 1))
            .containsExactly(HeaderKind.PLETH, HeaderKind.RETH);
        assertThat(HeaderLayout.extensionHeaders(Opcode.RDMA_WRITE_MIDDLE, 0)).isEmpty();
        assertThat(HeaderLayout.extensionHeaders(Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE, 1))
            .containsExactly(HeaderKind.PLETH, HeaderKind.RETH, HeaderKind.IMMDT);
        assertThat(HeaderLayout.extensionHeaders(Opcode.ACKNOWLEDGE, 1))
            .containsExactly(HeaderKind.AETH, HeaderKind.SACKETH);
        assertThat(HeaderLayout.extensionHeaders(Opcode.ACKNOWLEDGE, 0)).containsExactly(HeaderKind.AETH);
        assertThat(HeaderLayout.extensionHeaders(Opcode.RDMA_READ_RESPONSE_MIDDLE, 1))
            .containsExactly(HeaderKind.PLETH);
        assertThat(HeaderLayout.extensionHeaders(Opcode.UD_SEND_ONLY_WITH_IMMEDIATE, 0))
            .containsExactly(HeaderKind.DETH, HeaderKind.IMMDT);
        assertThat(HeaderLayout.extensionHeaders(Opcode.CNP, 0)).containsExactly(HeaderKind.CNP_RESERVED);
        assertThat(HeaderLayout.extensionHeaders(Opcode.SEND_ONLY, 5)).isNull();
        assertThat(HeaderLayout.extensionHeaders(Opcode.valueOf(0x15), 1)).isNull();
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.oracle.Frames.decode;
import static org.metaroce.mrct.oracle.Frames.of;

import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * MR-RTX-006 (-017, -018) on hand-built retransmissions: the fields section 13.7 lets change keep it quiet, any other
 * byte makes it fire, under the rule of the original's kind.
 */
class RequesterRepeatTest {
    private final RequesterRepeat repeat = new RequesterRepeat();

    private static FrameBuilder write() {
        return of(Opcode.RDMA_WRITE_ONLY).psn(7).payload(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}).with("pleth.msn", 3)
            .with("reth.va", 0x1000).with("reth.rkey", 0x77).with("reth.dmalen", 8).with("ip.id", 11)
            .with("udp.sport", 0xC001);
    }

    private Finding compare(final DecodedFrame original, final DecodedFrame again) {
        assertThat(RequesterRepeat.comparable(original)).isTrue();
        return repeat.check(again, original.opcode(), original.icrcOnWire(), RequesterRepeat.variant(original),
            "frame 1", 2, Basis.FRAME);
    }

    @Test
    void theFieldsARetransmissionMayChangeKeepItQuiet() {
        final DecodedFrame original = decode(write().with("bth.ackreq", 0));
        final DecodedFrame again = decode(write().with("bth.ackreq", 1).with("ip.id", 99).with("udp.sport", 0xD00D)
            .ecn(1));
        assertThat(compare(original, again)).isNull();
    }

    @Test
    void anotherPayloadByteMakesItFire() {
        final DecodedFrame original = decode(write());
        final DecodedFrame again = decode(write().payload(new byte[] {1, 2, 3, 4, 5, 6, 7, 9}));
        assertThat(compare(original, again)).isEqualTo(new Finding("MR-RTX-006", "packet",
            "as frame 1 (RDMA_WRITE_ONLY) but for " + RequesterRepeat.MAY_CHANGE,
            "RDMA_WRITE_ONLY with other headers or payload", 2, Basis.FRAME));
    }

    @Test
    void anotherOpcodeMakesItFire() {
        final DecodedFrame original = decode(write());
        final DecodedFrame again = decode(of(Opcode.SEND_ONLY).psn(7).payload(new byte[8]).with("pleth.msn", 3));
        assertThat(compare(original, again).actual()).isEqualTo("SEND_ONLY");
    }

    @Test
    void aReadOrAnAtomicResentDifferentlyBreaksItsOwnRule() {
        final FrameBuilder read = of(Opcode.RDMA_READ_REQUEST).psn(7).with("pleth.msn", 3).with("reth.va", 0x1000)
            .with("reth.rkey", 0x77).with("reth.dmalen", 4096).with("bth.ackreq", 1);
        assertThat(compare(decode(read), decode(read))).isNull();
        assertThat(compare(decode(read), decode(read.with("reth.dmalen", 2048))).rule()).isEqualTo("MR-RTX-017");
        final FrameBuilder legacyRead = of(Opcode.RDMA_READ_REQUEST).tver(0).headers(HeaderKind.RETH).psn(7)
            .with("reth.va", 0x1000).with("reth.rkey", 0x77).with("reth.dmalen", 4096).with("bth.ackreq", 1);
        assertThat(compare(decode(legacyRead), decode(legacyRead.with("reth.dmalen", 2048))).rule())
            .as("Table 16-2: MR-RTX-017 does not bind TVer 0, MR-RTX-006 does").isEqualTo("MR-RTX-006");
        final FrameBuilder atomic = of(Opcode.FETCH_ADD).psn(7).with("pleth.msn", 3).with("atomiceth.va", 0x1000)
            .with("atomiceth.rkey", 0x77).with("atomiceth.swap", 5).with("bth.ackreq", 1);
        assertThat(compare(decode(atomic), decode(atomic))).isNull();
        assertThat(compare(decode(atomic), decode(atomic.with("atomiceth.swap", 6))).rule()).isEqualTo("MR-RTX-018");
    }

    @Test
    void aReadRequestAfterItsReadsFirstPsnIsNotCompared() {
        assertThat(RequesterRepeat.compared(Opcode.RDMA_READ_REQUEST, 9, 7)).isFalse();
        assertThat(RequesterRepeat.compared(Opcode.RDMA_READ_REQUEST, 7, 7)).isTrue();
        assertThat(RequesterRepeat.compared(Opcode.SEND_ONLY, 9, 9)).isTrue();
    }
}

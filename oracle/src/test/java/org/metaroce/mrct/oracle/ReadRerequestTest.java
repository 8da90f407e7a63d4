package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.oracle.Frames.decode;
import static org.metaroce.mrct.oracle.Frames.of;

import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * MR-RTX-016 and MR-LEG-010 on hand-built READ REQUESTs recovering PSN p + 2 of a READ of 4096 bytes at va 0x1000,
 * MSN 3, PMTU 1024.
 */
class ReadRerequestTest {
    private static final ReadRerequest.Read READ = new ReadRerequest.Read(3, 0x1000, 0x77, 4096);

    private static FrameBuilder rerequest() {
        return of(Opcode.RDMA_READ_REQUEST).psn(9).with("pleth.msn", 3).with("pleth.offset", 2048)
            .with("reth.va", 0x1000).with("reth.rkey", 0x77).with("reth.dmalen", 4096).with("bth.ackreq", 1);
    }

    private static FrameBuilder legacy(final long va, final long length) {
        return of(Opcode.RDMA_READ_REQUEST).tver(0).headers(HeaderKind.RETH).psn(9).with("reth.va", va)
            .with("reth.rkey", 0x77).with("reth.dmalen", length).with("bth.ackreq", 1);
    }

    @Test
    void aReRequestWithTheOffsetOfItsPsnAndTheOriginalMsnAndRethIsQuiet() {
        assertThat(ReadRerequest.check(decode(rerequest()), READ, 2, 1024, 5, Basis.FRAME)).isEmpty();
        assertThat(ReadRerequest.check(decode(rerequest()), READ, 2, 0, 5, Basis.FRAME))
            .as("without the PMTU a multiple of 2").isEmpty();
    }

    @Test
    void aReRequestFromOffsetZeroOrWithAMovedRethFires() {
        assertThat(ReadRerequest.check(decode(rerequest().with("pleth.offset", 0)), READ, 2, 1024, 5, Basis.FRAME))
            .containsExactly(new Finding("MR-RTX-016", "pleth.offset", "2048 (0x800)", "0 (0x0)", 5, Basis.FRAME));
        assertThat(ReadRerequest.check(decode(rerequest().with("reth.va", 0x1800).with("reth.dmalen", 2048)), READ,
            2, 1024, 5, Basis.FRAME)).extracting(Finding::field).containsExactly("reth.va", "reth.dmalen");
        assertThat(ReadRerequest.check(decode(rerequest().with("pleth.offset", 0)), READ, 2, 0, 5, Basis.FRAME))
            .extracting(Finding::rule).containsExactly("MR-RTX-016");
    }

    @Test
    void aTver0RequestForTheRestMovesTheRethPastTheBytesReceived() {
        assertThat(ReadRerequest.check(decode(legacy(0x1800, 2048)), READ, 2, 1024, 5, Basis.FRAME)).isEmpty();
        assertThat(ReadRerequest.check(decode(legacy(0x1800, 2048)), READ, 2, 0, 5, Basis.FRAME)).isEmpty();
    }

    @Test
    void aTver0RequestForTheRestWithTheOriginalRethFires() {
        assertThat(ReadRerequest.check(decode(legacy(0x1000, 4096)), READ, 2, 1024, 5, Basis.FRAME))
            .extracting(Finding::rule, Finding::field)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("MR-LEG-010", "reth.va"),
                org.assertj.core.groups.Tuple.tuple("MR-LEG-010", "reth.dmalen"));
        assertThat(ReadRerequest.check(decode(legacy(0x1000, 4096)), READ, 2, 0, 5, Basis.FRAME))
            .extracting(Finding::rule).containsExactly("MR-LEG-010");
    }

    @Test
    void aReRequestFromADeliveredPsnNamesTheLowestPsnNotDelivered() {
        final Finding f = ReadRerequest.fromDelivered(40, 43, 9, Basis.configured("test"));
        assertThat(f.rule()).isEqualTo("MR-RTX-016");
        assertThat(f.field()).isEqualTo("bth.psn");
        assertThat(f.expected()).startsWith("43");
        assertThat(f.actual()).startsWith("40");
    }
}

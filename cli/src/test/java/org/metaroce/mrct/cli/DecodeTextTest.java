package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.capture.PcapWriter;

/** {@code mrct decode --format text}: one aligned line per frame. */
class DecodeTextTest {
    @TempDir
    Path dir;

    @Test
    void everyColumnOfACraftedFrame() throws IOException {
        final Path file = Crafted.pcap(dir.resolve("text.pcap"), List.of(Crafted.writeOnly().build(),
            Crafted.sack().build(), Crafted.writeOnly().correctIcrc(false).build(), Crafted.missingReth().build(),
            Crafted.notRoce()));
        final Mrct.Run run = Mrct.run("decode", "--format", "text", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        final List<String> lines = run.lines();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).matches("^ +1 +0\\.000000000  192\\.0\\.2\\.1 > 198\\.51\\.100\\.2 +RDMA_WRITE_ONLY"
            + " +psn +11259375  qpn 0x123456  len +101  icrc ok +tver=1  ecn=CE"
            + "  pleth msn=7 offset=4096 rsn=3 first last  reth va=0x00007f0000001000 rkey=0xdeadbeef dmalen=8192$");
        assertThat(lines.get(1)).matches("^ +2 +0\\.001500000  2001:db8:.* > 2001:db8:.* +ACKNOWLEDGE +psn +77"
            + "  qpn 0x000009  len +0  icrc ok +tver=1  vlan=100  aeth NAK_INVALID_REQUEST msn=42"
            + "  sacketh base=1000 bitmap=8000000000000001$");
        assertThat(lines.get(2)).contains("  icrc BAD ").startsWith("      3       0.003000000  ");
        assertThat(lines.get(3)).matches("^ +4 +0\\.004500000  192\\.0\\.2\\.1 > 198\\.51\\.100\\.2 +RDMA_WRITE_ONLY"
            + " +MALFORMED TRUNCATED at byte 54 \\(reth\\): .*");
        assertThat(lines.get(4)).isEqualTo("      5       0.006000000  not RoCE (60 bytes)");
    }

    @Test
    void columnsAreAlignedOnARealCapture() {
        final Path capture = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");
        final Mrct.Run run = Mrct.run("decode", "--format", "text", "--roce-only", capture.toString());
        assertThat(run.status()).isZero();
        final List<String> lines = run.lines();
        assertThat(lines).hasSize(20).allSatisfy(line -> assertThat(line).contains("icrc ok"));
        for (final String column : List.of(" > ", "psn ", "qpn ", "len ", "icrc ")) {
            assertThat(lines).extracting(line -> line.indexOf(column)).as(column).containsOnly(
                lines.get(0).indexOf(column));
        }
        assertThat(lines.get(0)).startsWith("     22       1.052744000  10.1.16.62 > 10.1.16.61  ")
            .contains("RDMA_WRITE_FIRST", "psn  5454383  qpn 0x00001b  len  1024  icrc ok",
                "reth va=0x00005e6b89b96000 rkey=0x00000ce6 dmalen=3000");
        assertThat(lines.get(3)).contains("ACKNOWLEDGE").endsWith("aeth ACK msn=1");
    }

    @Test
    void severalFilesGetAHeaderLineEach() throws IOException {
        final Path first = Crafted.pcap(dir.resolve("a.pcap"), List.of(Crafted.notRoce()));
        final Path second = Crafted.pcap(dir.resolve("b.pcap"), List.of(
            FrameBuilder.of(Crafted.V4, Opcode.SEND_ONLY).tver(0).build()));
        final Mrct.Run run = Mrct.run("decode", "--format=TEXT", first.toString(), second.toString());
        assertThat(run.status()).isZero();
        assertThat(run.lines()).hasSize(4);
        assertThat(run.lines().get(0)).isEqualTo("# " + first);
        assertThat(run.lines().get(1)).startsWith("      1       0.000000000  not RoCE");
        assertThat(run.lines().get(2)).isEqualTo("# " + second);
        assertThat(run.lines().get(3)).startsWith("      1       0.000000000  192.0.2.1 > 198.51.100.2")
            .contains("SEND_ONLY");
    }

    @Test
    void otherLinkTypesAreNamed() throws IOException {
        final Path file = Crafted.pcap(dir.resolve("raw.pcap"), List.of(new byte[40]),
            PcapWriter.Options.defaults().withLinkType(101));
        assertThat(Mrct.run("decode", "--format", "text", file.toString()).lines())
            .containsExactly("      1       0.000000000  link type 101, not Ethernet: not decoded (40 bytes)");
    }
}

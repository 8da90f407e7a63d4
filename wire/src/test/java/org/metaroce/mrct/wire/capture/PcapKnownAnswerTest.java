package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.wire.capture.Captures.damage;
import static org.metaroce.mrct.wire.capture.Captures.file;
import static org.metaroce.mrct.wire.capture.Captures.frame;
import static org.metaroce.mrct.wire.capture.Captures.hex;
import static org.metaroce.mrct.wire.capture.Captures.readAll;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Classic pcap files written byte by byte in the test, read with known answers. */
class PcapKnownAnswerTest {
    @TempDir
    Path dir;

    @Test
    void readsLittleEndianMicrosecondFileWithFcsBits() throws IOException {
        final Path path = file(dir, "le-micro.pcap", hex(""
                + "d4c3b2a1" // magic, little-endian microseconds
                + "0200 0400" // version 2.4
                + "00000000 00000000" // reserved1, reserved2
                + "ffff0000" // snaplen 65535
                + "01000024" // link type 1, P bit set, FCS length 2 words
                + "00f15365 40e20100 04000000 3c000000" // 1700000000 s, 123456 us, incl 4, orig 60
                + "deadbeef"
                + "01f15365 3f420f00 00000000 00000000" // 1700000001 s, 999999 us, incl 0, orig 0
        ));
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.format()).isEqualTo(CaptureFormat.PCAP_MICRO);
            assertThat(reader.bigEndian()).isFalse();

            assertThat(reader.next()).isTrue();
            assertThat(reader.recordNumber()).isEqualTo(1);
            assertThat(reader.byteOffset()).isEqualTo(24);
            assertThat(reader.timestampNanos()).isEqualTo(1_700_000_000_123_456_000L);
            assertThat(reader.timestampKnown()).isTrue();
            assertThat(reader.capturedLength()).isEqualTo(4);
            assertThat(reader.originalLength()).isEqualTo(60);
            assertThat(frame(reader)).isEqualTo(hex("deadbeef"));
            assertThat(reader.offset()).isEqualTo(40);
            assertThat(reader.linkType()).isEqualTo(1);
            assertThat(reader.fcsLength()).isEqualTo(4);
            assertThat(reader.snapLength()).isEqualTo(65535);
            assertThat(reader.interfaceId()).isZero();
            assertThat(reader.interfaceName()).isNull();
            assertThat(reader.comment()).isNull();

            assertThat(reader.next()).isTrue();
            assertThat(reader.recordNumber()).isEqualTo(2);
            assertThat(reader.byteOffset()).isEqualTo(44);
            assertThat(reader.timestampNanos()).isEqualTo(1_700_000_001_999_999_000L);
            assertThat(reader.capturedLength()).isZero();

            assertThat(reader.next()).isFalse();
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void readsBigEndianNanosecondFile() throws IOException {
        final Path path = file(dir, "be-nano.pcap", hex(""
                + "a1b23c4d 0002 0004 00000000 00000000"
                + "00040000" // snaplen 262144
                + "00000065" // link type 101 (raw IP), no FCS information
                + "ffffffff 3b9ac9ff 00000003 00000002" // 2^32-1 s, 999999999 ns, incl 3 > orig 2
                + "0a0b0c"));
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.format()).isEqualTo(CaptureFormat.PCAP_NANO);
            assertThat(reader.bigEndian()).isTrue();
            assertThat(reader.next()).isTrue();
            assertThat(reader.timestampNanos()).isEqualTo(0xFFFF_FFFFL * 1_000_000_000L + 999_999_999L);
            assertThat(reader.capturedLength()).isEqualTo(3);
            assertThat(reader.originalLength()).isEqualTo(2);
            assertThat(frame(reader)).isEqualTo(hex("0a0b0c"));
            assertThat(reader.linkType()).isEqualTo(101);
            assertThat(reader.fcsLength()).isEqualTo(-1);
            assertThat(reader.snapLength()).isEqualTo(262144);
            assertThat(reader.next()).isFalse();
        }
    }

    @ParameterizedTest(name = "magic {0}, big-endian {1}")
    @CsvSource({"a1b2c3d4, true, PCAP_MICRO", "a1b2c3d4, false, PCAP_MICRO", "a1b23c4d, true, PCAP_NANO",
        "a1b23c4d, false, PCAP_NANO"})
    void detectsEveryMagicInBothByteOrders(final String magic, final boolean bigEndian, final CaptureFormat format)
            throws IOException {
        final long fraction = format == CaptureFormat.PCAP_NANO ? 7 : 7000;
        final Bytes bytes = bigEndian ? Bytes.bigEndian() : Bytes.littleEndian();
        bytes.u32(Long.parseLong(magic, 16)).u16(2).u16(4).u32(0).u32(0).u32(1500).u32(1)
                .u32(86_400).u32(fraction / (format == CaptureFormat.PCAP_NANO ? 1 : 1000)).u32(1).u32(1).u8(0x5A);
        try (CaptureReader reader = CaptureReader.open(file(dir, "variant.pcap", bytes.toArray()))) {
            assertThat(reader.format()).isEqualTo(format);
            assertThat(reader.bigEndian()).isEqualTo(bigEndian);
            assertThat(reader.next()).isTrue();
            assertThat(reader.timestampNanos()).isEqualTo(86_400_000_000_000L + fraction);
            assertThat(frame(reader)).containsExactly(0x5A);
            assertThat(reader.next()).isFalse();
        }
    }

    @ParameterizedTest(name = "snaplen {0}, captured {1}")
    @CsvSource({"0, 100000", "65535, 70000", "65535, 262144", "1048576, 600000"})
    void acceptsCapturedLengthsUpToTheLenientBound(final int snapLength, final int captured) throws IOException {
        final byte[] data = new byte[captured];
        data[captured - 1] = 0x77;
        final Path path = file(dir, "lenient.pcap", Bytes.littleEndian().u32(0xA1B2C3D4L).u16(2).u16(4).u32(0).u32(0)
                .u32(snapLength).u32(1).u32(1).u32(2).u32(captured).u32(captured).bytes(data).toArray());
        final List<Captures.Record> records = readAll(path);
        assertThat(records).hasSize(1);
        assertThat(records.get(0).capturedLength()).isEqualTo(captured);
        assertThat(records.get(0).bytes().get(captured - 1)).isEqualTo((byte) 0x77);
    }

    @Test
    void rejectsAnUnsupportedVersion() throws IOException {
        final Path path = file(dir, "v3.pcap", hex("d4c3b2a1 0300 0000 00000000 00000000 ffff0000 01000000"));
        final CaptureFormatException e = damage(path);
        assertThat(e.byteOffset()).isZero();
        assertThat(e.reason()).isEqualTo("unsupported pcap version 3.0 (only 2.x is defined)");
    }
}

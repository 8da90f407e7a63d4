package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.wire.capture.Blocks.CUSTOM;
import static org.metaroce.mrct.wire.capture.Blocks.EPB_FLAGS;
import static org.metaroce.mrct.wire.capture.Blocks.IF_FCSLEN;
import static org.metaroce.mrct.wire.capture.Blocks.IF_NAME;
import static org.metaroce.mrct.wire.capture.Blocks.IF_TSOFFSET;
import static org.metaroce.mrct.wire.capture.Blocks.IF_TSRESOL;
import static org.metaroce.mrct.wire.capture.Blocks.ISB;
import static org.metaroce.mrct.wire.capture.Blocks.NO_OPTIONS;
import static org.metaroce.mrct.wire.capture.Blocks.NRB;
import static org.metaroce.mrct.wire.capture.Blocks.OPT_COMMENT;
import static org.metaroce.mrct.wire.capture.Blocks.block;
import static org.metaroce.mrct.wire.capture.Blocks.epb;
import static org.metaroce.mrct.wire.capture.Blocks.idb;
import static org.metaroce.mrct.wire.capture.Blocks.options;
import static org.metaroce.mrct.wire.capture.Blocks.pb;
import static org.metaroce.mrct.wire.capture.Blocks.shb;
import static org.metaroce.mrct.wire.capture.Blocks.spb;
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
import org.junit.jupiter.params.provider.ValueSource;

/** pcapng files built block by block in the test (no writer), read with known answers. */
class PcapngKnownAnswerTest {
    private static final byte[] FRAME = hex("0102030405");

    @TempDir
    Path dir;

    @Test
    void readsTheSmallestFileByteByByte() throws IOException {
        final Path path = file(dir, "minimal.pcapng", hex(""
                + "0a0d0d0a 1c000000 4d3c2b1a 0100 0000 ffffffffffffffff 1c000000" // SHB, little-endian
                + "01000000 14000000 0100 0000 00000000 14000000" // IDB: Ethernet, snaplen 0
                + "06000000 24000000 00000000 00000000 0a000000 03000000 03000000 aabbcc00 24000000")); // EPB
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.format()).isEqualTo(CaptureFormat.PCAPNG);
            assertThat(reader.bigEndian()).isFalse();
            assertThat(reader.next()).isTrue();
            assertThat(reader.recordNumber()).isEqualTo(1);
            assertThat(reader.byteOffset()).isEqualTo(28 + 20);
            assertThat(reader.timestampNanos()).isEqualTo(10_000);
            assertThat(reader.timestampKnown()).isTrue();
            assertThat(reader.interfaceId()).isZero();
            assertThat(reader.linkType()).isEqualTo(1);
            assertThat(reader.snapLength()).isZero();
            assertThat(reader.fcsLength()).isEqualTo(-1);
            assertThat(reader.interfaceName()).isNull();
            assertThat(reader.capturedLength()).isEqualTo(3);
            assertThat(reader.originalLength()).isEqualTo(3);
            assertThat(frame(reader)).isEqualTo(hex("aabbcc"));
            assertThat(reader.comment()).isNull();
            assertThat(reader.next()).isFalse();
        }
    }

    @ParameterizedTest(name = "big-endian {0}")
    @ValueSource(booleans = {true, false})
    void skipsBlocksOfOtherAndUnknownTypes(final boolean be) throws IOException {
        final byte[] shb = shb(be, NO_OPTIONS);
        final byte[] idb = idb(be, 1, 0, NO_OPTIONS);
        final byte[] nrb = block(be, NRB, Bytes.bigEndian().u16(1).u16(8).bytes(hex("0a000001 6869 0000")).u32(0)
                .toArray());
        final byte[] unknown = block(be, 0x1234_5678, hex("cafebabe deadbeef"));
        final byte[] custom = block(be, CUSTOM, hex("00007ed9 01020304"));
        final byte[] isb = block(be, ISB, new byte[12]);
        final byte[] first = epb(be, 0, 1, FRAME, 5, NO_OPTIONS);
        final byte[] second = epb(be, 0, 2, FRAME, 5, NO_OPTIONS);
        final Path path = file(dir, "skip.pcapng", Blocks.file(shb, idb, nrb, unknown, first, custom, isb, second));

        final List<Captures.Record> records = readAll(path);
        assertThat(records).extracting(Captures.Record::number).containsExactly(1L, 2L);
        assertThat(records.get(0).byteOffset()).isEqualTo(shb.length + idb.length + nrb.length + unknown.length);
        assertThat(records.get(1).byteOffset())
                .isEqualTo(records.get(0).byteOffset() + first.length + custom.length + isb.length);
        assertThat(records).extracting(Captures.Record::timestampNanos).containsExactly(1000L, 2000L);
    }

    @Test
    void readsSimplePacketBlocksWithoutTimestamp() throws IOException {
        final boolean be = true;
        final Path path = file(dir, "spb.pcapng", Blocks.file(shb(be, NO_OPTIONS), idb(be, 1, 4, NO_OPTIONS),
                spb(be, 5, FRAME), spb(be, 2, hex("0a0b"))));
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.next()).isTrue();
            assertThat(reader.timestampKnown()).isFalse();
            assertThat(reader.timestampNanos()).isZero();
            assertThat(reader.interfaceId()).isZero();
            assertThat(reader.originalLength()).isEqualTo(5);
            assertThat(reader.capturedLength()).as("cut to the snapshot length 4").isEqualTo(4);
            assertThat(frame(reader)).isEqualTo(hex("01020304"));
            assertThat(reader.next()).isTrue();
            assertThat(reader.capturedLength()).as("the original length, below the padded body").isEqualTo(2);
            assertThat(frame(reader)).isEqualTo(hex("0a0b"));
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void readsSimplePacketBlockCutToItsBodyWhenSnapshotLengthIsZero() throws IOException {
        final boolean be = false;
        final Path path = file(dir, "spb0.pcapng", Blocks.file(shb(be, NO_OPTIONS), idb(be, 1, 0, NO_OPTIONS),
                spb(be, 1500, FRAME)));
        final List<Captures.Record> records = readAll(path);
        assertThat(records).hasSize(1);
        assertThat(records.get(0).capturedLength()).as("the 8 bytes of padded body").isEqualTo(8);
        assertThat(records.get(0).originalLength()).isEqualTo(1500);
    }

    @Test
    void readsTheObsoletePacketBlock() throws IOException {
        final boolean be = true;
        final Path path = file(dir, "pb.pcapng", Blocks.file(shb(be, NO_OPTIONS), idb(be, 1, 0, NO_OPTIONS),
                idb(be, 113, 0, NO_OPTIONS), pb(be, 1, 3_000_000, FRAME, 9,
                        options(be, o -> o.option(OPT_COMMENT, "obsolete")))));
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.next()).isTrue();
            assertThat(reader.interfaceId()).isEqualTo(1);
            assertThat(reader.linkType()).isEqualTo(113);
            assertThat(reader.timestampNanos()).isEqualTo(3_000_000_000L);
            assertThat(reader.originalLength()).isEqualTo(9);
            assertThat(frame(reader)).isEqualTo(FRAME);
            assertThat(reader.comment()).isEqualTo("obsolete");
        }
    }

    @Test
    void readsTwoSectionsOfDifferentByteOrders() throws IOException {
        final Path path = file(dir, "sections.pcapng", Blocks.file(
                shb(false, NO_OPTIONS), idb(false, 1, 0, NO_OPTIONS),
                idb(false, 101, 0, options(false, o -> o.option(IF_NAME, "second"))),
                epb(false, 1, 7, FRAME, 5, NO_OPTIONS),
                shb(true, NO_OPTIONS), idb(true, 105, 0, options(true, o -> o.option(IF_TSRESOL, new byte[] {9}))),
                epb(true, 0, 8, FRAME, 5, NO_OPTIONS)));
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.bigEndian()).isFalse();
            assertThat(reader.next()).isTrue();
            assertThat(reader.interfaceId()).isEqualTo(1);
            assertThat(reader.linkType()).isEqualTo(101);
            assertThat(reader.interfaceName()).isEqualTo("second");
            assertThat(reader.timestampNanos()).isEqualTo(7000);
            assertThat(reader.next()).isTrue();
            assertThat(reader.bigEndian()).isTrue();
            assertThat(reader.recordNumber()).isEqualTo(2);
            assertThat(reader.interfaceId()).isZero();
            assertThat(reader.linkType()).isEqualTo(105);
            assertThat(reader.interfaceName()).isNull();
            assertThat(reader.timestampNanos()).isEqualTo(8);
            assertThat(frame(reader)).isEqualTo(FRAME);
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void forgetsTheInterfacesOfThePreviousSection() throws IOException {
        final Path path = file(dir, "reset.pcapng", Blocks.file(
                shb(true, NO_OPTIONS), idb(true, 1, 0, NO_OPTIONS), idb(true, 1, 0, NO_OPTIONS),
                epb(true, 1, 1, FRAME, 5, NO_OPTIONS),
                shb(false, NO_OPTIONS), idb(false, 1, 0, NO_OPTIONS), epb(false, 1, 1, FRAME, 5, NO_OPTIONS)));
        final CaptureFormatException e = Captures.damage(path);
        assertThat(e.recordNumber()).isEqualTo(2);
        assertThat(e.reason()).isEqualTo("enhanced packet block names interface 1, but its section declares only "
                + "interface 0");
    }

    @ParameterizedTest(name = "if_tsresol {0}, units {1}")
    @CsvSource({
        // no option: microseconds
        "-1, 1700000000123456, 1700000000123456000",
        // 9: nanoseconds
        "9, 1700000000123456789, 1700000000123456789",
        // 0x89: 2^-9 s = 1953125 ns exactly
        "137, 3, 5859375",
        // 0x89: 2^-9 s, 1000.5 s
        "137, 512256, 1000500000000",
        // 0xA0: 2^-32 s, 1 s plus 0.23 ns, rounded down
        "160, 4294967297, 1000000000",
        // 0x9E: 2^-30 s, 0.93 ns rounds down to 0
        "158, 1, 0",
        // 0: seconds
        "0, 1700000000, 1700000000000000000",
        // 3: milliseconds
        "3, 1700000000123, 1700000000123000000",
        // 12: picoseconds, an unsigned count above 2^63, rounded down
        "12, 17000000001234567899, 17000000001234567"})
    void scalesTimestampsByIfTsresol(final int tsresol, final String units, final long nanos) throws IOException {
        final long value = Long.parseUnsignedLong(units);
        final boolean be = tsresol % 2 == 0;
        final byte[] ifOptions = tsresol < 0 ? NO_OPTIONS
                : options(be, o -> o.option(IF_TSRESOL, new byte[] {(byte) tsresol}));
        final Path path = file(dir, "tsresol.pcapng", Blocks.file(shb(be, NO_OPTIONS), idb(be, 1, 0, ifOptions),
                epb(be, 0, value, FRAME, 5, NO_OPTIONS)));
        assertThat(readAll(path)).extracting(Captures.Record::timestampNanos).containsExactly(nanos);
    }

    @ParameterizedTest(name = "if_tsoffset {0} s")
    @CsvSource({"1000000000, 1000000001500000000", "-1, 500000000", "0, 1500000000"})
    void shiftsTimestampsByIfTsoffset(final long offsetSeconds, final long nanos) throws IOException {
        final boolean be = offsetSeconds < 0;
        final Path path = file(dir, "tsoffset.pcapng", Blocks.file(shb(be, NO_OPTIONS),
                idb(be, 1, 0, options(be, o -> o.option(IF_TSOFFSET, longBytes(be, offsetSeconds)))),
                epb(be, 0, 1_500_000, FRAME, 5, NO_OPTIONS)));
        assertThat(readAll(path)).extracting(Captures.Record::timestampNanos).containsExactly(nanos);
    }

    @Test
    void readsInterfaceOptionsAndTheFirstOfSeveralComments() throws IOException {
        final boolean be = false;
        final String name = "enp1s0f0 → ΜετаRoCE";
        final Path path = file(dir, "options.pcapng", Blocks.file(
                shb(be, options(be, o -> o.option(OPT_COMMENT, "section").option(4, "mrct"))),
                idb(be, 1, 9000, options(be, o -> o.option(IF_NAME, name).option(IF_FCSLEN, new byte[] {4})
                        .option(IF_TSRESOL, new byte[] {6}))),
                epb(be, 0, 1, FRAME, 5, options(be, o -> o.option(EPB_FLAGS, hex("01000000"))
                        .option(OPT_COMMENT, "первый, 最初").option(OPT_COMMENT, "second"))),
                epb(be, 0, 2, FRAME, 5, options(be, o -> o.option(OPT_COMMENT, ""))),
                epb(be, 0, 3, FRAME, 5, options(be, o -> o.option(EPB_FLAGS, hex("02000000"))))));
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.next()).isTrue();
            assertThat(reader.interfaceName()).isEqualTo(name);
            assertThat(reader.fcsLength()).isEqualTo(4);
            assertThat(reader.snapLength()).isEqualTo(9000);
            assertThat(reader.comment()).isEqualTo("первый, 最初");
            assertThat(frame(reader)).isEqualTo(FRAME);
            assertThat(reader.next()).isTrue();
            assertThat(reader.comment()).isEmpty();
            assertThat(reader.next()).isTrue();
            assertThat(reader.comment()).isNull();
            assertThat(reader.next()).isFalse();
        }
    }

    @Test
    void acceptsOptionsWithoutEndOfOptions() throws IOException {
        final boolean be = true;
        final byte[] comment = Bytes.bigEndian().option(OPT_COMMENT, "no end").toArray();
        final Path path = file(dir, "noend.pcapng", Blocks.file(shb(be, NO_OPTIONS), idb(be, 1, 0, NO_OPTIONS),
                epb(be, 0, 1, FRAME, 5, comment)));
        assertThat(readAll(path)).extracting(Captures.Record::comment).containsExactly("no end");
    }

    private static byte[] longBytes(final boolean be, final long value) {
        return (be ? Bytes.bigEndian() : Bytes.littleEndian()).u64(value).toArray();
    }
}

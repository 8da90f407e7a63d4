package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaroce.mrct.wire.capture.Blocks.IF_TSRESOL;
import static org.metaroce.mrct.wire.capture.Blocks.NO_OPTIONS;
import static org.metaroce.mrct.wire.capture.Blocks.OPT_COMMENT;
import static org.metaroce.mrct.wire.capture.Blocks.block;
import static org.metaroce.mrct.wire.capture.Blocks.epb;
import static org.metaroce.mrct.wire.capture.Blocks.idb;
import static org.metaroce.mrct.wire.capture.Blocks.options;
import static org.metaroce.mrct.wire.capture.Blocks.shb;
import static org.metaroce.mrct.wire.capture.Blocks.spb;
import static org.metaroce.mrct.wire.capture.Captures.damage;
import static org.metaroce.mrct.wire.capture.Captures.file;
import static org.metaroce.mrct.wire.capture.Captures.hex;
import static org.metaroce.mrct.wire.capture.Captures.readAll;
import static org.metaroce.mrct.wire.capture.Captures.readUntilDamage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Damaged files: cut at every byte, or corrupted one field at a time. Every complete record before the damage is
 * delivered, then the exception names the byte offset where the damaged record or block starts, the number the next
 * record would have had, and the rule broken.
 */
class CaptureDamageTest {
    /** Seed of the cut positions in the large file. */
    private static final long SEED = 0x4355_5453L;
    private static final byte[] FRAME = hex("0102030405");

    @TempDir
    Path dir;

    /** A block or record of a capture file, as a test-side walk finds it. */
    private record Extent(long start, int length, boolean packet, String name) {
        long end() {
            return start + length;
        }
    }

    @Test
    void pcapCutAtEveryByte() throws IOException {
        final Path original = dir.resolve("whole.pcap");
        final int[] lengths = {0, 1, 5, 16, 33, 3};
        try (PcapWriter writer = PcapWriter.create(original,
                PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            for (int i = 0; i < lengths.length; i++) {
                final byte[] frame = new byte[lengths[i]];
                Arrays.fill(frame, (byte) (i + 1));
                writer.write(1_000L * i, frame);
            }
        }
        final List<Extent> extents = new ArrayList<>();
        extents.add(new Extent(0, 24, false, "pcap file header"));
        long offset = 24;
        for (final int length : lengths) {
            extents.add(new Extent(offset, 16 + length, true, "packet record"));
            offset += 16 + length;
        }
        assertEveryCut(original, extents);
    }

    @Test
    void pcapngCutAtEveryByte() throws IOException {
        final Path original = dir.resolve("whole.pcapng");
        try (PcapngWriter writer = PcapngWriter.create(original,
                PcapngWriter.Options.defaults().withUserApplication("mrct").withComment("cut me"))) {
            writer.addInterface(1, "eth0", 9);
            writer.write(0, 1, FRAME);
            writer.write(0, 2, ByteBuffer.wrap(FRAME), 1, 3, "трижды");
            writer.addInterface(101, null, 6);
            writer.write(1, 3_000, new byte[0]);
            writer.write(0, 4, ByteBuffer.wrap(FRAME), 0, 5, "");
        }
        assertEveryCut(original, pcapngBlocks(Files.readAllBytes(original)));
    }

    @Test
    void pcapngCutAtSampledBytesOfALargeFile() throws IOException {
        final Random random = new Random(SEED);
        final Path path = dir.resolve("large.pcapng");
        try (PcapngWriter writer = PcapngWriter.create(path, PcapngWriter.Options.defaults())) {
            writer.addInterface(1, "eth0", 9);
            for (int i = 0; i < 1500; i++) {
                final byte[] frame = new byte[random.nextInt(2000)];
                random.nextBytes(frame);
                writer.write(0, i, ByteBuffer.wrap(frame), 0, frame.length, i % 7 == 0 ? "c" + i : null);
            }
        }
        final List<Extent> extents = pcapngBlocks(Files.readAllBytes(path));
        final List<Captures.Record> all = readAll(path);
        final long[] cuts = random.longs(60, 1, Files.size(path)).sorted().toArray();
        for (int i = cuts.length - 1; i >= 0; i--) {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.truncate(cuts[i]);
            }
            assertCut(path, cuts[i], extents, all, CaptureReader.MIN_BUFFER_SIZE, "seed " + SEED);
        }
    }

    /** Cuts copies of {@code original} at every byte and checks each against the extents. */
    private void assertEveryCut(final Path original, final List<Extent> extents) throws IOException {
        final byte[] whole = Files.readAllBytes(original);
        assertThat(extents.get(extents.size() - 1).end()).as("the walk covers the file").isEqualTo(whole.length);
        final List<Captures.Record> all = readAll(original);
        for (int cut = 0; cut <= whole.length; cut++) {
            final Path path = file(dir, "cut", Arrays.copyOf(whole, cut));
            assertCut(path, cut, extents, all, CaptureReader.DEFAULT_BUFFER_SIZE, "");
        }
    }

    private static void assertCut(final Path path, final long cut, final List<Extent> extents,
            final List<Captures.Record> all, final int bufferSize, final String context)
            throws IOException {
        final String where = "cut at " + cut + " " + context;
        final Captures.Outcome outcome = readUntilDamage(path, bufferSize);
        final long complete = extents.stream().filter(e -> e.packet() && e.end() <= cut).count();
        assertThat(outcome.records()).as(where).hasSize((int) complete);
        for (int i = 0; i < complete; i++) {
            final Captures.Record delivered = outcome.records().get(i);
            assertThat(delivered).as(where).isEqualTo(all.get(i));
        }
        final Extent damaged = extents.stream().filter(e -> e.start() < cut && cut < e.end()).findFirst()
                .orElse(null);
        if (cut == 0) {
            assertThat(outcome.damage()).as(where).isNotNull();
            assertThat(outcome.damage().reason()).isEqualTo("empty file: not a pcap or pcapng file");
        } else if (damaged == null) {
            assertThat(outcome.damage()).as(where + ": a record boundary, a clean end").isNull();
        } else {
            final CaptureFormatException e = outcome.damage();
            assertThat(e).as(where).isNotNull();
            assertThat(e.byteOffset()).as(where).isEqualTo(damaged.start());
            assertThat(e.recordNumber()).as(where).isEqualTo(complete + 1);
            assertThat(e.path()).isEqualTo(path);
            final long have = cut - damaged.start();
            final String expected;
            if (cut < 4) {
                expected = "not a pcap or pcapng file: only " + cut + " bytes long";
            } else if (damaged.name().equals("section header block") && have < 12) {
                expected = "truncated section header block: " + have + " of at least 28 bytes";
            } else if (damaged.name().equals("packet record") && have < 16) {
                expected = "truncated record header: " + have + " of 16 bytes";
            } else if (damaged.name().endsWith(" block") && have < 8) {
                expected = "truncated block header: " + have + " of 8 bytes";
            } else {
                expected = "truncated " + damaged.name() + ": " + have + " of " + damaged.length() + " bytes";
            }
            assertThat(e.reason()).as(where).isEqualTo(expected);
            assertThat(e.getMessage()).as(where).isEqualTo(path + ": byte " + damaged.start() + " (record "
                    + (complete + 1) + "): " + expected);
        }
    }

    /** The blocks of a well-formed pcapng file of one little-endian section, by a walk independent of the reader. */
    private static List<Extent> pcapngBlocks(final byte[] file) {
        final ByteBuffer buffer = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        final List<Extent> extents = new ArrayList<>();
        int offset = 0;
        while (offset < file.length) {
            final int type = buffer.getInt(offset);
            final int length = buffer.getInt(offset + 4);
            final String name = type == 0x0A0D0D0A ? "section header block"
                    : type == 1 ? "interface description block" : "enhanced packet block";
            extents.add(new Extent(offset, length, type == 6, name));
            offset += length;
        }
        return extents;
    }

    @Test
    void namesTheDamagedBlockInAOneLineMessage() throws IOException {
        final boolean be = false;
        final List<byte[]> blocks = new ArrayList<>();
        blocks.add(shb(be, NO_OPTIONS));
        blocks.add(idb(be, 1, 0, NO_OPTIONS));
        for (int i = 0; i < 16; i++) {
            blocks.add(epb(be, 0, i, new byte[212], 212, NO_OPTIONS));
        }
        blocks.add(block(be, Blocks.CUSTOM, new byte[132]));
        final byte[] last = epb(be, 0, 99, new byte[1032], 1032, NO_OPTIONS);
        blocks.add(Arrays.copyOf(last, 40));
        final Path path = file(dir, "capture.pcapng", Blocks.file(blocks.toArray(new byte[0][])));
        final CaptureFormatException e = damage(path);
        assertThat(e.getMessage()).isEqualTo(path + ": byte 4096 (record 17): truncated enhanced packet block: 40 of "
                + "1064 bytes");
        assertThat(e.byteOffset()).isEqualTo(4096);
        assertThat(e.recordNumber()).isEqualTo(17);
        assertThat(e.reason()).isEqualTo("truncated enhanced packet block: 40 of 1064 bytes");
    }

    @Test
    void rejectsAMismatchedTrailingLength() throws IOException {
        final byte[] good = epb(true, 0, 1, FRAME, 5, NO_OPTIONS);
        final byte[] bad = good.clone();
        bad[bad.length - 1] = 0x30;
        final byte[] head = Blocks.file(shb(true, NO_OPTIONS), idb(true, 1, 0, NO_OPTIONS), good);
        final CaptureFormatException e = damage(file(dir, "trailer.pcapng", Blocks.file(head, bad, good)));
        assertThat(e.byteOffset()).isEqualTo(head.length);
        assertThat(e.recordNumber()).isEqualTo(2);
        assertThat(e.reason()).isEqualTo("enhanced packet block trailing length 48 does not match its leading "
                + "length 40");
    }

    @Test
    void rejectsAPcapRecordBeyondTheLengthBound() throws IOException {
        final Bytes bytes = Bytes.littleEndian().u32(0xA1B2C3D4L).u16(2).u16(4).u32(0).u32(0).u32(65535).u32(1)
                .u32(1).u32(0).u32(2).u32(2).u16(0xABCD)
                .u32(2).u32(0).u32(262_145).u32(262_145);
        final CaptureFormatException e = damage(file(dir, "bound.pcap", bytes.toArray()));
        assertThat(e.byteOffset()).isEqualTo(24 + 18);
        assertThat(e.recordNumber()).isEqualTo(2);
        assertThat(e.reason()).isEqualTo("captured length 262145 exceeds the limit of 262144 bytes (snapshot length "
                + "65535)");
    }

    @Test
    void rejectsAnUndeclaredInterface() throws IOException {
        final byte[] head = Blocks.file(shb(false, NO_OPTIONS), idb(false, 1, 0, NO_OPTIONS),
                idb(false, 1, 0, NO_OPTIONS));
        final CaptureFormatException e = damage(file(dir, "iface.pcapng",
                Blocks.file(head, epb(false, 2, 1, FRAME, 5, NO_OPTIONS))));
        assertThat(e.byteOffset()).isEqualTo(head.length);
        assertThat(e.recordNumber()).isEqualTo(1);
        assertThat(e.reason()).isEqualTo("enhanced packet block names interface 2, but its section declares only "
                + "interfaces 0 to 1");
    }

    @Test
    void rejectsBadBlockLengths() throws IOException {
        final byte[] head = Blocks.file(shb(true, NO_OPTIONS), idb(true, 1, 0, NO_OPTIONS));
        assertReason("short.pcapng", Blocks.file(head, hex("00000006 0000000c 0000000c")),
                "enhanced packet block length 12 is shorter than the minimum of 32 bytes");
        assertReason("tiny.pcapng", Blocks.file(head, hex("00000004 00000008 00000008")),
                "name resolution block length 8 is shorter than the minimum of 12 bytes");
        assertReason("odd.pcapng", Blocks.file(head, hex("00000bad 0000000e 0000 0000000e")),
                "custom block length 14 is not a multiple of 4");
        assertReason("huge.pcapng", Blocks.file(head, hex("00000006 01000004")),
                "enhanced packet block length 16777220 exceeds the limit of 16777216 bytes");
        assertReason("negative.pcapng", Blocks.file(head, hex("12345678 fffffff0")),
                "block of type 0x12345678 length 4294967280 exceeds the limit of 16777216 bytes");
        final byte[] overlong = epb(true, 0, 1, FRAME, 5, NO_OPTIONS);
        overlong[12 + 8 + 3] = 9;
        assertReason("captured.pcapng", Blocks.file(head, overlong),
                "captured length 9 exceeds the 8 data bytes of the enhanced packet block");
    }

    @Test
    void rejectsMalformedOptionsAndHeaders() throws IOException {
        final boolean be = true;
        final byte[] shb = shb(be, NO_OPTIONS);
        final byte[] idb = idb(be, 1, 0, NO_OPTIONS);
        final byte[] runaway = epb(be, 0, 1, FRAME, 5, Bytes.bigEndian().u16(OPT_COMMENT).u16(9).u32(0).toArray());
        assertReason("option.pcapng", Blocks.file(shb, idb, runaway),
                "option 1 of the enhanced packet block has length 9 but only 4 bytes remain in the block");
        assertReason("tsresol.pcapng", Blocks.file(shb, idb(be, 1, 0, options(be,
                o -> o.option(IF_TSRESOL, new byte[] {6, 6})))), "if_tsresol option has length 2, not 1");
        final byte[] magic = shb.clone();
        magic[8] = 0x77;
        assertReason("magic.pcapng", magic,
                "section header byte-order magic 0x772B3C4D is not 0x1A2B3C4D in either byte order");
        final byte[] version = shb.clone();
        version[13] = 2;
        assertReason("version.pcapng", version, "unsupported pcapng version 2.0 (only 1.x is defined)");
        assertReason("spb.pcapng", Blocks.file(shb, spb(be, 5, FRAME)),
                "simple packet block, but its section declares no interface");
        assertReason("time.pcapng", Blocks.file(shb, idb(be, 1, 0, options(be,
                o -> o.option(IF_TSRESOL, new byte[] {9}))), epb(be, 0, Long.MIN_VALUE, FRAME, 5, NO_OPTIONS)),
                "timestamp of 9223372036854775808 units of 10^-9 s and if_tsoffset of 0 s does not fit in 64-bit "
                        + "nanoseconds");
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {0, 3, 4})
    void rejectsFilesThatAreNotCaptures(final int size) throws IOException {
        final byte[] elf = Arrays.copyOf(hex("7f454c46 02010100"), size);
        final CaptureFormatException e = damage(file(dir, "not-a-capture", elf));
        assertThat(e.byteOffset()).isZero();
        assertThat(e.recordNumber()).isEqualTo(1);
        assertThat(e.reason()).isEqualTo(size == 0 ? "empty file: not a pcap or pcapng file"
                : size == 3 ? "not a pcap or pcapng file: only 3 bytes long"
                : "not a pcap or pcapng file: magic 0x7F454C46");
    }

    @Test
    void namesCompressedAndTruncatedHeaders() throws IOException {
        assertReason("gz", hex("1f8b0800 00000000"),
                "not a pcap or pcapng file: magic 0x1F8B0800 (gzip-compressed: decompress it first)");
        assertReason("short.pcap", hex("d4c3b2a1 0200 0400 0000"), "truncated pcap file header: 10 of 24 bytes");
    }

    @Test
    void throwsTheSameDamageAgainAndHasNoCurrentRecord() throws IOException {
        final Path path = file(dir, "sticky.pcapng", Blocks.file(shb(false, NO_OPTIONS),
                idb(false, 1, 0, NO_OPTIONS), epb(false, 0, 1, FRAME, 5, NO_OPTIONS), hex("06000000")));
        final CaptureReader reader = CaptureReader.open(path);
        assertThatThrownBy(reader::recordNumber).isInstanceOf(IllegalStateException.class);
        assertThat(reader.next()).isTrue();
        final CaptureFormatException first = (CaptureFormatException) catchNext(reader);
        assertThat(first.reason()).isEqualTo("truncated block header: 4 of 8 bytes");
        assertThat(catchNext(reader)).isSameAs(first);
        assertThatThrownBy(reader::buffer).isInstanceOf(IllegalStateException.class);
        reader.close();
        reader.close();
        assertThatThrownBy(reader::next).isInstanceOf(IllegalStateException.class);
    }

    private static Throwable catchNext(final CaptureReader reader) {
        try {
            reader.next();
            throw new AssertionError("next() returned instead of throwing");
        } catch (IOException e) {
            return e;
        }
    }

    private void assertReason(final String name, final byte[] content, final String reason) throws IOException {
        assertThat(damage(file(dir, name, content)).reason()).as(name).isEqualTo(reason);
    }
}

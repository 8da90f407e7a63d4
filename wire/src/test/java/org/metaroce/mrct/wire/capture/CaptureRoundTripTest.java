package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.metaroce.mrct.wire.capture.Captures.frame;
import static org.metaroce.mrct.wire.capture.Captures.readAll;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the writers write, the reader reads back: every field and every byte, for every pcap variant and pcapng in
 * both byte orders, with seeded random frames (lengths 0 to 9000, any timestamp) and non-ASCII text.
 */
class CaptureRoundTripTest {
    /** Seed of every random choice in this class; each test derives its own from it and names it on failure. */
    private static final long SEED = 0x6D72_6374_4341_5054L;
    private static final int FRAMES = 400;
    private static final int MAX_FRAME = 9000;
    private static final int SNAP_LENGTH = 8000;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** Frames of 1000 bytes for the flush tests: 3 MB, more than the writers' 1 MiB buffer. */
    private static final int LIVE_FRAMES = 3000;

    @TempDir
    Path dir;

    /** One frame as written. */
    private record Written(int interfaceId, long timestampNanos, byte[] frame, long originalLength, String comment) {
    }

    static Stream<Arguments> pcapVariants() {
        return Stream.of(CaptureFormat.PCAP_MICRO, CaptureFormat.PCAP_NANO).flatMap(format -> Stream.of(
                Arguments.of(format, ByteOrder.BIG_ENDIAN), Arguments.of(format, ByteOrder.LITTLE_ENDIAN)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("pcapVariants")
    void pcapRoundTrip(final CaptureFormat format, final ByteOrder order) throws IOException {
        final long seed = SEED + 31L * format.ordinal() + (order == ByteOrder.BIG_ENDIAN ? 1 : 0);
        final Random random = new Random(seed);
        final Path path = dir.resolve("round.pcap");
        final List<Written> written = new ArrayList<>();
        final PcapWriter.Options options = PcapWriter.Options.defaults().withFormat(format).withByteOrder(order)
                .withLinkType(276).withSnapLength(SNAP_LENGTH);
        try (PcapWriter writer = PcapWriter.create(path, options)) {
            for (int i = 0; i < FRAMES; i++) {
                final byte[] frame = randomFrame(random);
                final long timestamp = (random.nextLong() & 0xFFFF_FFFFL) * NANOS_PER_SECOND
                        + random.nextInt((int) NANOS_PER_SECOND);
                final long original = frame.length + (random.nextBoolean() ? 0 : random.nextInt(100));
                switch (i % 3) {
                    case 0:
                        writer.write(timestamp, frame);
                        written.add(new Written(0, timestamp, frame, frame.length, null));
                        break;
                    case 1:
                        final ByteBuffer buffer = embed(random, frame);
                        writer.write(timestamp, buffer, 7, frame.length, original);
                        written.add(new Written(0, timestamp, frame, original, null));
                        break;
                    default:
                        writer.write(timestamp, embed(random, frame), 7, frame.length);
                        written.add(new Written(0, timestamp, frame, frame.length, null));
                        break;
                }
            }
        }
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.format()).isEqualTo(format);
            assertThat(reader.bigEndian()).isEqualTo(order == ByteOrder.BIG_ENDIAN);
            long offset = 24;
            for (int i = 0; i < written.size(); i++) {
                final Written w = written.get(i);
                final String where = "seed " + seed + ", record " + (i + 1);
                final int captured = Math.min(w.frame().length, SNAP_LENGTH);
                assertThat(reader.next()).as(where).isTrue();
                assertThat(reader.recordNumber()).as(where).isEqualTo(i + 1);
                assertThat(reader.byteOffset()).as(where).isEqualTo(offset);
                final long expectedTime = format == CaptureFormat.PCAP_NANO ? w.timestampNanos()
                        : w.timestampNanos() - w.timestampNanos() % 1000;
                assertThat(reader.timestampNanos()).as(where).isEqualTo(expectedTime);
                assertThat(reader.capturedLength()).as(where).isEqualTo(captured);
                assertThat(reader.originalLength()).as(where).isEqualTo(w.originalLength());
                assertThat(frame(reader)).as(where).isEqualTo(Arrays.copyOf(w.frame(), captured));
                assertThat(reader.linkType()).as(where).isEqualTo(276);
                assertThat(reader.snapLength()).as(where).isEqualTo(SNAP_LENGTH);
                assertThat(reader.interfaceId()).as(where).isZero();
                assertThat(reader.comment()).as(where).isNull();
                offset += 16 + captured;
            }
            assertThat(reader.next()).isFalse();
            assertThat(Files.size(path)).isEqualTo(offset);
        }
    }

    @ParameterizedTest(name = "big-endian {0}")
    @ValueSource(booleans = {true, false})
    void pcapngRoundTrip(final boolean bigEndian) throws IOException {
        final long seed = SEED + (bigEndian ? 1 : 0);
        final Random random = new Random(seed);
        final Path path = dir.resolve("round.pcapng");
        final List<Written> written = new ArrayList<>();
        final int[] linkTypes = {1, 113, 101, 1};
        final String[] names = {"eth0", "ΜετaRoCE ☃ rxe0", null, "ns0/veth-a"};
        final int[] exponents = {9, 6, 3, 0};
        final PcapngWriter.Options options = PcapngWriter.Options.defaults()
                .withByteOrder(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN)
                .withUserApplication("mrct round trip").withComment("сессия §1 — test");
        int interfaces = 0;
        try (PcapngWriter writer = PcapngWriter.create(path, options)) {
            for (int i = 0; i < FRAMES; i++) {
                if (i == 0 || i == FRAMES / 4 || i == FRAMES / 2) {
                    assertThat(writer.addInterface(linkTypes[interfaces], names[interfaces], exponents[interfaces]))
                            .isEqualTo(interfaces);
                    interfaces++;
                    if (interfaces == 3) {
                        assertThat(writer.addInterface(linkTypes[3], names[3], exponents[3])).isEqualTo(3);
                        interfaces++;
                    }
                }
                final int id = random.nextInt(interfaces);
                final byte[] frame = randomFrame(random);
                final long timestamp = random.nextLong() >>> 2;
                final String comment = randomComment(random, i);
                final long original = frame.length + random.nextInt(3);
                if (i % 5 == 0 && comment == null) {
                    writer.write(id, timestamp, frame);
                    written.add(new Written(id, timestamp, frame, frame.length, null));
                } else {
                    writer.write(id, timestamp, embed(random, frame), 7, frame.length, original, comment);
                    written.add(new Written(id, timestamp, frame, original, comment));
                }
            }
        }
        final byte[] file = Files.readAllBytes(path);
        final ByteBuffer fileBuffer = ByteBuffer.wrap(file)
                .order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        try (CaptureReader reader = CaptureReader.open(path)) {
            assertThat(reader.format()).isEqualTo(CaptureFormat.PCAPNG);
            assertThat(reader.bigEndian()).isEqualTo(bigEndian);
            long previousOffset = 0;
            for (int i = 0; i < written.size(); i++) {
                final Written w = written.get(i);
                final String where = "seed " + seed + ", record " + (i + 1);
                assertThat(reader.next()).as(where).isTrue();
                assertThat(reader.recordNumber()).as(where).isEqualTo(i + 1);
                final int block = (int) reader.byteOffset();
                assertThat(block).as(where).isGreaterThan((int) previousOffset);
                assertThat(fileBuffer.getInt(block)).as(where + ": enhanced packet block type at the offset")
                        .isEqualTo(6);
                assertThat(fileBuffer.getInt(block + 8)).as(where + ": interface at the offset")
                        .isEqualTo(w.interfaceId());
                previousOffset = block;
                final long unit = pow10(9 - exponents[w.interfaceId()]);
                assertThat(reader.interfaceId()).as(where).isEqualTo(w.interfaceId());
                assertThat(reader.linkType()).as(where).isEqualTo(linkTypes[w.interfaceId()]);
                assertThat(reader.interfaceName()).as(where).isEqualTo(names[w.interfaceId()]);
                assertThat(reader.timestampKnown()).as(where).isTrue();
                assertThat(reader.timestampNanos()).as(where).isEqualTo(w.timestampNanos() / unit * unit);
                assertThat(reader.capturedLength()).as(where).isEqualTo(w.frame().length);
                assertThat(reader.originalLength()).as(where).isEqualTo(w.originalLength());
                assertThat(reader.comment()).as(where).isEqualTo(w.comment());
                assertThat(frame(reader)).as(where).isEqualTo(w.frame());
            }
            assertThat(reader.next()).isFalse();
        }
    }

    /** An I/O step of a test. */
    private interface IoAction {
        void run() throws IOException;
    }

    @Test
    void pcapFileOnDiskEndsAtARecordBoundaryUntilFlushed() throws IOException {
        final Path path = dir.resolve("live.pcap");
        try (PcapWriter writer = PcapWriter.create(path, PcapWriter.Options.defaults())) {
            for (int i = 0; i < LIVE_FRAMES; i++) {
                writer.write(i * 1000L, liveFrame(i));
            }
            assertWholeRecordsUntil(path, writer::flush);
        }
    }

    @Test
    void pcapngFileOnDiskEndsAtABlockBoundaryUntilFlushed() throws IOException {
        final Path path = dir.resolve("live.pcapng");
        try (PcapngWriter writer = PcapngWriter.create(path, PcapngWriter.Options.defaults())) {
            writer.addInterface(1, "eth0", 6);
            for (int i = 0; i < LIVE_FRAMES; i++) {
                writer.write(0, i * 1000L, liveFrame(i));
            }
            assertWholeRecordsUntil(path, writer::sync);
        }
    }

    /** Some but not all records are in the file, each whole; after {@code flush} all of them are. */
    private static void assertWholeRecordsUntil(final Path path, final IoAction flush) throws IOException {
        final List<Captures.Record> beforeFlush = readAll(path);
        assertThat(beforeFlush.size()).as("whole records handed to the file so far").isBetween(1, LIVE_FRAMES - 1);
        for (final Captures.Record record : beforeFlush) {
            assertThat(record.bytes().array()).isEqualTo(liveFrame((int) record.number() - 1));
        }
        flush.run();
        assertThat(readAll(path)).hasSize(LIVE_FRAMES);
    }

    private static byte[] liveFrame(final int index) {
        final byte[] frame = new byte[1000];
        Arrays.fill(frame, (byte) index);
        return frame;
    }

    @Test
    void pcapWriterRejectsBadArgumentsWithoutDamagingTheFile() throws IOException {
        final Path path = dir.resolve("args.pcap");
        final PcapWriter writer = PcapWriter.create(path, PcapWriter.Options.defaults());
        writer.write(5_000, new byte[] {1});
        assertThatThrownBy(() -> writer.write(-1, new byte[] {2})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timestamp -1 ns");
        assertThatThrownBy(() -> writer.write(0x1_0000_0000L * NANOS_PER_SECOND, new byte[] {2}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> writer.write(0, ByteBuffer.allocate(4), 0, 4, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("original length 3");
        assertThatThrownBy(() -> writer.write(0, ByteBuffer.allocate(4), 2, 3))
                .isInstanceOf(IndexOutOfBoundsException.class);
        writer.write(6_999, new byte[] {3});
        writer.close();
        writer.close();
        assertThatThrownBy(() -> writer.write(7, new byte[] {4})).isInstanceOf(IllegalStateException.class);
        assertThat(readAll(path)).extracting(Captures.Record::timestampNanos).containsExactly(5_000L, 6_000L);
    }

    @Test
    void pcapngWriterRejectsBadArgumentsWithoutDamagingTheFile() throws IOException {
        final Path path = dir.resolve("args.pcapng");
        final PcapngWriter writer = PcapngWriter.create(path, PcapngWriter.Options.defaults());
        assertThatThrownBy(() -> writer.write(0, 1, new byte[] {1})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("interface 0 was not added");
        assertThatThrownBy(() -> writer.addInterface(1, "x", 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> writer.addInterface(70_000, "x", 6)).isInstanceOf(IllegalArgumentException.class);
        assertThat(writer.addInterface(1, "x", 9)).isZero();
        assertThatThrownBy(() -> writer.write(0, -5, new byte[] {1})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> writer.write(0, 1, ByteBuffer.allocate(2), 0, 2, "c".repeat(70_000)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("opt_comment");
        assertThatThrownBy(() -> writer.write(0, 1, ByteBuffer.allocate(2), 1, 2, null))
                .isInstanceOf(IndexOutOfBoundsException.class);
        writer.write(0, 42, new byte[] {9});
        writer.close();
        assertThatThrownBy(() -> writer.addInterface(1, null, 6)).isInstanceOf(IllegalStateException.class);
        assertThat(readAll(path)).extracting(Captures.Record::timestampNanos).containsExactly(42L);
    }

    private static byte[] randomFrame(final Random random) {
        final int length = random.nextInt(10) == 0 ? random.nextInt(4) : random.nextInt(MAX_FRAME + 1);
        final byte[] frame = new byte[length];
        random.nextBytes(frame);
        return frame;
    }

    /** The frame at index 7 of a larger heap or direct buffer whose other bytes, position and order are noise. */
    private static ByteBuffer embed(final Random random, final byte[] frame) {
        final ByteBuffer buffer = random.nextBoolean() ? ByteBuffer.allocateDirect(frame.length + 20)
                : ByteBuffer.allocate(frame.length + 20);
        final byte[] noise = new byte[buffer.capacity()];
        random.nextBytes(noise);
        buffer.put(0, noise).put(7, frame).position(3).order(ByteOrder.LITTLE_ENDIAN);
        return buffer;
    }

    private static String randomComment(final Random random, final int index) {
        switch (random.nextInt(5)) {
            case 0:
                return "plain ASCII #" + index;
            case 1:
                return "重传 #" + index + " → PSN 0x" + Integer.toHexString(random.nextInt(1 << 24)) + " ✓ Ωμέγα";
            case 2:
                return index % 2 == 0 ? "" : "a".repeat(random.nextInt(300));
            default:
                return null;
        }
    }

    private static long pow10(final int exponent) {
        long value = 1;
        for (int i = 0; i < exponent; i++) {
            value *= 10;
        }
        return value;
    }
}

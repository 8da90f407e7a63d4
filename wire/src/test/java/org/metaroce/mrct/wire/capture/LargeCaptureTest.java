package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.wire.capture.Captures.frame;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Files several times larger than the read buffer, so records straddle every refill, plus records larger than the
 * initial buffer; and the proof that the buffer view is reused across records, replaced only when the buffer grows.
 */
class LargeCaptureTest {
    private static final long SEED = 0x4C41_5247_45L;
    private static final int FRAMES = 900;
    private static final int BIG_PCAP_FRAME = 200 * 1024;
    private static final int BIG_PCAPNG_FRAME = 1536 * 1024;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "buffer {0} bytes")
    @CsvSource(delimiter = ';', value = {
        // doubles for the 9000-byte frames, then fits the 200 KiB one
        "4096; 4096 8192 16384 204816",
        "65536; 65536 204816",
        "1048576; 1048576"})
    void readsAPcapLargerThanItsBuffer(final int bufferSize, final String capacities) throws IOException {
        final Random random = new Random(SEED);
        final Path path = dir.resolve("large.pcap");
        final List<byte[]> frames = new ArrayList<>();
        try (PcapWriter writer = PcapWriter.create(path,
                PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            for (int i = 0; i < FRAMES; i++) {
                final byte[] frame = randomFrame(random, i == FRAMES / 2 ? BIG_PCAP_FRAME : random.nextInt(9001));
                writer.write(i, frame);
                frames.add(frame);
            }
        }
        assertThat(Files.size(path)).as("several buffers' worth").isGreaterThan(3L * 1024 * 1024);
        final Set<ByteBuffer> views = readAndCompare(path, bufferSize, frames);
        assertThat(views.stream().map(ByteBuffer::capacity).sorted().map(String::valueOf))
                .as("one view per buffer size the reader had to grow to")
                .containsExactly(capacities.split(" "));
    }

    @Test
    void readsAPcapngBlockLargerThanTheDefaultBuffer() throws IOException {
        final Random random = new Random(SEED + 1);
        final Path path = dir.resolve("large.pcapng");
        final List<byte[]> frames = new ArrayList<>();
        try (PcapngWriter writer = PcapngWriter.create(path, PcapngWriter.Options.defaults())) {
            writer.addInterface(1, "eth0", 9);
            for (int i = 0; i < FRAMES; i++) {
                final byte[] frame = randomFrame(random, i == FRAMES - 10 ? BIG_PCAPNG_FRAME : random.nextInt(9001));
                writer.write(0, i, ByteBuffer.wrap(frame), 0, frame.length, i % 3 == 0 ? "frame " + i : null);
                frames.add(frame);
            }
        }
        final Set<ByteBuffer> views = readAndCompare(path, CaptureReader.DEFAULT_BUFFER_SIZE, frames);
        assertThat(views.stream().map(ByteBuffer::capacity).sorted())
                .as("the initial buffer's view, then the view of the buffer doubled to fit the block")
                .containsExactly(CaptureReader.DEFAULT_BUFFER_SIZE, 2 * CaptureReader.DEFAULT_BUFFER_SIZE);
    }

    /** Reads every record, compares it with the frames written, and returns the distinct buffer views seen. */
    private static Set<ByteBuffer> readAndCompare(final Path path, final int bufferSize, final List<byte[]> frames)
            throws IOException {
        final Set<ByteBuffer> views = Collections.newSetFromMap(new IdentityHashMap<>());
        try (CaptureReader reader = CaptureReader.open(path, bufferSize)) {
            for (int i = 0; i < frames.size(); i++) {
                final String where = "seed " + SEED + ", buffer " + bufferSize + ", record " + (i + 1);
                assertThat(reader.next()).as(where).isTrue();
                assertThat(reader.timestampNanos()).as(where).isEqualTo(i);
                assertThat(frame(reader)).as(where).isEqualTo(frames.get(i));
                if (reader.format() == CaptureFormat.PCAPNG) {
                    assertThat(reader.comment()).as(where).isEqualTo(i % 3 == 0 ? "frame " + i : null);
                }
                views.add(reader.buffer());
            }
            assertThat(reader.next()).isFalse();
        }
        return views;
    }

    private static byte[] randomFrame(final Random random, final int length) {
        final byte[] frame = new byte[length];
        random.nextBytes(frame);
        return frame;
    }
}

package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader given fresh buffers ({@link CaptureReader#open(Path, int, java.util.function.IntFunction)}) never writes
 * again into a record it has handed out: every record read stays intact where it was, in the buffer it was read
 * into, after the whole file has been read (where the one-buffer reader has long moved later records over it).
 */
class CaptureReaderFreshBuffersTest {
    /** Seed of the frames' lengths and bytes. */
    private static final long SEED = 0x6672_6573_6842_7566L;

    @TempDir
    Path dir;

    /** Where a record was handed out, kept until the end. */
    private record Kept(ByteBuffer buffer, int offset, int length, byte[] expected) {
    }

    @Test
    void pcapRecordsStayWhereTheyWereReadAcrossEveryRefill() throws IOException {
        final List<byte[]> frames = frames(new Random(SEED), 3000);
        final Path path = dir.resolve("fresh.pcap");
        try (PcapWriter writer = PcapWriter.create(path, PcapWriter.Options.defaults())) {
            for (int i = 0; i < frames.size(); i++) {
                writer.write(1_000_000L * i, frames.get(i));
            }
        }
        readAndKeep(path, frames);
    }

    @Test
    void pcapngRecordsStayWhereTheyWereReadAcrossEveryRefill() throws IOException {
        final List<byte[]> frames = frames(new Random(SEED + 1), 2000);
        final Path path = dir.resolve("fresh.pcapng");
        try (PcapngWriter writer = PcapngWriter.create(path, PcapngWriter.Options.defaults())) {
            final int eth0 = writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "eth0", 9);
            for (int i = 0; i < frames.size(); i++) {
                writer.write(eth0, 1_000_000L * i, frames.get(i));
            }
        }
        readAndKeep(path, frames);
    }

    @Test
    void aFreshBufferSmallerThanAskedIsRefused() throws IOException {
        final Path path = dir.resolve("small.pcap");
        try (PcapWriter writer = PcapWriter.create(path, PcapWriter.Options.defaults())) {
            writer.write(0, new byte[64]);
        }
        assertThatThrownBy(() -> CaptureReader.open(path, 1 << 13, n -> ByteBuffer.allocateDirect(n / 2)))
            .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<byte[]> frames(final Random random, final int count) {
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // mostly small, now and then larger than the 4 KiB buffer (which must then be replaced by a larger one)
            final byte[] frame = new byte[i % 97 == 5 ? 5000 + random.nextInt(4000) : random.nextInt(1500)];
            random.nextBytes(frame);
            frames.add(frame);
        }
        return frames;
    }

    private static void readAndKeep(final Path path, final List<byte[]> frames) throws IOException {
        final List<ByteBuffer> given = new ArrayList<>();
        final List<Kept> kept = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(path, CaptureReader.MIN_BUFFER_SIZE, n -> {
            final ByteBuffer fresh = ByteBuffer.allocateDirect(n);
            given.add(fresh);
            return fresh;
        })) {
            while (reader.next()) {
                final int i = kept.size();
                assertThat(reader.capturedLength()).as("record %d", i + 1).isEqualTo(frames.get(i).length);
                kept.add(new Kept(reader.buffer(), reader.offset(), reader.capturedLength(), frames.get(i)));
            }
        }
        assertThat(kept).hasSize(frames.size());
        // many refills, each into a buffer of its own (so the test shows that the records survived them)
        assertThat(given.size()).isGreaterThan(100);
        for (int i = 0; i < kept.size(); i++) {
            final Kept k = kept.get(i);
            final byte[] now = new byte[k.length()];
            k.buffer().get(k.offset(), now);
            assertThat(Arrays.equals(now, k.expected())).as("record %d intact after the whole file was read", i + 1)
                .isTrue();
        }
    }
}

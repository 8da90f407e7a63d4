package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Agreement with Wireshark's tshark, when it is installed (skipped with the reason otherwise): tshark reads what the
 * pcapng writer wrote, and the reader reads every real capture in {@code ../shared/captures} exactly as tshark does.
 * tshark 4.0 names the packet comment field {@code frame.comment}.
 */
class TsharkInteropTest {
    private static final long SEED = 0x5453_4841_524BL;
    private static final long TIMEOUT_SECONDS = 120;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    /** One line of {@code tshark -T fields}. */
    private record TsharkFrame(long number, long timestampNanos, long length, long capturedLength, String interfaceId,
            String comment) {
    }

    @Test
    void tsharkReadsWhatThePcapngWriterWrote() throws IOException {
        assumeTsharkRuns();
        final Random random = new Random(SEED);
        final Path path = dir.resolve("interop.pcapng");
        final int[] exponents = {9, 6};
        final List<long[]> written = new ArrayList<>();
        final List<String> comments = new ArrayList<>();
        try (PcapngWriter writer = PcapngWriter.create(path,
                PcapngWriter.Options.defaults().withUserApplication("mrct").withComment("interop ✓"))) {
            assertThat(writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "eth0", exponents[0])).isZero();
            assertThat(writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "rxe0 ☃", exponents[1])).isEqualTo(1);
            for (int i = 0; i < 50; i++) {
                final int id = random.nextInt(2);
                final byte[] frame = new byte[60 + random.nextInt(1455)];
                random.nextBytes(frame);
                final long timestamp = 1_700_000_000L * NANOS_PER_SECOND + (random.nextLong() >>> 4);
                final long original = frame.length + (i % 4 == 0 ? 100 : 0);
                final String comment = i % 3 == 0 ? null : "重传 #" + i + ", PSN → 0x" + Integer.toHexString(i);
                writer.write(id, timestamp, ByteBuffer.wrap(frame), 0, frame.length, original, comment);
                final long unit = exponents[id] == 9 ? 1 : 1000;
                written.add(new long[] {id, timestamp / unit * unit, frame.length, original});
                comments.add(comment == null ? "" : comment);
            }
        }
        final List<TsharkFrame> frames = tshark(path);
        assertThat(frames).as("seed %d", SEED).hasSize(written.size());
        for (int i = 0; i < frames.size(); i++) {
            final TsharkFrame frame = frames.get(i);
            final long[] w = written.get(i);
            final String where = "seed " + SEED + ", frame " + (i + 1);
            assertThat(frame.number()).as(where).isEqualTo(i + 1);
            assertThat(frame.interfaceId()).as(where).isEqualTo(String.valueOf(w[0]));
            assertThat(frame.timestampNanos()).as(where).isEqualTo(w[1]);
            assertThat(frame.capturedLength()).as(where).isEqualTo(w[2]);
            assertThat(frame.length()).as(where).isEqualTo(w[3]);
            assertThat(frame.comment()).as(where).isEqualTo(comments.get(i));
        }
    }

    @Test
    void readerAgreesWithTsharkOnEverySharedCapture() throws IOException {
        final String root = System.getProperty("mrct.root");
        assumeTrue(root != null, "system property mrct.root is not set (surefire sets it to the repository root)");
        final Path captures = Path.of(root).resolve("../shared/captures").normalize();
        assumeTrue(Files.isDirectory(captures), "no shared captures at " + captures);
        assumeTsharkRuns();
        final List<Path> files;
        try (Stream<Path> listing = Files.list(captures)) {
            files = listing.filter(p -> p.getFileName().toString().matches(".*\\.(pcap|pcapng|cap)"))
                    .sorted().collect(Collectors.toList());
        }
        assumeTrue(!files.isEmpty(), "no .pcap, .pcapng or .cap files in " + captures);
        final List<String> disagreements = new ArrayList<>();
        for (final Path file : files) {
            try {
                assertSameAsTshark(file);
            } catch (AssertionError | IOException e) {
                disagreements.add(e.getMessage());
            }
        }
        assertThat(disagreements).as("files where the reader and tshark disagree, of %d", files.size()).isEmpty();
    }

    private static void assertSameAsTshark(final Path file) throws IOException {
        final List<TsharkFrame> expected = tshark(file);
        final List<Captures.Record> actual = Captures.readAll(file);
        assertThat(actual).as(file.toString()).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            final TsharkFrame frame = expected.get(i);
            final Captures.Record record = actual.get(i);
            final String where = file.getFileName() + " frame " + frame.number();
            assertThat(record.number()).as(where).isEqualTo(frame.number());
            assertThat(record.timestampNanos()).as(where).isEqualTo(frame.timestampNanos());
            assertThat(record.capturedLength()).as(where).isEqualTo(frame.capturedLength());
            assertThat(record.originalLength()).as(where).isEqualTo(frame.length());
        }
    }

    /** Skips the test, with the reason, unless {@code tshark -v} runs and exits with 0. */
    private static void assumeTsharkRuns() {
        String problem;
        try {
            final Process process = new ProcessBuilder("tshark", "-v").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            problem = !process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) ? "tshark -v did not finish"
                    : process.exitValue() != 0 ? "tshark -v exited with " + process.exitValue() : null;
        } catch (IOException e) {
            problem = "tshark cannot be started: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problem = "interrupted while starting tshark";
        }
        assumeTrue(problem == null, problem);
    }

    /** Every frame of a file as tshark reports it, fields separated by tabs. */
    private static List<TsharkFrame> tshark(final Path file) {
        try {
            final Process process = new ProcessBuilder("tshark", "-n", "-r", file.toString(), "-T", "fields",
                    "-E", "separator=/t", "-e", "frame.number", "-e", "frame.time_epoch", "-e", "frame.len",
                    "-e", "frame.cap_len", "-e", "frame.interface_id", "-e", "frame.comment")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("tshark did not finish reading " + file);
            }
            assertThat(process.exitValue()).as("tshark exit status for " + file).isZero();
            final List<TsharkFrame> frames = new ArrayList<>();
            for (final String line : output.split("\n")) {
                if (line.isEmpty()) {
                    continue;
                }
                final String[] fields = line.split("\t", -1);
                frames.add(new TsharkFrame(Long.parseLong(fields[0]), epochNanos(fields[1]),
                        Long.parseLong(fields[2]), Long.parseLong(fields[3]), fields[4], fields[5]));
            }
            return frames;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running tshark", e);
        }
    }

    /** Exact nanoseconds of tshark's decimal seconds, e.g. {@code 1781622406.754650000}. */
    static long epochNanos(final String decimalSeconds) {
        final int dot = decimalSeconds.indexOf('.');
        if (dot < 0) {
            return Long.parseLong(decimalSeconds) * NANOS_PER_SECOND;
        }
        final String fraction = (decimalSeconds.substring(dot + 1) + "000000000").substring(0, 9);
        return Long.parseLong(decimalSeconds.substring(0, dot)) * NANOS_PER_SECOND + Long.parseLong(fraction);
    }
}

package org.metaroce.mrct.analyzer.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.wire.capture.CaptureFormatException;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/** {@link EvidenceOrder} on hand-written evidence: what it reorders, what it passes through, where it stops. */
class EvidenceOrderTest {
    private static final long BASE = 1_700_000_000_000_000_000L;

    @TempDir
    Path dir;

    /** A record to write: interface (0 to-dut, 1 from-dut, 2 control), record timestamp, comment; one byte of data. */
    private record W(int iface, long ts, String comment, byte tag) {
    }

    /** A record read back: its number, timestamp and the tag byte. */
    private record R(long number, long ts, byte tag) {
    }

    private static W frame(final String kase, final boolean toDut, final long ts, final String time, final int tag) {
        return new W(toDut ? 0 : 1, BASE + ts, "mrct case=" + kase + " step=1 dir=" + (toDut ? "to-dut" : "from-dut")
            + " index=" + tag + " verdict=PASS note=x" + (time == null ? "" : " time=" + time), (byte) tag);
    }

    private static W control(final String kase, final long ts, final int tag) {
        return new W(2, BASE + ts, "mrct case=" + kase + " step=control dir=control index=0 verdict=PASS note=reset",
            (byte) tag);
    }

    private Path write(final String name, final List<W> records) throws IOException {
        final Path file = dir.resolve(name);
        try (PcapngWriter w = PcapngWriter.create(file, PcapngWriter.Options.defaults())) {
            w.addInterface(1, "to-dut", 9);
            w.addInterface(1, "from-dut", 9);
            w.addInterface(147, "control", 9);
            for (final W r : records) {
                w.write(r.iface(), r.ts(), ByteBuffer.wrap(new byte[] {r.tag()}), 0, 1, r.comment());
            }
        }
        return file;
    }

    private static List<R> readAll(final CaptureReader reader, final List<R> into) throws IOException {
        while (reader.next()) {
            into.add(new R(reader.recordNumber(), reader.timestampNanos(), reader.buffer().get(reader.offset())));
        }
        return into;
    }

    private static EvidenceOrder open(final Path file) throws IOException {
        final CaptureReader inner = CaptureReader.open(file);
        inner.next();
        return new EvidenceOrder(inner, true);
    }

    @Test
    void aCasesFramesComeInTheOrderOfTheirStampsAtTheirStampsTiesInFileOrder() throws IOException {
        // as the writer clamps: record 3's stamp (500) is earlier than record 2's (900), its record timestamp is not
        final Path file = write("a.pcapng", List.of(
            frame("A", false, 100, "100", 1),
            frame("A", true, 900, "900", 2),
            frame("A", false, 900, "500", 3),
            frame("A", false, 900, "900", 4),
            control("A", 900, 5),
            frame("B", true, 2_000, "0", 6),
            frame("B", false, 2_000, "0", 7)));
        try (EvidenceOrder reader = open(file)) {
            assertThat(readAll(reader, new ArrayList<>())).containsExactly(
                new R(1, BASE + 100, (byte) 1),
                new R(3, BASE + 500, (byte) 3),
                new R(2, BASE + 900, (byte) 2),
                new R(4, BASE + 900, (byte) 4),
                new R(5, BASE + 900, (byte) 5),
                new R(6, BASE + 2_000, (byte) 6),
                new R(7, BASE + 2_000, (byte) 7));
        }
    }

    @Test
    void aCaseBaseComesFromItsFirstFrameAndANegativeStampStaysAtTheBase() throws IOException {
        // the writer puts the first frame at base + max(0, stamp): base 1000 here
        final Path file = write("b.pcapng", List.of(
            frame("A", true, 1_300, "300", 1),
            frame("A", false, 1_300, "-7", 2),
            frame("A", false, 1_300, "200", 3)));
        try (EvidenceOrder reader = open(file)) {
            assertThat(readAll(reader, new ArrayList<>())).containsExactly(
                new R(2, BASE + 1_000, (byte) 2),
                new R(3, BASE + 1_200, (byte) 3),
                new R(1, BASE + 1_300, (byte) 1));
        }
    }

    @Test
    void framesWithoutAStampKeepTheirTimestampAndTheirPlace() throws IOException {
        final Path file = write("c.pcapng", List.of(
            frame("A", true, 100, null, 1),
            frame("A", false, 20, null, 2),
            new W(1, BASE + 50, "not an mrct comment", (byte) 3),
            frame("A", false, 300, "10", 4),
            frame("A", false, 200, null, 5)));
        try (EvidenceOrder reader = open(file)) {
            assertThat(readAll(reader, new ArrayList<>())).containsExactly(
                new R(1, BASE + 100, (byte) 1),
                new R(2, BASE + 20, (byte) 2),
                new R(3, BASE + 50, (byte) 3),
                new R(4, BASE + 300, (byte) 4),
                new R(5, BASE + 200, (byte) 5));
        }
    }

    @Test
    void onADamagedFileEveryFrameBeforeTheDamageComesFirstThenTheDamage() throws IOException {
        final Path whole = write("d.pcapng", List.of(
            frame("A", true, 100, "100", 1),
            frame("A", false, 100, "50", 2),
            frame("A", false, 100, "100", 3)));
        final byte[] bytes = Files.readAllBytes(whole);
        final Path cut = Files.write(dir.resolve("cut.pcapng"), java.util.Arrays.copyOf(bytes, bytes.length - 10));
        final List<R> got = new ArrayList<>();
        try (EvidenceOrder reader = open(cut)) {
            assertThatThrownBy(() -> readAll(reader, got)).isInstanceOf(CaptureFormatException.class);
            assertThatThrownBy(reader::next).as("and again on every later call").isInstanceOf(CaptureFormatException.class);
        }
        assertThat(got).containsExactly(new R(2, BASE + 50, (byte) 2), new R(1, BASE + 100, (byte) 1));
    }
}

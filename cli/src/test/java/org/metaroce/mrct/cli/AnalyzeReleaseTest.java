package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.TrafficGenerator;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * `mrct analyze --release-after-ms`: a connection released before the capture's end gives the same report files, byte
 * for byte (times aside), as when every connection is held to the end, and the terminal says how many were released.
 */
class AnalyzeReleaseTest {
    @TempDir
    Path dir;

    /** Two host pairs' eventful conversations, the second starting 50 ms after the first's last frame. */
    private Path oneAfterTheOther() throws IOException {
        final List<long[]> times = new ArrayList<>();
        final List<byte[]> frames = new ArrayList<>();
        TrafficGenerator.generateBetween(TrafficGenerator.Options.eventful(2_000, 21), 0x0A000001, 0x0A000002,
            (ts, bytes) -> {
                times.add(new long[] {ts});
                frames.add(bytes);
            });
        final int first = frames.size();
        TrafficGenerator.generateBetween(TrafficGenerator.Options.eventful(2_000, 22), 0x0A000101, 0x0A000102,
            (ts, bytes) -> {
                times.add(new long[] {ts});
                frames.add(bytes);
            });
        final long shift = times.get(first - 1)[0] + 50_000_000L - times.get(first)[0];
        final Path capture = dir.resolve("two.pcap");
        try (PcapWriter writer = PcapWriter.create(capture,
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            for (int i = 0; i < frames.size(); i++) {
                writer.write(times.get(i)[0] + (i < first ? 0 : shift), ByteBuffer.wrap(frames.get(i)), 0,
                    frames.get(i).length);
            }
        }
        return capture;
    }

    @Test
    void aConnectionReleasedBeforeTheEndGivesTheSameReportFiles() throws IOException {
        final Path capture = oneAfterTheOther();
        final List<String> texts = new ArrayList<>();
        final List<String> terminal = new ArrayList<>();
        for (final String window : List.of("0", "20")) {
            final Path reports = dir.resolve("release-" + window);
            final Mrct.Run run = Mrct.run("analyze", "--threads", "1", "--release-after-ms", window, "--report-dir",
                reports.toString(), capture.toString());
            assertThat(run.status()).as(run.out() + run.err()).isIn(0, 1);
            terminal.add(run.lines().get(0));
            final StringBuilder text = new StringBuilder();
            for (final String file : List.of("report.json", "junit.xml", "summary.md", "report.html")) {
                text.append("== ").append(file).append('\n').append(Files.readString(reports.resolve(file))
                    .replace(reports.toString(), "REPORTS")
                    .replaceAll("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z?", "TIME"));
            }
            texts.add(text.toString());
        }
        assertThat(terminal.get(0)).contains("2 connections").doesNotContain("released");
        assertThat(terminal.get(1)).contains("2 connections, 1 released before the end");
        assertThat(texts.get(0)).contains("C2/summary");
        assertThat(texts.get(1)).isEqualTo(texts.get(0));
    }
}

package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.GenerateTraffic;

/**
 * A heap too small for what was asked ends in one line naming the cause and what to do, exit status 1, never a stack
 * trace: `mrct analyze` of 20,000 one-frame connections with every report in a JVM of 24 MiB, told to hold them all
 * ({@code --max-held-flows 100000}: the analysis alone then holds about 55 MB for them, docs/analyze-at-scale.md; with
 * the cap from the heap, 1,536 flows in 24 MiB, the same run ends with exit status 0), run as its own process so that
 * the test's JVM keeps its heap.
 */
class OutOfHeapTest {
    @Test
    void runningOutOfHeapIsOneClearLineAndExitStatusOne(@TempDir final Path dir) throws Exception {
        final Path capture = dir.resolve("many.pcap");
        GenerateTraffic.main(new String[] {capture.toString(), "20000", "connections", "1"});
        final Path err = dir.resolve("err.txt");
        final Process process = new ProcessBuilder(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx24m", "-XX:+UseSerialGC",
            "-cp", System.getProperty("java.class.path"), Main.class.getName(),
            "analyze", "--threads", "1", "--max-held-flows", "100000", "--report-dir", dir.resolve("reports").toString(), capture.toString()))
            .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("the process ended").isTrue();

        final String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(stderr).isEqualTo(ExitStatus.FAILURE);
        assertThat(stderr).contains("mrct analyze ran out of heap (-Xmx ")
            .contains("holds each connection until it is idle")
            .doesNotContain("\tat ").doesNotContain("Exception in thread");
        assertThat(leftovers(dir.resolve("reports"))).as("no temporary or spill file left behind").isEmpty();
    }

    private static List<Path> leftovers(final Path reports) throws IOException {
        try (var files = Files.list(reports)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".tmp")
                || f.getFileName().toString().endsWith(".spill")).toList();
        }
    }
}

package org.metaroce.mrct.reports.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The states a report directory can be seen in while a file is replaced, as a process killed at that moment (SIGKILL,
 * no cleanup) would leave it (issue 11 item 8: an early kill left only {@code .report.json.tmp}).
 */
class AtomicFileTest {
    private static List<String> names(final Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void whileTheFirstVersionIsRenderedNoTemporaryFileExistsWithoutTheReport(@TempDir final Path dir)
        throws IOException {
        final Path report = dir.resolve("report.json");
        final List<List<String>> seen = new ArrayList<>();

        AtomicFile.write(report, false, out -> {
            seen.add(names(dir)); // a kill here: what is left
            out.write("{\"a\":".getBytes(StandardCharsets.UTF_8));
            seen.add(names(dir));
            out.write("1}".getBytes(StandardCharsets.UTF_8));
        });

        assertThat(seen).containsOnly(List.of());
        assertThat(names(dir)).containsExactly("report.json");
        assertThat(Files.readString(report)).isEqualTo("{\"a\":1}");
    }

    @Test
    void whileALaterVersionIsWrittenTheWholePreviousOneStaysInPlace(@TempDir final Path dir) throws IOException {
        final Path report = dir.resolve("report.json");
        AtomicFile.write(report, false, out -> out.write("{\"v\":1}".getBytes(StandardCharsets.UTF_8)));
        final List<String> during = new ArrayList<>();

        AtomicFile.write(report, true, out -> {
            out.write("{\"v\":".getBytes(StandardCharsets.UTF_8));
            during.add(Files.readString(report));
            out.write("2}".getBytes(StandardCharsets.UTF_8));
        });

        assertThat(during).containsExactly("{\"v\":1}");
        assertThat(Files.readString(report)).isEqualTo("{\"v\":2}");
        assertThat(names(dir)).containsExactly("report.json");
    }

    @Test
    void aFailedWriteLeavesThePreviousVersionAndNoTemporaryFile(@TempDir final Path dir) throws IOException {
        final Path report = dir.resolve("report.json");
        AtomicFile.write(report, false, out -> out.write("{}".getBytes(StandardCharsets.UTF_8)));

        assertThatThrownBy(() -> AtomicFile.write(report, false, out -> {
            out.write('[');
            throw new IOException("No space left on device");
        })).hasMessage("No space left on device");

        assertThat(names(dir)).containsExactly("report.json");
        assertThat(Files.readString(report)).isEqualTo("{}");
    }
}

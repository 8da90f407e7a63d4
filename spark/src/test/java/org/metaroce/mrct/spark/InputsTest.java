package org.metaroce.mrct.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.spark.internal.Capture;
import org.metaroce.mrct.spark.internal.Inputs;

/** How the command line's arguments become captures, through Hadoop's file system (no Spark needed). */
class InputsTest {
    @Test
    void filesDirectoriesAndGlobs(@TempDir final Path tmp) throws Exception {
        final Path fleet = Files.createDirectories(tmp.resolve("fleet/rack1"));
        Files.write(fleet.resolve("b.pcapng"), new byte[3]);
        Files.write(fleet.resolve("a.pcap"), new byte[5]);
        Files.write(fleet.resolve("notes.txt"), new byte[1]);
        Files.write(fleet.resolve(".hidden.pcap"), new byte[1]);
        Files.write(tmp.resolve("fleet/z.cap"), new byte[7]);
        final List<Capture> captures = Inputs.expand(List.of(tmp.resolve("fleet").toString(),
            tmp + "/fleet/rack1/*.pcap*", "missing.pcap"), new Configuration());
        assertThat(captures).extracting(Capture::name).containsExactly(
            fleet.resolve("a.pcap").toString(), fleet.resolve("b.pcapng").toString(),
            tmp.resolve("fleet/z.cap").toString(),
            fleet.resolve("a.pcap").toString(), fleet.resolve("b.pcapng").toString(),
            "missing.pcap");
        assertThat(captures).extracting(Capture::index).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(captures).extracting(Capture::bytes).containsExactly(5L, 3L, 7L, 5L, 3L, -1L);
        assertThat(captures.get(0).uri()).startsWith("file:/");
        assertThat(captures.get(5).uri()).startsWith("file:/").endsWith("/missing.pcap");
    }

    @Test
    void aGlobOrDirectoryWithoutCapturesIsSaid(@TempDir final Path tmp) throws Exception {
        Files.write(tmp.resolve("readme.md"), new byte[1]);
        assertThatThrownBy(() -> Inputs.expand(List.of(tmp + "/*.pcap"), new Configuration()))
            .isInstanceOf(Inputs.NoCapture.class).hasMessageEndingWith("*.pcap: no file matches");
        assertThatThrownBy(() -> Inputs.expand(List.of(tmp.toString()), new Configuration()))
            .isInstanceOf(Inputs.NoCapture.class).hasMessageContaining("no .pcap, .pcapng or .cap file");
    }
}

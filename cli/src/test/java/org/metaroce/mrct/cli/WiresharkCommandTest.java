package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.Fixtures;

/** {@code mrct wireshark install}: the dissector of the repository, copied where Wireshark looks for it. */
class WiresharkCommandTest {
    @TempDir
    Path dir;

    @Test
    void installCopiesTheRepositorysDissectorAndSaysWhere() throws IOException {
        final Path folder = dir.resolve("plugins");
        final Mrct.Run run = Mrct.run("wireshark", "install", "--dir", folder.toString());
        assertThat(run.status()).as(run.err()).isZero();
        final Path installed = folder.resolve("metaroce.lua");
        assertThat(installed).hasSameBinaryContentAs(Fixtures.root().resolve("wireshark/metaroce.lua"));
        assertThat(run.lines().get(0)).isEqualTo("installed " + installed.toAbsolutePath());
        assertThat(folder).isDirectoryNotContaining(p -> p.getFileName().toString().endsWith(".tmp"));

        final Mrct.Run again = Mrct.run("wireshark", "install", "--dir", folder.toString());
        assertThat(again.status()).isZero();
        assertThat(again.lines().get(0)).isEqualTo("replaced " + installed.toAbsolutePath());
    }

    @Test
    void aFolderThatCannotBeWrittenIsOneLineAndStatusTwo() throws IOException {
        final Path file = Files.writeString(dir.resolve("a-file"), "not a folder");
        final Mrct.Run run = Mrct.run("wireshark", "install", "--dir", file.resolve("plugins").toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.errLines()).hasSize(1);
        assertThat(run.err()).startsWith("mrct wireshark install: cannot write " + file.resolve("plugins")
            .resolve("metaroce.lua"));
    }

    @Test
    void thePersonalLuaPluginFolderOfEachSystem() {
        assertThat(WiresharkCommand.personalPluginFolder(Map.of(), "Linux", "/home/ann"))
            .isEqualTo(Path.of("/home/ann/.local/lib/wireshark/plugins"));
        assertThat(WiresharkCommand.personalPluginFolder(Map.of(), "Mac OS X", "/Users/ann"))
            .isEqualTo(Path.of("/Users/ann/.local/lib/wireshark/plugins"));
        assertThat(WiresharkCommand.personalPluginFolder(Map.of("APPDATA", "C:/Users/ann/AppData/Roaming"),
            "Windows 11", "C:/Users/ann")).isEqualTo(Path.of("C:/Users/ann/AppData/Roaming", "Wireshark", "plugins"));
    }

    @Test
    void withoutASubcommandItIsAUsageError() {
        final Mrct.Run run = Mrct.run("wireshark");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("install");
    }
}

package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.Fixtures;

/**
 * The {@code ./mrct} launcher (issue 11 item 7): a build writes no escape noise to the error stream (Maven 3.8 prints
 * colour resets even with {@code -B -q}), and the JVM learns which streams are terminals. Run on a copy of the script
 * in an empty tree, with a stand-in {@code mvn} that behaves as Maven 3.8 does and a stand-in {@code java} that
 * prints its arguments, so no real build runs.
 */
class LauncherTest {
    private static Path executable(final Path file, final String text) throws Exception {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    @Test
    void aBuildLeavesNoEscapeNoiseAndTheJvmLearnsTheTerminals(@TempDir final Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "needs bash");
        final Path root = Files.createDirectories(dir.resolve("repo"));
        Files.copy(Fixtures.root().resolve("mrct"), root.resolve("mrct"));
        Files.setPosixFilePermissions(root.resolve("mrct"), PosixFilePermissions.fromString("rwxr-xr-x"));
        final Path bin = Files.createDirectories(dir.resolve("bin"));
        executable(bin.resolve("mvn"), "#!/bin/bash\nprintf '\\033[0m\\033[0m'\nmkdir -p cli/target\n"
            + "echo jar > cli/target/mrct.jar\nprintf '\\033[0m\\033[0m'\n");
        final Path javaHome = Files.createDirectories(dir.resolve("jdk").resolve("bin")).getParent();
        executable(javaHome.resolve("bin").resolve("java"), "#!/bin/bash\necho \"java $*\"\n");

        final ProcessBuilder builder = new ProcessBuilder(root.resolve("mrct").toString(), "list")
            .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
        final Map<String, String> env = builder.environment();
        env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA_HOME", javaHome.toString());
        env.remove("MRCT_JAVA_OPTS");
        final Process process = builder.start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the launcher ends").isTrue();

        final String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
        final String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(err).isZero();
        assertThat(err).isEqualTo("mrct: building the CLI (mvn package)...\n").doesNotContain("\033");
        assertThat(out).startsWith("java ").contains("-Dmrct.tty= ", "-jar " + root.resolve("cli/target/mrct.jar")
            + " list");
    }
}

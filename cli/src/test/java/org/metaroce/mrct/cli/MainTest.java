package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The {@code mrct} command itself: version, help, the subcommand registry. */
class MainTest {
    @Test
    void versionIsPrinted() {
        final Mrct.Run run = Mrct.run("--version");
        assertThat(run.status()).isZero();
        assertThat(run.lines().get(0)).isEqualTo("mrct " + Version.current());
        assertThat(Version.current()).isNotBlank();
    }

    @Test
    void helpListsDecode() {
        final Mrct.Run run = Mrct.run("--help");
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("Usage: mrct", "decode");
    }

    @Test
    void decodeHelpListsItsOptions() {
        final Mrct.Run run = Mrct.run("decode", "--help");
        assertThat(run.status()).isZero();
        assertThat(run.out()).contains("Usage: mrct decode", "--format", "--roce-only", "FILE");
    }
}

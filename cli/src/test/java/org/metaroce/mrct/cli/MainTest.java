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

    @Test
    void helpListsEverySubcommandInOrder() {
        final String out = Mrct.run("--help").out();
        final String[] names = {"run", "list", "explain", "spec", "faults", "report", "decode", "analyze", "serve"};
        int at = out.indexOf("Commands:");
        for (final String name : names) {
            final int next = out.indexOf("\n  " + name + " ", at);
            assertThat(next).as(name + " listed after the one before it in:%n" + out).isGreaterThan(at);
            at = next;
        }
    }

    @Test
    void withoutOrWithAnUnknownSubcommandTheUsageErrorNamesThem() {
        final Mrct.Run none = Mrct.run();
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).contains("Missing required subcommand", "analyze", "serve");
        final Mrct.Run typo = Mrct.run("anlyze", "x.pcap");
        assertThat(typo.status()).isEqualTo(2);
        assertThat(typo.err()).contains("Did you mean: mrct analyze?");
    }

    @Test
    void aSubcommandRegisteredAloneReachesItsParentAndItsOwnSubcommands() {
        // only the named subcommand is registered: its parent (the root command) must still reach it
        final Mrct.Run faults = Mrct.run("faults");
        assertThat(faults.status()).isZero();
        assertThat(faults.out()).contains("go-back-n");
        final Mrct.Run nested = Mrct.run("report", "diff", "--help");
        assertThat(nested.status()).isZero();
        assertThat(nested.out()).contains("Usage: mrct report diff");
    }
}

package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.AdapterOption;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterProviders;

/** {@code mrct run} offers the options the adapters found through the ServiceLoader declare, and only theirs. */
class AdapterChoiceTest {
    @Test
    void theJarHoldsTheThreeAdaptersInOrder() {
        assertThat(AdapterProviders.all()).extracting(AdapterProvider::name)
            .containsExactly("reference", "socket", "replay");
    }

    @Test
    void theUsageListsEveryAdapterAndEachOfItsOptionsBeforeQuiet() {
        final Mrct.Run help = Mrct.run("run", "--help");
        assertThat(help.status()).isZero();
        final String out = help.out().replaceAll("\\s+", " ");
        assertThat(out).contains("--adapter=NAME the device: reference (the embedded reference NIC, default), "
            + "socket (a device outside the JVM: --iface or --udp, and --agent) or replay (a recorded run: --from)");
        final List<String> lines = help.lines();
        final int quiet = indexOf(lines, "--quiet");
        for (final AdapterProvider provider : AdapterProviders.all()) {
            for (final AdapterOption option : provider.options()) {
                final int at = indexOf(lines, option.name() + "=" + option.paramLabel());
                assertThat(at).as(option.name()).isPositive().isLessThan(quiet);
                assertThat(out).contains(option.description().replaceAll("\\s+", " ").substring(0, 20));
            }
        }
    }

    private static int indexOf(final List<String> lines, final String option) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().startsWith(option)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void anotherAdaptersOptionIsRefusedNamingItsAdapter() {
        final Mrct.Run from = Mrct.run("run", "--quiet", "--from", "x.pcapng");
        assertThat(from.status()).isEqualTo(2);
        assertThat(from.err()).contains("mrct run: --from applies to the replay adapter only");
        final Mrct.Run iface = Mrct.run("run", "--quiet", "--adapter", "replay", "--from", "x.pcapng", "--iface", "lo");
        assertThat(iface.status()).isEqualTo(2);
        assertThat(iface.err()).contains("mrct run: --iface applies to the socket adapter only");
        final Mrct.Run fault = Mrct.run("run", "--quiet", "--adapter", "replay", "--from", "x.pcapng", "--fault",
            "no-sack");
        assertThat(fault.err()).contains("--fault applies to the reference adapter only");
    }

    @Test
    void theChosenAdapterChecksItsOwnValues() {
        final Mrct.Run fault = Mrct.run("run", "--quiet", "--fault", "gremlins");
        assertThat(fault.status()).isEqualTo(2);
        assertThat(fault.err()).contains("mrct run: unknown fault 'gremlins' (mrct faults lists them)");
        final Mrct.Run timeout = Mrct.run("run", "--quiet", "--adapter", "socket", "--udp", "127.0.0.1:1",
            "--agent", "127.0.0.1:1", "--agent-timeout", "soon");
        assertThat(timeout.status()).isEqualTo(2);
        assertThat(timeout.err()).contains("--agent-timeout takes a duration such as 200us or 20ms, not 'soon'");
        final Mrct.Run missing = Mrct.run("run", "--quiet", "--adapter", "replay", "--from", "no-such.pcapng");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("mrct run: no-such.pcapng");
    }
}

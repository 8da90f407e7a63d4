package org.metaroce.mrct.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.AdapterOption;
import org.metaroce.mrct.spi.AdapterOptions;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterRequest;
import org.metaroce.mrct.spi.AdapterSetupException;

class SocketAdapterProviderTest {
    private static final List<AdapterOption> DECLARED = new SocketAdapterProvider().options();

    private static SocketOptions options(final String... pairs) throws AdapterSetupException {
        final Map<String, String> given = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            given.put(pairs[i], pairs[i + 1]);
        }
        return SocketAdapterProvider.options(new AdapterOptions(DECLARED, given));
    }

    @Test
    void theServiceLoaderFindsItAsARealTimeSocketAdapter() {
        final List<AdapterProvider> found = new ArrayList<>();
        ServiceLoader.load(AdapterProvider.class).forEach(found::add);
        assertThat(found).hasSize(1).first().isInstanceOf(SocketAdapterProvider.class);
        assertThat(found.get(0).name()).isEqualTo("socket");
        assertThat(found.get(0).traits()).containsExactly(AdapterProvider.Trait.REAL_TIME);
        assertThat(found.get(0).options()).extracting(AdapterOption::name).containsExactly("--iface", "--udp",
            "--agent", "--token", "--token-file", "--capture-buffer", "--harness-mac", "--harness-ipv4",
            "--harness-ipv6", "--agent-timeout");
    }

    @Test
    void theOptionsBecomeSocketOptionsWithTheirDefaults() throws Exception {
        final SocketOptions iface = options("--iface", "eth2", "--agent", "192.0.2.2:4790", "--token", "t");
        assertThat(iface.iface()).isEqualTo("eth2");
        assertThat(iface.agent().getPort()).isEqualTo(4790);
        assertThat(iface.token()).isEqualTo("t");
        assertThat(iface.captureBufferBytes()).isEqualTo(256 << 20);
        assertThat(iface.agentTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(iface.harnessIpv4()).isEqualTo("198.51.100.1");
        assertThat(iface.harnessIpv6()).isEqualTo("2001:db8::1");
        final SocketOptions udp = options("--udp", "127.0.0.1:50000", "--agent", "127.0.0.1:4790",
            "--capture-buffer", "2MiB", "--agent-timeout", "1us", "--harness-ipv6", "none");
        assertThat(udp.iface()).isNull();
        assertThat(udp.udpDevice().getPort()).isEqualTo(50000);
        assertThat(udp.captureBufferBytes()).isEqualTo(2 << 20);
        assertThat(udp.agentTimeout()).isEqualTo(Duration.ofMillis(1)); // at least a millisecond
    }

    @Test
    void missingOrMalformedOptionsAreRefusedNamingThem(@TempDir final Path dir) throws Exception {
        assertThatThrownBy(() -> options("--agent", "127.0.0.1:1"))
            .hasMessage("--adapter socket needs exactly one of --iface IF and --udp HOST:PORT");
        assertThatThrownBy(() -> options("--iface", "lo", "--udp", "127.0.0.1:1", "--agent", "127.0.0.1:1"))
            .hasMessage("--adapter socket needs exactly one of --iface IF and --udp HOST:PORT");
        assertThatThrownBy(() -> options("--iface", "lo"))
            .hasMessage("--adapter socket needs --agent HOST:PORT (the device's control agent)");
        assertThatThrownBy(() -> options("--iface", "lo", "--agent", "127.0.0.1:1", "--harness-mac", "zz"))
            .hasMessage("--harness-mac takes aa:bb:cc:dd:ee:ff, not 'zz'");
        assertThatThrownBy(() -> options("--iface", "lo", "--agent", "127.0.0.1:1", "--agent-timeout", "soon"))
            .hasMessageContaining("--agent-timeout takes a duration");
        assertThatThrownBy(() -> options("--iface", "lo", "--agent", "nowhere"))
            .isInstanceOf(AdapterSetupException.class).hasMessageContaining("HOST:PORT");
        final Path empty = Files.writeString(dir.resolve("token"), " \n");
        assertThatThrownBy(() -> options("--iface", "lo", "--agent", "127.0.0.1:1", "--token-file",
            empty.toString())).hasMessage("the token file " + empty + " is empty");
    }

    @Test
    void theTokenComesFromTheOptionThenTheFile(@TempDir final Path dir) throws Exception {
        final Path file = Files.writeString(dir.resolve("token"), "s3cret\n");
        assertThat(SocketAdapterProvider.token("given", file)).isEqualTo("given");
        assertThat(SocketAdapterProvider.token(null, file)).isEqualTo("s3cret");
        assertThatThrownBy(() -> SocketAdapterProvider.token(null, dir.resolve("absent")))
            .hasMessageContaining("cannot read the token file");
    }

    @Test
    void aDevicePortBelow49152IsWarnedOfBeforeTheRunNamingMrWire010() throws Exception {
        final List<String> out = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        for (final String udp : List.of("127.0.0.1:4791", "127.0.0.1:49151", "127.0.0.1:49152", "127.0.0.1:65535")) {
            final Map<String, String> given = new LinkedHashMap<>();
            given.put("--udp", udp);
            given.put("--agent", "127.0.0.1:4790");
            // configure opens nothing: the device is reached when the run opens the setup
            new SocketAdapterProvider().configure(new AdapterRequest(Specification.bundled(),
                new AdapterOptions(DECLARED, given), null, out::add, warnings::add));
        }
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0)).startsWith("warning: the device's UDP port 4791 is below 49152")
            .contains("udp.sport", "MR-WIRE-010", "0xC000-0xFFFF");
        assertThat(warnings.get(1)).startsWith("warning: the device's UDP port 49151 is below 49152");
        assertThat(out).isEmpty();
        assertThat(SocketAdapterProvider.sourcePortProblem(0)).isNull();
        assertThat(SocketAdapterProvider.sourcePortProblem(SocketAdapterProvider.LOWEST_SOURCE_PORT)).isNull();
        // an interface names no port: nothing to warn of
        final Map<String, String> iface = new LinkedHashMap<>();
        iface.put("--iface", "lo");
        iface.put("--agent", "127.0.0.1:4790");
        new SocketAdapterProvider().configure(new AdapterRequest(Specification.bundled(),
            new AdapterOptions(DECLARED, iface), null, out::add, warnings::add));
        assertThat(warnings).hasSize(2);
    }
}

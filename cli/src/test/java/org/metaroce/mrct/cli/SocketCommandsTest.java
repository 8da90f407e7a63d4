package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage of {@code mrct serve} and {@code mrct run --adapter socket}: every mistake is one clear line, status 2. */
class SocketCommandsTest {
    @Test
    void serveIsRegisteredAndDocumentsItsOptions() {
        final Mrct.Run help = Mrct.run("serve", "--help");
        assertThat(help.status()).isZero();
        assertThat(help.out()).contains("Usage: mrct serve", "--iface", "--udp", "--agent", "--token", "--fault",
            "--profile", "--capture-buffer", "--max-qps", "--max-io-bytes");
        assertThat(Mrct.run("--help").out()).contains("serve");
    }

    @Test
    void serveNeedsExactlyOneWire() {
        final Mrct.Run none = Mrct.run("serve");
        assertThat(none.status()).isEqualTo(2);
        assertThat(none.err()).contains("exactly one of --iface IF and --udp HOST:PORT");
        final Mrct.Run both = Mrct.run("serve", "--iface", "lo", "--udp", "127.0.0.1:50000");
        assertThat(both.status()).isEqualTo(2);
    }

    @Test
    void serveBeyondLoopbackNeedsAToken() {
        final Mrct.Run run = Mrct.run("serve", "--udp", "127.0.0.1:50000", "--agent", "0.0.0.0:0");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("beyond loopback").contains("--token");
    }

    @Test
    void serveRejectsBadValuesByName(@TempDir final Path dir) throws Exception {
        assertThat(Mrct.run("serve", "--udp", "127.0.0.1:50000", "--fault", "nonsense").err())
            .contains("unknown fault 'nonsense'");
        assertThat(Mrct.run("serve", "--udp", "127.0.0.1:50000", "--mac", "zz").err()).contains("--mac");
        assertThat(Mrct.run("serve", "--udp", "127.0.0.1:50000", "--max-io-bytes", "lots").err())
            .contains("--max-io-bytes takes a size");
        assertThat(Mrct.run("serve", "--udp", "nowhere", "--agent", "127.0.0.1:0").err()).contains("HOST:PORT");
        final Path empty = Files.writeString(dir.resolve("token"), "\n");
        assertThat(Mrct.run("serve", "--udp", "127.0.0.1:50000", "--token-file", empty.toString()).err())
            .contains("is empty");
    }

    @Test
    void serveWarnsOfAUdpPortBelowTheSourcePortsMrWire010Allows() {
        // the warning comes before the other checks, so a run that stops at a bad --fault shows it without serving
        final Mrct.Run low = Mrct.run("serve", "--udp", "127.0.0.1:4791", "--fault", "nonsense");
        assertThat(low.err()).contains("mrct serve: warning: UDP port 4791 is below 49152").contains("MR-WIRE-010");
        final Mrct.Run high = Mrct.run("serve", "--udp", "127.0.0.1:49152", "--fault", "nonsense");
        assertThat(high.err()).contains("nonsense").doesNotContain("warning");
    }

    @Test
    void serveOnAMissingInterfaceSaysSo() {
        final Mrct.Run run = Mrct.run("serve", "--iface", "mrct-no-such-if0");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("no network interface named 'mrct-no-such-if0'");
    }

    @Test
    void runWithTheSocketAdapterNeedsAWireAndAnAgent() {
        final Mrct.Run noWire = Mrct.run("run", "--adapter", "socket", "--agent", "127.0.0.1:1", "--quiet");
        assertThat(noWire.status()).isEqualTo(2);
        assertThat(noWire.err()).contains("--adapter socket needs exactly one of --iface IF and --udp HOST:PORT");
        final Mrct.Run noAgent = Mrct.run("run", "--adapter", "socket", "--iface", "lo", "--quiet");
        assertThat(noAgent.status()).isEqualTo(2);
        assertThat(noAgent.err()).contains("needs --agent HOST:PORT");
        final Mrct.Run fault = Mrct.run("run", "--adapter", "socket", "--iface", "lo", "--agent", "127.0.0.1:1",
            "--fault", "no-sack", "--quiet");
        assertThat(fault.err()).contains("--fault applies to the reference adapter only");
        final Mrct.Run tolerance = Mrct.run("run", "--adapter", "socket", "--udp", "127.0.0.1:1", "--agent",
            "127.0.0.1:1", "--tolerance", "soon", "--quiet");
        assertThat(tolerance.err()).contains("--tolerance takes a duration");
        assertThat(Mrct.run("run", "--adapter", "carrier-pigeon", "--quiet").err())
            .contains("unknown adapter 'carrier-pigeon' (available: reference, socket, replay)");
    }

    /** A refused agent ends the run with the reason; the timeout only guards against a hang (no speed judged). */
    @Test
    @org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
    void runAgainstNoAgentFailsWithTheReason(@TempDir final Path dir) {
        final Mrct.Run run = Mrct.run("run", "--adapter", "socket", "--udp", "127.0.0.1:1", "--agent",
            "127.0.0.1:1", "--generated", "0", "--report-dir", dir.toString(), "--quiet");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("mrct run: cannot open the device: cannot reach the agent")
            .contains("connection refused");
    }
}

package org.metaroce.mrct.socket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.AdapterOption;
import org.metaroce.mrct.spi.AdapterOptions;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterRequest;
import org.metaroce.mrct.spi.AdapterSetup;
import org.metaroce.mrct.spi.AdapterSetupException;
import org.metaroce.mrct.wire.MacAddress;

/**
 * {@code --adapter socket}: a device outside the JVM, its frames through a network interface ({@code --iface}) or
 * UDP datagrams ({@code --udp}), its control plane through its agent ({@code --agent}); real time.
 * {@code docs/real-devices.md} says how to use it.
 */
public final class SocketAdapterProvider implements AdapterProvider {
    private static final List<AdapterOption> OPTIONS = List.of(
        AdapterOption.of("--iface", "IF", "socket: the interface cabled to the device (raw frames through libpcap; "
            + "needs root or CAP_NET_RAW)"),
        AdapterOption.of("--udp", "HOST:PORT", "socket: instead of an interface, the device's UDP address (UDP mode: "
            + "BTH..ICRC in datagrams)"),
        AdapterOption.of("--agent", "HOST:PORT", "socket: the device's control agent"),
        AdapterOption.of("--token", "T", "socket: the agent's shared token (also --token-file, MRCT_AGENT_TOKEN)"),
        AdapterOption.of("--token-file", "FILE", "socket: read the agent's token from a file"),
        new AdapterOption("--capture-buffer", "SIZE", "socket: kernel capture buffer (default 256MiB; 2MiB lost "
            + "frames at full rate)", "256MiB"),
        AdapterOption.of("--harness-mac", "MAC", "socket: the harness's MAC in frames (default: the interface's)"),
        new AdapterOption("--harness-ipv4", "ADDR", "socket: the harness's IPv4 address in frames (default "
            + "198.51.100.1; --udp uses the socket's)", "198.51.100.1"),
        new AdapterOption("--harness-ipv6", "ADDR", "socket: the harness's IPv6 address in frames (default "
            + "2001:db8::1; 'none' for none)", "2001:db8::1"),
        new AdapterOption("--agent-timeout", "DURATION", "socket: how long one agent answer may take (default 10s)",
            "10s"));

    @Override
    public String name() {
        return "socket";
    }

    @Override
    public String description() {
        return "a device outside the JVM: --iface or --udp, and --agent";
    }

    @Override
    public int position() {
        return 10;
    }

    @Override
    public List<AdapterOption> options() {
        return OPTIONS;
    }

    @Override
    public Set<Trait> traits() {
        return EnumSet.of(Trait.REAL_TIME);
    }

    /**
     * The lowest udp.sport MR-WIRE-010 allows a device's data packets (0xC000). In UDP mode the port a device listens
     * on is the source port of every frame it sends.
     */
    public static final int LOWEST_SOURCE_PORT = 0xC000;

    /**
     * Why a device that listens on UDP port {@code port} breaks MR-WIRE-010 in every case in which it sends data (a
     * MetaRoCE device's data packets carry udp.sport 0xC000-0xFFFF), or null for a port of 49152 or more (and for 0,
     * which names no port). {@code mrct serve} and {@code mrct run --udp} both warn with it before anything runs: a run
     * over such a port fails a hundred and more cases on that one rule, and the cause is the command line, not the
     * device's code.
     */
    public static String sourcePortProblem(final int port) {
        if (port <= 0 || port >= LOWEST_SOURCE_PORT) {
            return null;
        }
        return "UDP port " + port + " is below " + LOWEST_SOURCE_PORT + ": in UDP mode it is the udp.sport of every "
            + "frame the device sends, and MR-WIRE-010 asks for 0xC000-0xFFFF, so every case in which the device "
            + "sends data fails that rule; give the device a port of " + LOWEST_SOURCE_PORT + " or more";
    }

    @Override
    public AdapterSetup configure(final AdapterRequest request) throws AdapterSetupException {
        final SocketOptions options = options(request.options());
        if (options.udpDevice() != null) {
            final String problem = sourcePortProblem(options.udpDevice().getPort());
            if (problem != null) {
                request.warnings().accept("warning: the device's " + problem);
            }
        }
        return new AdapterSetup() {
            @Override
            public Adapter open(final DeviceProfile profile) {
                return SocketAdapter.open(options);
            }
        };
    }

    /** The options of {@code --adapter socket}, checked. */
    static SocketOptions options(final AdapterOptions values) throws AdapterSetupException {
        final String iface = values.value("--iface");
        final String udp = values.value("--udp");
        final String agent = values.value("--agent");
        if ((iface == null) == (udp == null)) {
            throw new AdapterSetupException("--adapter socket needs exactly one of --iface IF and --udp HOST:PORT");
        }
        if (agent == null) {
            throw new AdapterSetupException("--adapter socket needs --agent HOST:PORT (the device's control agent)");
        }
        try {
            final InetSocketAddress agentAddress = SocketAdapter.hostPort(agent);
            final String secret = token(values.value("--token"), values.path("--token-file"));
            SocketOptions options = iface != null ? SocketOptions.iface(iface, agentAddress, secret)
                : SocketOptions.udp(SocketAdapter.hostPort(udp), agentAddress, secret);
            final long timeoutNs = values.duration("--agent-timeout");
            options = options.withAgentTimeout(Duration.ofNanos(Math.max(1_000_000, timeoutNs)), 5)
                .withCaptureBuffer((int) Math.min(Integer.MAX_VALUE, values.size("--capture-buffer")));
            final String harnessMac = values.value("--harness-mac");
            Long mac = null;
            if (harnessMac != null) {
                mac = MacAddress.parse(harnessMac);
                if (mac < 0) {
                    throw new AdapterSetupException("--harness-mac takes aa:bb:cc:dd:ee:ff, not '" + harnessMac + "'");
                }
            }
            if (iface != null) {
                final String ipv6 = values.value("--harness-ipv6");
                options = options.withHarness(mac, values.value("--harness-ipv4"), "none".equals(ipv6) ? null : ipv6);
            } else if (mac != null) {
                options = options.withHarness(mac, null, null);
            }
            return options;
        } catch (IllegalArgumentException e) {
            throw new AdapterSetupException(e.getMessage());
        }
    }

    /**
     * The agent's shared token: {@code option} when given, else the content of {@code file}, else the environment's
     * {@code MRCT_AGENT_TOKEN}, else null. Both ends of the agent protocol ({@code mrct run}, {@code mrct serve}) read
     * it so.
     *
     * @throws AdapterSetupException the file cannot be read or is empty
     */
    public static String token(final String option, final Path file) throws AdapterSetupException {
        if (option != null) {
            return option;
        }
        if (file != null) {
            try {
                final String text = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (text.isEmpty()) {
                    throw new AdapterSetupException("the token file " + file + " is empty");
                }
                return text;
            } catch (IOException e) {
                throw new AdapterSetupException("cannot read the token file " + file + ": " + e.getMessage());
            }
        }
        final String env = System.getenv("MRCT_AGENT_TOKEN");
        return env == null || env.isEmpty() ? null : env;
    }
}

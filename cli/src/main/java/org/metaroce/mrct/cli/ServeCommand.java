package org.metaroce.mrct.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.socket.SocketAdapter;
import org.metaroce.mrct.socket.SocketAdapterProvider;
import org.metaroce.mrct.socket.agent.AgentLimits;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.AdapterOptions;
import org.metaroce.mrct.spi.AdapterSetupException;
import org.metaroce.mrct.wire.MacAddress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mrct serve}: the reference NIC as a real remote device on a network interface (or a UDP address), in real
 * time, with the control agent in front of it, until SIGTERM or Ctrl-C. What {@code mrct run --adapter socket} tests
 * from the other end; also a working example of an agent for vendors (PROTOCOL.md).
 */
@Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Runs the reference NIC as a remote device on an interface, with its control agent.",
        "Stops cleanly on SIGTERM or Ctrl-C, also while warming up. Exit status: 0 stopped, 2 usage error or the "
            + "device could not start."})
final class ServeCommand implements Callable<Integer> {
    @ParentCommand
    private Main main;

    @Option(names = "--iface", paramLabel = "IF", description = "the network interface the device answers on "
        + "(raw frames through libpcap; needs root or CAP_NET_RAW)")
    private String iface;

    @Option(names = "--udp", paramLabel = "HOST:PORT", description = "instead of an interface: listen for UDP "
        + "datagrams carrying BTH..ICRC on this IPv4 address (the UDP mode); a port of 49152 or more keeps the "
        + "device's data packets within MR-WIRE-010")
    private String udp;

    @Option(names = "--agent", defaultValue = "127.0.0.1:4790", paramLabel = "HOST:PORT",
        description = "where the control agent listens (default 127.0.0.1:4790; beyond loopback a token is required)")
    private String agent;

    @Option(names = "--token", paramLabel = "T", description = "shared token the harness must give "
        + "(also MRCT_AGENT_TOKEN)")
    private String token;

    @Option(names = "--token-file", paramLabel = "FILE", description = "read the token from this file")
    private Path tokenFile;

    @Mixin
    private FaultOption faultOption = new FaultOption();

    @Mixin
    private ProfileOption profileOption = new ProfileOption();

    @Option(names = "--mac", paramLabel = "MAC", description = "the device's MAC (default: the interface's)")
    private String mac;

    @Option(names = "--ipv4", defaultValue = "198.51.100.2", paramLabel = "ADDR",
        description = "the device's IPv4 address in frames (default 198.51.100.2; --udp uses its own)")
    private String ipv4;

    @Option(names = "--ipv6", defaultValue = "2001:db8::2", paramLabel = "ADDR",
        description = "the device's IPv6 address in frames (default 2001:db8::2; 'none' for none)")
    private String ipv6;

    @Option(names = "--capture-buffer", defaultValue = "256MiB", paramLabel = "SIZE",
        description = "kernel capture buffer (default 256MiB)")
    private String captureBuffer;

    @Option(names = "--max-qps", defaultValue = "65536", paramLabel = "N", description = "QPs the agent lets exist "
        + "at once (default 65536)")
    private int maxQps;

    @Option(names = "--max-mr-bytes", defaultValue = "1GiB", paramLabel = "SIZE",
        description = "registered memory the agent allows (default 1GiB)")
    private String maxMrBytes;

    @Option(names = "--max-io-bytes", defaultValue = "16MiB", paramLabel = "SIZE",
        description = "bytes one memory read or write may move (default 16MiB)")
    private String maxIoBytes;

    @Option(names = "--max-clients", defaultValue = "4", paramLabel = "N",
        description = "agent connections served at once (default 4)")
    private int maxClients;

    @Option(names = "--warm-up", defaultValue = "2", paramLabel = "PASSES", description = "passes over the bundled "
        + "cases that compile the device's code before it answers, with progress (default 2, tens of seconds; 0 "
        + "starts cold, and the first frames of a run then meet an interpreted device)")
    private int warmUpPasses;

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        final ReferenceServer server;
        final AtomicReference<ReferenceServer> running = new AtomicReference<>();
        final Thread hook = new Thread(() -> {
            stop(running.get());
            // the status the help promises: a JVM ended by a signal would exit 128 + its number (143 for SIGTERM)
            Runtime.getRuntime().halt(ExitStatus.OK);
        }, "mrct-serve-stop");
        final String secret;
        try {
            if ((iface == null) == (udp == null)) {
                throw new RunCommand.UsageProblem("give exactly one of --iface IF and --udp HOST:PORT");
            }
            if (udp != null) {
                final String problem = SocketAdapterProvider.sourcePortProblem(SocketAdapter.hostPort(udp).getPort());
                if (problem != null) {
                    log("warning: " + problem);
                }
            }
            if (warmUpPasses < 0) {
                throw new RunCommand.UsageProblem("--warm-up takes 0 or more passes, not " + warmUpPasses);
            }
            final Set<Fault> faults = faults();
            final DeviceProfile profile = profileOption.load(spec);
            final InetSocketAddress listen = SocketAdapter.hostPort(agent);
            secret = SocketAdapterProvider.token(token, tokenFile);
            if (secret == null && !listen.getAddress().isLoopbackAddress()) {
                throw new RunCommand.UsageProblem("the agent would listen on " + agent + ", beyond loopback: give "
                    + "a shared token (--token, --token-file or MRCT_AGENT_TOKEN)");
            }
            final long deviceMac = mac == null ? -1 : MacAddress.parse(mac);
            if (mac != null && deviceMac < 0) {
                throw new RunCommand.UsageProblem("--mac takes aa:bb:cc:dd:ee:ff, not '" + mac + "'");
            }
            final AgentLimits limits = new AgentLimits(maxQps, AdapterOptions.parseSize("--max-mr-bytes",
                maxMrBytes), (int) Math.min(Integer.MAX_VALUE, AdapterOptions.parseSize("--max-io-bytes", maxIoBytes)),
                maxClients);
            final ReferenceServer.Wire wire = new ReferenceServer.Wire(iface, udp == null ? null
                : SocketAdapter.hostPort(udp), (int) Math.min(Integer.MAX_VALUE, AdapterOptions.parseSize(
                    "--capture-buffer", captureBuffer)));
            Runtime.getRuntime().addShutdownHook(hook); // from here a signal stops the warm-up too, with status 0
            server = ReferenceServer.start(wire, new ReferenceServer.Port(deviceMac, ipv4,
                "none".equals(ipv6) ? null : ipv6), profile, spec, faults, listen, secret, limits,
                line -> log(line), warmUpPasses);
        } catch (RunCommand.UsageProblem | ProfileLoader.ProfileException | IllegalArgumentException
                 | AdapterException | AdapterSetupException e) {
            unhook(hook);
            main.err().println("mrct serve: " + e.getMessage().replace('\n', ' '));
            return RunCommand.HARNESS_ERROR;
        } catch (IOException e) {
            unhook(hook);
            main.err().println("mrct serve: cannot listen on " + agent + ": " + e.getMessage());
            return RunCommand.HARNESS_ERROR;
        } catch (RuntimeException | Error e) {
            unhook(hook); // an unexpected failure keeps its own exit status
            throw e;
        }
        running.set(server);
        final ReferenceServer.Port port = server.port();
        log("reference NIC" + (faultOption.name == null ? "" : " with fault " + faultOption.name) + " on "
            + server.link().describe() + " (MAC " + MacAddress.format(port.mac()) + ", " + port.ipv4()
            + (port.ipv6() == null ? "" : ", " + port.ipv6()) + "); agent on "
            + server.agentAddress().getAddress().getHostAddress() + ":" + server.agentAddress().getPort()
            + (secret == null ? "" : " (token required)") + "; ready");
        try {
            new CountDownLatch(1).await(); // until a signal: the hook stops the server and ends the JVM
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unhook(hook);
            stop(server);
        }
        return ExitStatus.OK;
    }

    /** Stops the server (when it has started) and says what it did. */
    private void stop(final ReferenceServer server) {
        if (server == null) {
            log("stopped before the device was ready");
            return;
        }
        server.close();
        log("stopped: " + server.device().framesReceived() + " frame(s) received, "
            + server.device().framesTransmitted() + " sent"
            + (server.device().failures() == 0 ? "" : ", " + server.device().failures() + " failure(s), last: "
                + server.device().lastFailure()));
    }

    private static void unhook(final Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException | IllegalArgumentException e) {
            // shutting down already, or never added
        }
    }

    private void log(final String line) {
        synchronized (main.err()) {
            main.err().println("mrct serve: " + line);
            main.err().flush();
        }
    }

    private Set<Fault> faults() throws RunCommand.UsageProblem {
        if (faultOption.name == null) {
            return Set.of();
        }
        final Fault fault = Fault.byLabel(faultOption.name);
        if (fault == null) {
            throw new RunCommand.UsageProblem("unknown fault '" + faultOption.name + "' (mrct faults lists them)");
        }
        return Set.of(fault);
    }
}

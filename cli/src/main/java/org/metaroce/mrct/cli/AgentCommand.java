package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.metaroce.mrct.socket.SocketAdapter;
import org.metaroce.mrct.socket.agent.AgentClient;
import org.metaroce.mrct.socket.agent.AgentInfo;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.wire.MacAddress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code mrct agent}: tools for control agents (PROTOCOL.md). */
@Command(name = "agent", mixinStandardHelpOptions = true, subcommands = AgentCommand.Check.class,
    description = "Tools for a device's control agent (adapters/socket/PROTOCOL.md).")
final class AgentCommand implements Runnable {
    @ParentCommand
    Main main;

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand (check)");
    }

    /** {@code mrct agent check}: what an agent claims and what each operation does. */
    @Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Exercises every operation of the control-agent protocol against an agent, without frames, and "
            + "reports what the agent claims (hello) and what each operation does: ok, unsupported, rejected, error "
            + "or wrong answer.",
            "Exit status: 0 every operation the agent claims works, 1 one does not, 2 usage error or no agent."})
    static final class Check implements Callable<Integer> {
        @ParentCommand
        private AgentCommand parent;

        @Option(names = "--agent", required = true, paramLabel = "HOST:PORT", description = "the agent")
        private String agent;

        @Option(names = "--token", paramLabel = "T", description = "the agent's shared token (also --token-file, "
            + "MRCT_AGENT_TOKEN)")
        private String token;

        @Option(names = "--token-file", paramLabel = "FILE", description = "read the token from a file")
        private Path tokenFile;

        @Option(names = "--agent-timeout", defaultValue = "10s", paramLabel = "DURATION",
            description = "how long one answer may take (default 10s)")
        private String agentTimeout;

        @Option(names = "--peer-ipv4", defaultValue = "198.51.100.1", paramLabel = "ADDR",
            description = "dest_ip of the QP the check creates (default 198.51.100.1; the QP never sends)")
        private String peerIpv4;

        @Option(names = "--peer-mac", defaultValue = "02:00:00:00:00:01", paramLabel = "MAC",
            description = "dest_mac of that QP (default 02:00:00:00:00:01)")
        private String peerMac;

        @Override
        public Integer call() {
            final PrintStream out = parent.main.out();
            final PrintStream err = parent.main.err();
            final InetSocketAddress address;
            final String secret;
            final long timeoutNs;
            final long mac = MacAddress.parse(peerMac);
            try {
                address = SocketAdapter.hostPort(agent);
                secret = org.metaroce.mrct.socket.SocketAdapterProvider.token(token, tokenFile);
                timeoutNs = duration(agentTimeout);
            } catch (RunCommand.UsageProblem | org.metaroce.mrct.spi.AdapterSetupException e) {
                err.println("mrct agent check: " + e.getMessage());
                return RunCommand.HARNESS_ERROR;
            }
            if (mac < 0) {
                err.println("mrct agent check: --peer-mac takes aa:bb:cc:dd:ee:ff, not '" + peerMac + "'");
                return RunCommand.HARNESS_ERROR;
            }
            final AgentCheck.Report report;
            try (AgentClient client = new AgentClient(address, secret, Duration.ofNanos(Math.max(1_000_000,
                timeoutNs)), 3)) {
                report = AgentCheck.run(client, address, secret, new AgentCheck.Peer(peerIpv4, mac, 0x1234));
            }
            print(out, agent, report);
            if (report.info() == null) {
                return RunCommand.HARNESS_ERROR;
            }
            return report.passed() ? 0 : RunCommand.NON_CONFORMANT;
        }
    }

    /** The report as text: the agent's claims, one line per operation, and the conclusion. */
    static void print(final PrintStream out, final String where, final AgentCheck.Report report) {
        final AgentInfo info = report.info();
        out.println("agent " + where);
        if (info != null) {
            out.println("  identity:     " + info.identity().vendor() + " / " + info.identity().model() + " / firmware "
                + info.identity().firmware());
            out.println("  endpoints:    mac " + MacAddress.format(info.mac()) + ", ipv4 " + orNone(info.ipv4())
                + ", ipv6 " + orNone(info.ipv6()));
            out.println("  capabilities: " + (info.capabilities().isEmpty() ? "none" : info.capabilities().stream()
                .map(Capability::label).sorted().collect(Collectors.joining(", "))));
        }
        out.println();
        out.println(String.format(Locale.ROOT, "  %-16s %-8s %-13s %s", "operation", "claimed", "result", "detail"));
        for (final AgentCheck.Row row : report.rows()) {
            out.println(String.format(Locale.ROOT, "  %-16s %-8s %-13s %s", row.op(), row.claimed() ? "yes" : "no",
                row.outcome().text, row.detail() == null ? "" : row.detail()).stripTrailing());
        }
        out.println();
        final long failing = report.rows().stream().filter(AgentCheck.Row::fails).count();
        if (info == null) {
            out.println("no answer to hello: nothing else was tried");
        } else if (failing == 0) {
            out.println("every claimed operation works");
        } else {
            out.println(failing + " claimed operation(s) do not work");
        }
    }

    private static long duration(final String text) throws RunCommand.UsageProblem {
        try {
            return org.metaroce.mrct.harness.cases.Expr.parse(text).eval(n -> null);
        } catch (RuntimeException e) {
            throw new RunCommand.UsageProblem("--agent-timeout takes a duration such as 10s or 500ms, not '" + text
                + "'");
        }
    }

    private static String orNone(final String text) {
        return text == null ? "none" : text;
    }
}

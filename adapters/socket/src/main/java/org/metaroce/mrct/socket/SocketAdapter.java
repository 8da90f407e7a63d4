package org.metaroce.mrct.socket;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.metaroce.mrct.socket.agent.AgentClient;
import org.metaroce.mrct.socket.agent.AgentInfo;
import org.metaroce.mrct.socket.link.Link;
import org.metaroce.mrct.socket.link.PcapLink;
import org.metaroce.mrct.socket.link.UdpLink;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.ForwardingControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.DeviceIdentity;
import org.metaroce.mrct.spi.DeviceTimeline;
import org.metaroce.mrct.spi.Endpoints;

/**
 * A device outside the JVM: frames over a network interface (libpcap) or UDP datagrams, control through the device's
 * agent (PROTOCOL.md). Time is real: {@code now()} and frame timestamps are nanoseconds since the epoch, so the
 * adapter never claims {@link Capability#VIRTUAL_TIME}, and cases that need exact virtual timing are NOT_APPLICABLE.
 *
 * <p>Capabilities are those of the two paths together: the agent declares what the device's control plane can do
 * (memory read-back and write, counters, completions, requester control, scale); the data plane adds what the link
 * can do. A raw interface sends any bytes and sees every header (RAW_FRAMES, ECN_READ, ECN_WRITE, L2_CONTROL, and
 * IPv6 when both ends have an address); the UDP mode carries only UDP payloads over IPv4 and adds nothing.
 */
public final class SocketAdapter implements Adapter {
    /** Link-side capabilities of a raw interface. */
    static final Set<Capability> RAW_LINK = EnumSet.of(Capability.RAW_FRAMES, Capability.ECN_READ,
        Capability.ECN_WRITE, Capability.L2_CONTROL);
    /** What an agent may declare for the control plane. */
    static final Set<Capability> FROM_AGENT = EnumSet.of(Capability.MEMORY_READBACK, Capability.MEMORY_WRITE,
        Capability.COUNTERS, Capability.COMPLETIONS, Capability.REQUESTER_CONTROL, Capability.SCALE_QPS);
    /** The harness's address in frames when the options give none (documentation range, RFC 5737 / 3849). */
    public static final String DEFAULT_HARNESS_IPV4 = "198.51.100.1";
    public static final String DEFAULT_HARNESS_IPV6 = "2001:db8::1";
    /** The MACs of the UDP mode's frames, which no wire ever carries. */
    public static final long UDP_HARNESS_MAC = 0x02_00_00_00_00_0AL;

    private final LiveDataPlane data;
    private final AgentClient agent;
    private final AgentInfo info;
    private final Endpoints endpoints;
    private final Set<Capability> capabilities;
    private final ControlPlane control;
    private final String description;

    private SocketAdapter(final LiveDataPlane data, final AgentClient agent, final AgentInfo info,
                          final Endpoints endpoints, final Set<Capability> capabilities, final String description) {
        this.data = data;
        this.agent = agent;
        this.info = info;
        this.endpoints = endpoints;
        this.capabilities = Collections.unmodifiableSet(capabilities);
        this.control = new Control();
        this.description = description;
    }

    /**
     * Connects to the agent (hello, with the token), then opens the data path.
     *
     * @throws AdapterException when the agent or the link cannot be reached, with the reason
     */
    public static SocketAdapter open(final SocketOptions options) {
        if ((options.iface() == null) == (options.udpDevice() == null)) {
            throw new IllegalArgumentException("give either an interface or a UDP device address, not "
                + (options.iface() == null ? "neither" : "both"));
        }
        final AgentClient agent = new AgentClient(options.agent(), options.token(), options.agentTimeout(),
            options.connectAttempts());
        final AgentInfo info;
        try {
            info = agent.hello();
        } catch (RuntimeException e) {
            agent.close();
            throw e;
        }
        final LiveDataPlane data = new LiveDataPlane();
        final Set<Capability> capabilities;
        final Endpoints endpoints;
        final Link link;
        try {
            if (options.iface() != null) {
                final PcapLink pcap = PcapLink.open(options.iface(), PcapLink.Settings.harness(
                    options.captureBufferBytes()), data);
                link = pcap;
                final long harnessMac = options.harnessMac() != null ? options.harnessMac() : pcap.mac();
                endpoints = new Endpoints(info.mac(), info.ipv4(), info.ipv6(), harnessMac, options.harnessIpv4(),
                    options.harnessIpv6());
                capabilities = capabilities(info, true, options.harnessIpv6() != null);
            } else {
                final long harnessMac = options.harnessMac() != null ? options.harnessMac() : UDP_HARNESS_MAC;
                final UdpLink udp = UdpLink.connect(options.udpDevice(), options.udpBind(), harnessMac, info.mac(),
                    data);
                link = udp;
                endpoints = new Endpoints(info.mac(), options.udpDevice().getAddress().getHostAddress(), null,
                    harnessMac, udp.localAddress().getAddress().getHostAddress(), null);
                capabilities = capabilities(info, false, false);
            }
        } catch (RuntimeException e) {
            agent.close();
            throw e;
        }
        data.attach(link);
        return new SocketAdapter(data, agent, info, endpoints, capabilities, link.describe() + ", agent "
            + options.agent().getHostString() + ":" + options.agent().getPort());
    }

    /**
     * The adapter's capabilities: what the agent declares for the control plane, plus what the link can do ({@code raw}:
     * a network interface), plus IPv6 where the link is raw and both ends have an IPv6 address. Never VIRTUAL_TIME,
     * whatever the agent says.
     */
    static Set<Capability> capabilities(final AgentInfo info, final boolean raw, final boolean harnessIpv6) {
        final Set<Capability> out = EnumSet.noneOf(Capability.class);
        for (final Capability capability : info.capabilities()) {
            if (FROM_AGENT.contains(capability)) {
                out.add(capability);
            }
        }
        if (raw) {
            out.addAll(RAW_LINK);
            if (info.ipv6() != null && harnessIpv6) {
                out.add(Capability.IPV6);
            }
        }
        return out;
    }

    /** What the agent said in answer to hello. */
    public AgentInfo agentInfo() {
        return info;
    }

    /** The data path and the agent, for logs. */
    public String describe() {
        return description;
    }

    @Override
    public String name() {
        return "socket";
    }

    @Override
    public Set<Capability> capabilities() {
        return capabilities;
    }

    @Override
    public DeviceIdentity identity() {
        return info.identity();
    }

    @Override
    public Endpoints endpoints() {
        return endpoints;
    }

    @Override
    public DataPlane dataPlane() {
        return data;
    }

    @Override
    public ControlPlane controlPlane() {
        return control;
    }

    @Override
    public void beginCase(final String caseId) {
        final Link link = data.link();
        if (link.problem() != null) {
            // a bounded wait for an interface that went down to come back, so that one outage costs few cases
            final long until = System.nanoTime() + 5_000_000_000L;
            while (link.problem() != null && System.nanoTime() < until) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        data.beginCase();
    }

    @Override
    public String evidenceProblem() {
        return data.evidenceProblem();
    }

    /** What the device reports about its timeline in the case, where its agent offers that ({@code mrct serve}). */
    @Override
    public DeviceTimeline deviceTimeline() {
        return agent.offersDeviceTimeline() ? agent.deviceTimeline() : null;
    }

    @Override
    public void close() {
        try {
            data.link().close();
        } finally {
            agent.close();
        }
    }

    /** The agent's control plane; a reset also forgets the frames the device sent before it. */
    private final class Control extends ForwardingControlPlane {
        Control() {
            super(agent);
        }

        @Override
        public void reset() {
            agent.reset();
            // a frame the device sent before the reset may still wait in the kernel for the reader, which stamps it
            // when it reads it (UDP): everything read until the reader finds nothing more after the answer is old
            data.fence(data.now());
        }
    }

    /** Parses {@code HOST:PORT} ({@code [v6]:PORT} for IPv6 literals). */
    public static InetSocketAddress hostPort(final String text) {
        final int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not HOST:PORT");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        final int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not HOST:PORT (the port is not a number)");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("'" + text + "': port " + port + " is out of range");
        }
        final InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("'" + text + "': cannot resolve " + host);
        }
        return address;
    }

    /** Durations of the agent's answers: the default when none is given. */
    public static final Duration DEFAULT_AGENT_TIMEOUT = Duration.ofSeconds(10);
}

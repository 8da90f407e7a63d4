package org.metaroce.mrct.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.metaroce.mrct.spi.BetweenCases;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.RealTimeDevice;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.socket.SocketAdapter;
import org.metaroce.mrct.socket.agent.AgentInfo;
import org.metaroce.mrct.socket.agent.AgentLimits;
import org.metaroce.mrct.socket.agent.AgentServer;
import org.metaroce.mrct.socket.link.FrameReceiver;
import org.metaroce.mrct.socket.link.Link;
import org.metaroce.mrct.socket.link.PcapLink;
import org.metaroce.mrct.socket.link.UdpLink;
import org.metaroce.mrct.socket.link.WallClock;
import org.metaroce.mrct.spi.AdapterException;

/**
 * The reference NIC as a remote device: a {@link RealTimeDevice} on a link (a network interface or a UDP address) with
 * an {@link AgentServer} in front of it. {@code mrct serve} runs one until it is stopped; tests run one in process.
 */
final class ReferenceServer implements AutoCloseable {
    /** Where the device's frames go and come from. */
    record Wire(String iface, InetSocketAddress udp, int captureBufferBytes) {
    }

    /** The device's port addresses. */
    record Port(long mac, String ipv4, String ipv6) {
    }

    private final RealTimeDevice device;
    private final Link link;
    private final AgentServer agent;
    private final InetSocketAddress agentAddress;
    private final Port port;

    private ReferenceServer(final RealTimeDevice device, final Link link, final AgentServer agent,
                            final InetSocketAddress agentAddress, final Port port) {
        this.device = device;
        this.link = link;
        this.agent = agent;
        this.agentAddress = agentAddress;
        this.port = port;
    }

    /**
     * Opens the link, starts the device and the agent.
     *
     * @param port the device's addresses; a MAC of -1 means the interface's own (or 02:00:00:00:00:0d in UDP mode)
     */
    static ReferenceServer start(final Wire wire, final Port port, final DeviceProfile profile,
                                 final Specification spec, final Set<Fault> faults, final InetSocketAddress listen,
                                 final String token, final AgentLimits limits, final Consumer<String> log)
        throws IOException {
        return start(wire, port, profile, spec, faults, listen, token, limits, log, WARM_UP_PASSES);
    }

    /** Passes over the bundled cases that warm the device up before it answers, unless told otherwise. */
    static final int WARM_UP_PASSES = 2;

    /**
     * As {@link #start(Wire, Port, DeviceProfile, Specification, Set, InetSocketAddress, String, AgentLimits,
     * Consumer)}, warming the device up with {@code warmUpPasses} passes over the bundled cases (0: it starts cold),
     * whose progress goes to {@code log} every quarter.
     */
    static ReferenceServer start(final Wire wire, final Port port, final DeviceProfile profile,
                                 final Specification spec, final Set<Fault> faults, final InetSocketAddress listen,
                                 final String token, final AgentLimits limits, final Consumer<String> log,
                                 final int warmUpPasses)
        throws IOException {
        final AtomicReference<Link> linkRef = new AtomicReference<>();
        final AtomicReference<RealTimeDevice> deviceRef = new AtomicReference<>();
        final AtomicLong swept = new AtomicLong();
        final FrameReceiver receiver = new FrameReceiver() {
            private final RealTimeDevice.ReaderLooks looks = new RealTimeDevice.ReaderLooks();

            @Override
            public void frame(final byte[] bytes, final long timestampNanos) {
                final RealTimeDevice d = deviceRef.get();
                final long unseen = looked(d, timestampNanos);
                if (d != null) {
                    // how long the frame took from its capture to here counts in the device's own timeline, and
                    // where it was stamped when read, the reader's pause before (it may have waited in the kernel)
                    d.receive(bytes, WallClock.nanos() - timestampNanos + unseen);
                }
            }

            @Override
            public void idle(final long sweptAtNanos) {
                swept.set(sweptAtNanos);
                looked(deviceRef.get(), sweptAtNanos);
            }

            private long looked(final RealTimeDevice d, final long at) {
                final Link l = linkRef.get();
                return looks.looked(d, at, l != null && l.stampsWhenRead());
            }
        };
        final Link link;
        final Port actual;
        if (wire.iface() != null) {
            final PcapLink pcap = PcapLink.open(wire.iface(), PcapLink.Settings.device(wire.captureBufferBytes()),
                receiver);
            link = pcap;
            actual = new Port(port.mac() >= 0 ? port.mac() : pcap.mac(), port.ipv4(), port.ipv6());
        } else {
            final long mac = port.mac() >= 0 ? port.mac() : ReferenceAdapter.ENDPOINTS.deviceMac();
            link = UdpLink.serve(wire.udp(), mac, SocketAdapter.UDP_HARNESS_MAC, receiver);
            actual = new Port(mac, wire.udp().getAddress().getHostAddress(), null);
        }
        linkRef.set(link);
        warmUp(profile, spec, faults, warmUpPasses, log);
        final RealTimeDevice device = RealTimeDevice.fromProfile(profile, spec, faults, actual.mac(), actual.ipv4(),
            actual.ipv6(), frame -> {
                try {
                    linkRef.get().send(frame);
                } catch (AdapterException e) {
                    log.accept("cannot transmit a frame of " + frame.length + " bytes: " + e.getMessage());
                }
            });
        device.countCaptureDrops(link::dropped);
        // at each reset, once the old generation is large (what the warm-up's and QP-011's QPs leave), one full
        // collection, and then a look by the reader that it stopped, so that its pause counts before the next case
        device.betweenCases(BetweenCases.forThisJvm(true), () -> awaitSweep(swept, WallClock.nanos(), link));
        deviceRef.set(device);
        device.start();
        final AgentServer agent = new AgentServer(device.controlPlane(), new AgentInfo(AgentServer.VERSION,
            RealTimeDevice.identity(), actual.mac(), actual.ipv4(), actual.ipv6(), RealTimeDevice.capabilities()),
            limits, token, log).withBarrier(arrival -> awaitSweep(swept, arrival, link))
            .withDeviceTimeline(device::deviceTimeline);
        final InetSocketAddress bound;
        try {
            bound = agent.start(listen);
        } catch (IOException | RuntimeException e) {
            device.close();
            link.close();
            throw e;
        }
        return new ReferenceServer(device, link, agent, bound, actual);
    }

    /**
     * Waits until the link has looked for frames after {@code arrival} (a second at most), so that every frame captured
     * before a control request reaches the device's queue before the request does: a request never overtakes the
     * frames the harness sent before it (a case that writes and then reads memory back at once), and a reset is never
     * overtaken by the frames of the case before, which the device would otherwise take as the new case's (same QPNs,
     * same PSNs). The bound is a second: 50 ms, as before, ran out whenever the JVM stopped for a collection of that
     * length while the agent's thread waited (a collection stops the reader too), and it went on unfenced.
     */
    private static void awaitSweep(final AtomicLong swept, final long arrival, final Link link) {
        final long until = System.nanoTime() + 1_000_000_000L;
        while (swept.get() <= arrival && System.nanoTime() < until) {
            link.lookNow();
            java.util.concurrent.locks.LockSupport.parkNanos(20_000);
        }
    }

    /**
     * Runs the bundled cases {@code passes} times in process so that the device's code is compiled before the first
     * frame; says so on {@code log}, with the share done every quarter (it takes tens of seconds).
     */
    private static void warmUp(final DeviceProfile profile, final Specification spec, final Set<Fault> faults,
                               final int passes, final Consumer<String> log) {
        if (passes <= 0) {
            return;
        }
        try {
            final var plan = org.metaroce.mrct.harness.engine.Runner.plan(
                new org.metaroce.mrct.harness.cases.CaseLoader(spec).loadBundled());
            final int total = plan.size() * passes;
            log.accept("warming the device up before it answers: " + passes + " pass(es) over the " + plan.size()
                + " bundled cases (--warm-up 0 starts cold)");
            final int[] shown = {0};
            WarmUp.run(plan, spec, profile, faults, passes, done -> {
                final int quarter = (int) (4L * done / total);
                if (quarter > shown[0] && quarter < 4) {
                    shown[0] = quarter;
                    log.accept("warming up: " + 25 * quarter + "% (" + done + " of " + total + " case runs)");
                }
            });
        } catch (org.metaroce.mrct.harness.cases.CaseLoadException e) {
            log.accept("no bundled cases to warm up with: the device starts cold");
        }
    }

    /** The address the agent listens on. */
    InetSocketAddress agentAddress() {
        return agentAddress;
    }

    /** The device's addresses. */
    Port port() {
        return port;
    }

    /** The link, for its description and counters. */
    Link link() {
        return link;
    }

    /** The device, for its counters. */
    RealTimeDevice device() {
        return device;
    }

    @Override
    public void close() {
        agent.close();
        device.close();
        link.close();
    }

    /** The DUT profile at {@code path}, or the reference NIC's own. */
    static DeviceProfile profile(final Path path, final Specification spec)
        throws ProfileLoader.ProfileException, RunCommand.UsageProblem {
        final ProfileOption option = new ProfileOption();
        option.path = path;
        return option.load(spec);
    }
}

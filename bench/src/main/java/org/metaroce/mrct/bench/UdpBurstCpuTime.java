package org.metaroce.mrct.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.RealTimeDevice;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.reference.ReferencePeer;
import org.metaroce.mrct.socket.SocketAdapter;
import org.metaroce.mrct.socket.SocketOptions;
import org.metaroce.mrct.socket.agent.AgentInfo;
import org.metaroce.mrct.socket.agent.AgentLimits;
import org.metaroce.mrct.socket.agent.AgentServer;
import org.metaroce.mrct.socket.link.FrameReceiver;
import org.metaroce.mrct.socket.link.UdpLink;
import org.metaroce.mrct.socket.link.WallClock;

/**
 * {@code java -cp benchmarks.jar org.metaroce.mrct.bench.UdpBurstCpuTime [ROUNDS] [CASE...]}: what the harness's
 * threads cost per frame of a case run over the UDP mode on loopback, by CPU time rather than the wall clock (the
 * machine is shared; CPU time barely moves with the load). One JVM holds both ends: the reference NIC in real time on a
 * {@link UdpLink} with its agent (what {@code mrct serve --udp} runs, with its device timeline since 2026-12-03, without its warm-up), and the
 * socket adapter with a {@link Runner} at the run's default timing (20 ms expectation timeout, 1 ms tolerance).
 *
 * <p>Run from the repository's root (the cases are read from {@code spec-cases}, or {@code -Dmrct.cases=DIR}). The
 * cases (default: RTX-001-first-and-last-lost, where the harness plays network and peer for a 48-packet burst, and
 * ACK-002-sack-bitmap-edges, 64 request/ACK round trips) run 20 times to warm up, then ROUNDS times (default 10). Printed:
 * <ul>
 * <li>in process, on virtual time: the engine's CPU time per frame of the case's evidence (no waiting, no sockets:
 * what recording, judging and the peer cost per frame);</li>
 * <li>over UDP: per attempt, the CPU time of the harness's main thread and of its UDP reader, and the wall time (the
 * CPU includes the case's control-plane calls and what the threads burn while windows are open);</li>
 * <li>the CPU both threads burn per millisecond of waiting for a frame that does not come, and how long after a
 * deadline the data plane knows that nothing came by it (wall time: the median of 200).</li>
 * </ul>
 * The "per frame" figure is the case's whole CPU divided by its frames: it includes the case's setup (a 128-packet
 * region's fill and its write to the device) and, on virtual time, the reference device itself; with 10 rounds the JIT
 * is not done compiling. {@code -Dmrct.bench.udp=false} stops after the in-process figure; {@code
 * -Dmrct.bench.ports=LOW-HIGH} is the range of the device's UDP port (default 49152-65151); {@code
 * -Dmrct.bench.warmup=N} runs each case N times before measuring (default 20; 0 shows the first runs, cold);
 * {@code -Dmrct.bench.verdicts=true} prints the verdict and attempts of every measured run over UDP, in order (with a
 * FAIL's reason), {@code -Dmrct.bench.failures=true} a FAIL's notes and evidence frame by frame; {@code
 * -Dmrct.bench.device=UDP_HOST:PORT,AGENT_HOST:PORT} runs against a device served elsewhere
 * ({@code mrct serve --udp ... --agent ... --token bench}) instead of one in this JVM; {@code
 * -Dmrct.bench.warmcases=ID,...} warms up over UDP with those cases instead of the measured ones.
 */
public final class UdpBurstCpuTime {
    /** Runs of each case before the measured ones ({@code -Dmrct.bench.warmup=N}, default 20). */
    private static final int WARM_UP_RUNS = Integer.getInteger("mrct.bench.warmup", 20);
    private static final String TOKEN = "bench";

    private UdpBurstCpuTime() {
    }

    /**
     * A FAIL's notes and evidence, one line per frame ({@code -Dmrct.bench.failures=true}): direction, time since the
     * case's start, step, note, and the BTH and AETH/SACK fields as the evidence describes them.
     */
    private static void printFailure(final CaseResult result) {
        System.out.println("  FAIL " + result.id() + " after " + result.attempts() + " attempt(s): " + result.reason());
        result.notes().forEach(n -> System.out.println("    note: " + n));
        for (final org.metaroce.mrct.harness.result.FrameRecord f : result.evidence()) {
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "    #%d %s %.3f us step %d",
                f.index(), f.direction(), f.timestampNanos() / 1e3, f.step()));
            for (final String key : List.of("bth", "aeth", "sacketh")) {
                final Object value = f.decoded().get(key);
                if (value != null) {
                    line.append(' ').append(key).append('=').append(value);
                }
            }
            if (f.note() != null) {
                line.append(" (").append(f.note()).append(')');
            }
            System.out.println(line);
        }
    }

    /** Entry point. */
    public static void main(final String[] args) throws Exception {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        final List<String> ids = args.length > 1 ? List.of(args).subList(1, args.length)
            : List.of("RTX-001-first-and-last-lost", "ACK-002-sack-bitmap-edges");
        final Specification spec = Specification.bundled();
        final DeviceProfile profile = DeviceProfile.of("bench", List.of());
        final List<Runner.Planned> plan = new ArrayList<>();
        // -Dmrct.bench.warmcases=ID,...: the cases that warm up over UDP instead of the measured ones
        final List<String> warmIds = System.getProperty("mrct.bench.warmcases") == null ? ids
            : List.of(System.getProperty("mrct.bench.warmcases").split(","));
        final List<Runner.Planned> warmPlan = new ArrayList<>();
        for (final Runner.Planned planned : Runner.plan(new CaseLoader(spec).load(List.of(java.nio.file.Path.of(
            System.getProperty("mrct.cases", "spec-cases")))))) {
            if (ids.contains(planned.id())) {
                plan.add(planned);
            }
            if (warmIds.contains(planned.id())) {
                warmPlan.add(planned);
            }
        }
        if (plan.size() != ids.size()) {
            throw new IllegalArgumentException("not every case was found among the bundled cases: " + ids);
        }
        final double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (ReferenceAdapter reference = ReferenceAdapter.fromProfile(profile, spec, Set.of())) {
            final Runner runner = new Runner(new RunContext(reference, spec, profile, 1, false, 2_000_000, 0, 0,
                ReferencePeer.FACTORY), List.of(), Clock.systemUTC());
            for (final Runner.Planned planned : plan) {
                for (int i = 0; i < WARM_UP_RUNS; i++) {
                    runner.runOne(planned);
                }
                final long[] main = new long[rounds];
                int frames = 0;
                for (int round = 0; round < rounds; round++) {
                    final long cpu0 = threads.getCurrentThreadCpuTime();
                    frames = runner.runOne(planned).evidence().size();
                    main[round] = threads.getCurrentThreadCpuTime() - cpu0;
                }
                System.out.printf(Locale.ROOT, "in process (virtual time) %s: %d frames; %.1f us/frame (engine CPU,"
                    + " median of %d runs)%n", planned.id(), frames, median(main) / 1000.0 / frames, rounds);
            }
        }
        if (!Boolean.parseBoolean(System.getProperty("mrct.bench.udp", "true"))) {
            System.out.printf(Locale.ROOT, "load average %.1f then %.1f; %s%n", loadBefore,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                System.getProperty("java.vm.version"));
            return;
        }
        // -Dmrct.bench.device=UDP_HOST:PORT,AGENT_HOST:PORT: a device served elsewhere (mrct serve --token bench), so
        // that only the harness's code is in this JVM
        final String external = System.getProperty("mrct.bench.device");
        try (Served device = external == null ? Served.start(profile, spec) : null;
             SocketAdapter adapter = SocketAdapter.open(external == null
                 ? SocketOptions.udp(device.link.localAddress(), device.agentAddress, TOKEN)
                 : SocketOptions.udp(address(external.split(",")[0]), address(external.split(",")[1]), TOKEN))) {
            final Runner runner = new Runner(new RunContext(adapter, spec, profile, 1, false, 20_000_000, 1_000_000,
                20, ReferencePeer.FACTORY), List.of(), Clock.systemUTC());
            final long readerId = readerThread(threads, device == null ? -1 : device.link.localAddress().getPort());
            for (final Runner.Planned planned : warmPlan) {
                for (int i = 0; i < WARM_UP_RUNS; i++) {
                    runner.runOne(planned);
                }
            }
            for (final Runner.Planned planned : plan) {
                final long[] main = new long[rounds];
                final long[] read = new long[rounds];
                final long[] wall = new long[rounds];
                int frames = 0;
                int passed = 0;
                int attempts = 0;
                String notPassed = null;
                final List<String> verdicts = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    final long cpu0 = threads.getCurrentThreadCpuTime();
                    final long read0 = threads.getThreadCpuTime(readerId);
                    final long wall0 = System.nanoTime();
                    final CaseResult result = runner.runOne(planned);
                    verdicts.add(result.verdict() + "/" + result.attempts() + (result.verdict() == Verdict.FAIL
                        ? " (" + result.reason() + ")" : ""));
                    if (result.verdict() == Verdict.FAIL && Boolean.getBoolean("mrct.bench.failures")) {
                        printFailure(result);
                    }
                    wall[round] = (System.nanoTime() - wall0) / result.attempts();
                    main[round] = (threads.getCurrentThreadCpuTime() - cpu0) / result.attempts();
                    read[round] = (threads.getThreadCpuTime(readerId) - read0) / result.attempts();
                    frames = Math.max(frames, result.evidence().size());
                    passed += result.verdict() == Verdict.PASS ? 1 : 0;
                    notPassed = result.verdict() == Verdict.PASS ? notPassed : result.reason();
                    attempts += result.attempts();
                }
                System.out.printf(Locale.ROOT, "over UDP %s: up to %d frames; per attempt (medians of %d runs, %d"
                        + " attempts): main thread %.2f ms CPU, UDP reader %.2f ms CPU, %.2f ms wall; %d of %d"
                        + " passed%n", planned.id(), frames, rounds, attempts, median(main) / 1e6,
                    median(read) / 1e6, median(wall) / 1e6, passed, rounds);
                if (notPassed != null) {
                    System.out.println("  the last that did not pass: " + notPassed);
                }
                if (Boolean.getBoolean("mrct.bench.verdicts")) {
                    System.out.println("  verdicts in order: " + verdicts);
                }
            }
            // waiting with nothing to come: what the harness's threads burn per millisecond of an expectation's window
            final long waitNanos = 200_000_000;
            final long cpu0 = threads.getCurrentThreadCpuTime();
            final long read0 = threads.getThreadCpuTime(readerId);
            final var data = adapter.dataPlane();
            if (data.poll(data.now() + waitNanos) != null) {
                System.out.println("(a frame came while waiting: the idle figure below is not clean)");
            }
            System.out.printf(Locale.ROOT, "waiting 200 ms for nothing: main thread %.1f us CPU per ms, UDP reader"
                + " %.1f us CPU per ms%n", (threads.getCurrentThreadCpuTime() - cpu0) / 1e3 / 200,
                (threads.getThreadCpuTime(readerId) - read0) / 1e3 / 200);
            // how long after a deadline "nothing came" is known: the engine waits for that at every network step
            final long[] overshoot = new long[200];
            for (int i = 0; i < overshoot.length; i++) {
                final long deadline = data.now() + 100_000;
                data.poll(deadline);
                overshoot[i] = data.now() - deadline;
            }
            System.out.printf(Locale.ROOT, "\"nothing came\" known after a deadline (100 us ahead, 200 times): median"
                + " %.1f us later (wall)%n", median(overshoot) / 1e3);
        }
        System.out.printf(Locale.ROOT, "load average %.1f then %.1f; %s%n", loadBefore,
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), System.getProperty("java.vm.version"));
    }

    private static InetSocketAddress address(final String hostPort) {
        final int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /** The harness's UDP reader: the thread named after a local port that is not the device's. */
    private static long readerThread(final ThreadMXBean threads, final int devicePort) {
        for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("mrct-udp-")
                && !info.getThreadName().equals("mrct-udp-" + devicePort)) {
                return info.getThreadId();
            }
        }
        throw new IllegalStateException("no harness UDP reader thread");
    }

    private static double median(final long[] values) {
        final long[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** The reference NIC in real time behind a UDP link and an agent, on loopback. */
    private static final class Served implements AutoCloseable {
        final UdpLink link;
        final RealTimeDevice device;
        final AgentServer agent;
        final InetSocketAddress agentAddress;

        private Served(final UdpLink link, final RealTimeDevice device, final AgentServer agent,
                       final InetSocketAddress agentAddress) {
            this.link = link;
            this.device = device;
            this.agent = agent;
            this.agentAddress = agentAddress;
        }

        static Served start(final DeviceProfile profile, final Specification spec) throws IOException {
            final AtomicReference<RealTimeDevice> deviceRef = new AtomicReference<>();
            final AtomicLong swept = new AtomicLong();
            // as mrct serve's device (cli's ReferenceServer): the UDP reader stamps frames when it reads them, so its
            // pauses between looks count in the device's own timeline with each frame's wait, which the agent reports;
            // without it a failure while the device was late would be a FAIL here and INCONCLUSIVE in a real run
            final UdpLink link = UdpLink.serve(highPort(), ReferenceAdapter.ENDPOINTS.deviceMac(),
                SocketAdapter.UDP_HARNESS_MAC, new FrameReceiver() {
                    private final RealTimeDevice.ReaderLooks looks = new RealTimeDevice.ReaderLooks();

                    @Override
                    public void frame(final byte[] bytes, final long timestampNanos) {
                        final RealTimeDevice d = deviceRef.get();
                        final long unseen = looks.looked(d, timestampNanos, true);
                        if (d != null) {
                            d.receive(bytes, WallClock.nanos() - timestampNanos + unseen);
                        }
                    }

                    @Override
                    public void idle(final long sweptAtNanos) {
                        swept.set(sweptAtNanos);
                        looks.looked(deviceRef.get(), sweptAtNanos, true);
                    }
                });
            final RealTimeDevice device = RealTimeDevice.fromProfile(profile, spec, Set.of(),
                ReferenceAdapter.ENDPOINTS.deviceMac(), link.localAddress().getAddress().getHostAddress(), null,
                link::send);
            deviceRef.set(device);
            device.start();
            final AgentServer agent = new AgentServer(device.controlPlane(), new AgentInfo(AgentServer.VERSION,
                RealTimeDevice.identity(), ReferenceAdapter.ENDPOINTS.deviceMac(),
                link.localAddress().getAddress().getHostAddress(), null, RealTimeDevice.capabilities()),
                AgentLimits.DEFAULTS, TOKEN, line -> { })
                .withDeviceTimeline(device::deviceTimeline)
                // a control request never overtakes the frames sent before it (as mrct serve's barrier)
                .withBarrier(arrival -> {
                    final long until = System.nanoTime() + 1_000_000_000L;
                    while (swept.get() <= arrival && System.nanoTime() < until) {
                        link.lookNow();
                        java.util.concurrent.locks.LockSupport.parkNanos(20_000);
                    }
                });
            final InetSocketAddress bound = agent.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new Served(link, device, agent, bound);
        }

        private static InetSocketAddress highPort() throws IOException {
            final String[] range = System.getProperty("mrct.bench.ports", "49152-65151").split("-");
            final int low = Integer.parseInt(range[0]);
            final int span = Integer.parseInt(range[1]) - low + 1;
            for (int attempt = 0; attempt < 50; attempt++) {
                final int port = low + java.util.concurrent.ThreadLocalRandom.current().nextInt(span);
                try (DatagramChannel probe = DatagramChannel.open()) {
                    probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
                } catch (IOException busy) {
                    // another
                }
            }
            throw new IOException("no free UDP port in " + low + "-" + (low + span - 1) + " on loopback");
        }

        @Override
        public void close() {
            agent.close();
            device.close();
            link.close();
        }
    }
}

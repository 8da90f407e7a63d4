package org.metaroce.mrct.reference;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.metaroce.mrct.spi.BetweenCases;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.internal.Device;
import org.metaroce.mrct.reference.internal.DeviceConfig;
import org.metaroce.mrct.reference.internal.OwnTimeline;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DeviceIdentity;
import org.metaroce.mrct.spi.DeviceTimeline;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.SendWqe;

/**
 * The reference NIC driven in real time, as a device on a wire (what {@code mrct serve} runs). One thread owns the
 * {@link Device}, which is single-threaded: it keeps the device's clock on the wall clock, feeds it the frames handed
 * to {@link #receive}, runs its timers as they fall due, hands every frame it emits to the transmitter, and executes
 * the control-plane calls of {@link #controlPlane()} (from any thread; they queue up behind the frames that arrived
 * before them, and the caller waits for the answer).
 *
 * <p>The device's clock is the JVM's monotonic clock, offset to read nanoseconds since the epoch. The same device in
 * {@link ReferenceAdapter} runs on virtual time instead; its behaviour is the same, only its timing is real here.
 */
public final class RealTimeDevice implements AutoCloseable {
    /** Frames below this wait are waited for by spinning: parking overshoots by tens of microseconds. */
    private static final long SPIN_NANOS = 20_000;
    /** The longest the thread sleeps without looking at the clock. */
    private static final long MAX_SLEEP_NANOS = 1_000_000;

    private final Device device;
    private final Consumer<byte[]> transmitter;
    private final LinkedBlockingQueue<Task> tasks = new LinkedBlockingQueue<>();
    /**
     * When the device's earliest scheduled work falls due (epoch nanoseconds; Long.MAX_VALUE: none), and the lag it
     * inherited, as the device thread last published them (before it answers a control call, and before it waits):
     * read by {@link #timeline()} on another thread, which so sees work left undone while the device thread was not
     * running (lateness measured only once the work ran would be missed by a question asked meanwhile).
     */
    private volatile long dueAt = Long.MAX_VALUE;
    private volatile long dueLag;

    /** Work for the device thread: a received frame (captured {@code lateNanos} before {@code handed}) or a call. */
    private record Task(Runnable work, long handed, long lateNanos, boolean frame) {
    }
    private final long epochOffset = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
    private final Thread thread;
    private final AtomicLong received = new AtomicLong();
    private final AtomicLong transmitted = new AtomicLong();
    private final ControlPlane control = new Control();
    private volatile boolean running = true;
    private volatile Throwable crash;
    private final AtomicLong failures = new AtomicLong();
    private volatile String lastFailure;
    private final OwnTimeline timeline = new OwnTimeline();
    private volatile LongSupplier captureDrops = () -> 0;
    private long captureDropsAtReset;
    /** What collects the JVM's garbage at a reset (none unless {@link #betweenCases} says), and what follows it. */
    private volatile BetweenCases between = new BetweenCases(false, () -> 0, () -> { });
    private volatile Runnable afterCollection = () -> { };

    /**
     * A reference NIC with these parameters, PICS claims, faults and port addresses.
     *
     * @param transmitter called on the device thread with every frame the device sends
     */
    public RealTimeDevice(final Map<String, Object> parameters, final Set<String> pics, final Set<Fault> faults,
                          final long mac, final String ipv4, final String ipv6, final Consumer<byte[]> transmitter) {
        this.device = new Device(new DeviceConfig(mac, DeviceConfig.address(ipv4),
            ipv6 == null ? new byte[16] : DeviceConfig.address(ipv6), pics, parameters, faults));
        this.transmitter = transmitter;
        this.thread = new Thread(this::run, "mrct-reference-device");
        this.thread.setDaemon(true);
    }

    /** A reference NIC configured from a DUT profile (parameters over the specification's defaults). */
    public static RealTimeDevice fromProfile(final DeviceProfile profile, final Specification spec,
                                             final Set<Fault> faults, final long mac, final String ipv4,
                                             final String ipv6, final Consumer<byte[]> transmitter) {
        return new RealTimeDevice(profile.effectiveParameters(spec), profile.pics(), faults, mac, ipv4, ipv6,
            transmitter);
    }

    /** Starts the device thread. */
    public RealTimeDevice start() {
        thread.start();
        return this;
    }

    /**
     * What the reference NIC's control plane offers as a remote device: all it offers in process (virtual time aside;
     * what the wire can do is the link's to say).
     */
    public static Set<Capability> capabilities() {
        return EnumSet.of(Capability.MEMORY_READBACK, Capability.MEMORY_WRITE, Capability.COUNTERS,
            Capability.COMPLETIONS, Capability.REQUESTER_CONTROL, Capability.SCALE_QPS);
    }

    /** The reference NIC's identity. */
    public static DeviceIdentity identity() {
        return new DeviceIdentity("MetaRoCE project", "mrct reference NIC (real time)", "1.0");
    }

    /** The device's clock: nanoseconds since the epoch, monotonic. */
    public long now() {
        return epochOffset + System.nanoTime();
    }

    /** Hands a frame from the wire to the device (any thread), as if it had just been captured. */
    public void receive(final byte[] frame) {
        receive(frame, 0);
    }

    /**
     * Hands a frame from the wire to the device (any thread) that was captured {@code lateNanos} ago: the time the
     * link's reader took to deliver it counts, with the time it waits here, in the device's {@link #timeline()}.
     */
    public void receive(final byte[] frame, final long lateNanos) {
        received.incrementAndGet();
        final long handed = System.nanoTime();
        final long late = Math.max(0, lateNanos);
        tasks.add(new Task(() -> {
            final long began = System.nanoTime();
            final long waited = late + began - handed;
            timeline.late(waited, OwnTimeline.Kind.FRAME);
            // what the frame makes the device do counts from now: it is as late as the frame waited
            device.scheduler().context(waited);
            try {
                device.receive(frame);
            } catch (RuntimeException e) {
                failure(e);
            }
            // a frame takes microseconds; longer, the thread lost its CPU meanwhile and its answer left late
            final long processing = System.nanoTime() - began;
            timeline.late(processing, OwnTimeline.Kind.PROCESSING);
            transmit(waited + processing, System.nanoTime(), false);
        }, handed, late, true));
    }

    /**
     * The link's reader did not look for frames for {@code nanos}: for a link that stamps frames when it reads them (a
     * UDP socket), a frame may have waited that long unseen, so the pause counts in the device's {@link #timeline()}.
     */
    public void readerPaused(final long nanos) {
        timeline.late(nanos, OwnTimeline.Kind.READER);
    }

    /**
     * The looks for frames of a link's reader, on that reader's thread: where the link stamps frames when its reader
     * takes them (a UDP socket, {@code Link.stampsWhenRead}), the pause since the reader's previous look bounds how long
     * a frame may have waited unseen, so it counts in the device's timeline ({@link #readerPaused}). One per link, made
     * before the device (the reader looks before there is one).
     */
    public static final class ReaderLooks {
        /** The reader's last look (on the reader thread only); 0 before the first. */
        private long lastLook;

        /**
         * The reader looked at {@code at} (its link's clock), for {@code device} (null while there is none yet);
         * returns the pause since its previous look that counted in the device's timeline, 0 when none did.
         */
        public long looked(final RealTimeDevice device, final long at, final boolean stampsWhenRead) {
            long pause = 0;
            if (device != null && stampsWhenRead && lastLook != 0) {
                pause = Math.max(0, at - lastLook);
                device.readerPaused(pause);
            }
            lastLook = at;
            return pause;
        }
    }

    private void failure(final RuntimeException e) {
        failures.incrementAndGet();
        lastFailure = e.toString();
    }

    /** Frames the device failed to process or transmit (each a bug or a link failure); the device goes on. */
    public long failures() {
        return failures.get();
    }

    /** The last such failure, or null. */
    public String lastFailure() {
        return lastFailure;
    }

    /** Frames received so far. */
    public long framesReceived() {
        return received.get();
    }

    /** Frames transmitted so far. */
    public long framesTransmitted() {
        return transmitted.get();
    }

    /**
     * How far the device fell behind its own timeline since the last reset: the worst lateness and what it was, how
     * often it was {@value OwnTimeline#EVENT_FLOOR_NANOS} ns late or more, and the frames the link's capture dropped
     * (see {@link #countCaptureDrops}). A device on a loaded host is late for reasons that say nothing about the
     * protocol; {@code mrct serve} reports this to the harness, which then runs a failed case again.
     */
    public record Timeline(long worstLateNanos, String worst, long lateEvents, long captureDrops) {
    }

    /**
     * {@link #timeline()} as the adapter SPI reports it: what {@code mrct serve}'s agent answers {@code deviceTimeline}
     * with.
     */
    public DeviceTimeline deviceTimeline() {
        final Timeline t = timeline();
        return new DeviceTimeline(t.worstLateNanos(), t.worst(), t.lateEvents(), t.captureDrops());
    }

    /** What {@link Timeline} says now, for the time since the last reset (any thread). */
    public Timeline timeline() {
        final long behind = behind(System.nanoTime(), now());
        final OwnTimeline.Snapshot snapshot = timeline.snapshot();
        final long drops;
        synchronized (timeline) {
            drops = captureDrops.getAsLong() - captureDropsAtReset;
        }
        final boolean stalled = behind > snapshot.worstNanos();
        return new Timeline(stalled ? behind : snapshot.worstNanos(), stalled ? OwnTimeline.Kind.BEHIND.text()
            : snapshot.worst() == null ? "" : snapshot.worst().text(),
            snapshot.events() + (behind >= OwnTimeline.EVENT_FLOOR_NANOS ? 1 : 0), Math.max(0, drops));
    }

    /**
     * How far behind the device is right now with work it has not done (0 when none is overdue): the earliest
     * scheduled work past due (with the lag it inherited), or a received frame still waiting for the device thread.
     */
    private long behind(final long monotonic, final long epoch) {
        long worst = 0;
        final long due = dueAt;
        if (due != Long.MAX_VALUE && epoch > due) {
            worst = epoch - due + dueLag;
        }
        final Task waiting = tasks.peek();
        if (waiting != null && waiting.frame()) {
            worst = Math.max(worst, waiting.lateNanos() + monotonic - waiting.handed());
        }
        return worst;
    }

    /** On the device thread: publishes when its earliest scheduled work falls due, for {@link #behind}. */
    private void publishDue() {
        final long next = device.scheduler().next();
        dueLag = device.scheduler().nextLag();
        dueAt = next;
    }

    /** Where the link counts the frames its capture lost, so that {@link #timeline()} can say how many a case lost. */
    public RealTimeDevice countCaptureDrops(final LongSupplier dropped) {
        synchronized (timeline) {
            captureDrops = dropped;
            captureDropsAtReset = dropped.getAsLong();
        }
        return this;
    }

    /**
     * Makes every reset collect the JVM's garbage when {@code value} says so ({@link BetweenCases}: on real time, once
     * the old generation is large), on the device thread after the device dropped its state and before its timeline
     * starts again, when no case is running. Without it the device's JVM keeps what a case such as QP-011 (65,536
     * QPs) left in its old generation, and every young collection of the rest of the run pauses the device for tens
     * to hundreds of milliseconds inside the cases. {@code then} runs after a collection, still before the timeline
     * starts again: a link whose reader the collection stopped looks for frames there, so that the reader's pause is
     * charged to the time between the cases, not to the next one.
     */
    public RealTimeDevice betweenCases(final BetweenCases value, final Runnable then) {
        this.between = value;
        this.afterCollection = then;
        return this;
    }

    /** The device's control plane; callable from any thread, executed on the device thread. */
    public ControlPlane controlPlane() {
        return control;
    }

    private void run() {
        try {
            while (running) {
                step();
                publishDue();
                final Task task = waitForWork();
                if (task != null) {
                    device.scheduler().advanceTo(now());
                    device.scheduler().context(0);
                    task.work().run();
                    device.scheduler().context(0);
                    publishDue();
                }
            }
        } catch (RuntimeException | Error e) {
            crash = e;
            running = false;
        }
    }

    /**
     * Runs after a timer's work and before its frames are handed to the link (a test's stand-in for the device thread
     * losing its CPU there).
     */
    volatile Runnable afterTimer = () -> { };

    /** Runs every timer due by now and transmits what the device emitted. */
    private void step() {
        final long now = now();
        final long stepBegan = System.nanoTime();
        device.scheduler().advanceTo(now);
        for (long due = device.scheduler().next(); due <= now; due = device.scheduler().next()) {
            timeline.late(now - due, OwnTimeline.Kind.TIMER);
            // the timer is as late as it ran after its due time, plus the lag of what set it (its due time counted
            // from a late moment)
            final long lag = device.scheduler().nextLag() + now - due;
            device.scheduler().context(lag);
            device.scheduler().runNext(now);
            afterTimer.run();
            // the timer's frames are as late as it ran after its due time (in lag) plus everything since this step
            // took its time: the timer's own work included (until 2026-12-03 counted from after it, and only with a
            // lag: a device thread that lost its CPU while building the frame sent it late and said nothing)
            transmit(lag, stepBegan, true);
        }
        device.scheduler().context(0);
        transmit(0, System.nanoTime(), false);
    }

    /**
     * Hands every frame the device emitted to the link; {@code lagNanos} is how late the action that emitted them ran
     * against the device's ideal timeline: each frame's own lateness is that plus its wait here and its hand-over.
     */
    private void transmit(final long lagNanos, final long from, final boolean timer) {
        CapturedFrame frame;
        while ((frame = device.outbox().pollFirst()) != null) {
            transmitted.incrementAndGet();
            final long began = System.nanoTime();
            try {
                transmitter.accept(frame.unsafeBytes());
            } catch (RuntimeException e) {
                failure(e);
            }
            final long end = System.nanoTime();
            timeline.late(end - began, OwnTimeline.Kind.TRANSMIT);
            if (timer || lagNanos > 0) {
                timeline.late(lagNanos + end - from, OwnTimeline.Kind.CHAIN);
            }
        }
    }

    private Task waitForWork() {
        final long next = device.scheduler().next();
        final long wait = next == Long.MAX_VALUE ? MAX_SLEEP_NANOS : Math.min(MAX_SLEEP_NANOS, next - now());
        if (wait <= 0) {
            return tasks.poll();
        }
        if (wait < SPIN_NANOS) {
            final long until = now() + wait;
            Task task;
            while ((task = tasks.poll()) == null && now() < until) {
                Thread.onSpinWait();
            }
            return task;
        }
        try {
            return tasks.poll(wait - SPIN_NANOS / 2, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            running = false;
            return null;
        }
    }

    private <T> T call(final String what, final Callable<T> action) {
        if (!running) {
            throw new AdapterException("the reference device has stopped" + (crash == null ? "" : ": " + crash));
        }
        final CompletableFuture<T> answer = new CompletableFuture<>();
        tasks.add(new Task(() -> {
            try {
                final T result = action.call();
                // before the caller learns of it (it may take this thread's CPU): what the call scheduled, such as
                // the first transmission of a post_send, is then known to be due should this thread not run again
                publishDue();
                answer.complete(result);
            } catch (Exception | Error e) {
                answer.completeExceptionally(e);
            }
        }, System.nanoTime(), 0, false));
        try {
            return answer.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            final Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new AdapterException(what + " failed: " + cause, cause);
        } catch (TimeoutException e) {
            throw new AdapterException("the reference device did not execute " + what + " within 30 s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdapterException("interrupted while waiting for " + what);
        }
    }

    private void run(final String what, final Runnable action) {
        call(what, () -> {
            action.run();
            return null;
        });
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class Control implements ControlPlane {
        @Override
        public int allocatePd() {
            return call("allocatePd", device::allocatePd);
        }

        @Override
        public int createQp(final QpAttributes attributes) {
            return call("createQp", () -> device.createQp(attributes));
        }

        @Override
        public void modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
            run("modifyQp", () -> device.modifyQp(qpn, state, attributes));
        }

        @Override
        public QpState queryQp(final int qpn) {
            return call("queryQp", () -> device.queryQp(qpn));
        }

        @Override
        public void destroyQp(final int qpn) {
            run("destroyQp", () -> device.destroyQp(qpn));
        }

        @Override
        public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
            return call("registerMr", () -> device.registerMr(pd, length, access));
        }

        @Override
        public void invalidateRkey(final int rkey) {
            run("invalidateRkey", () -> device.invalidateRkey(rkey));
        }

        @Override
        public void deregisterMr(final int lkey) {
            run("deregisterMr", () -> device.deregisterMr(lkey));
        }

        @Override
        public void postReceive(final int qpn, final ReceiveWqe wqe) {
            run("postReceive", () -> device.postReceive(qpn, wqe));
        }

        @Override
        public void postSend(final int qpn, final SendWqe wqe) {
            run("postSend", () -> device.postSend(qpn, wqe));
        }

        @Override
        public List<Completion> pollCompletions(final int qpn, final int max) {
            return call("pollCompletions", () -> device.pollCompletions(qpn, max));
        }

        @Override
        public byte[] readMemory(final long va, final int length) {
            return call("readMemory", () -> device.readMemory(va, length));
        }

        @Override
        public void writeMemory(final long va, final byte[] data) {
            final byte[] copy = data.clone();
            run("writeMemory", () -> device.writeMemory(va, copy));
        }

        @Override
        public Map<String, Long> counters() {
            return call("counters", device::counters);
        }

        @Override
        public Map<String, Long> qpCounters(final int qpn) {
            return call("qpCounters", () -> device.qpCounters(qpn));
        }

        @Override
        public void reset() {
            run("reset", () -> {
                device.reset();
                if (between.beforeCase()) {
                    afterCollection.run();
                }
                synchronized (timeline) {
                    timeline.clear();
                    captureDropsAtReset = captureDrops.getAsLong();
                }
            });
        }
    }
}

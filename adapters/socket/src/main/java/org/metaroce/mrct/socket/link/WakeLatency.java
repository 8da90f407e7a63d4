package org.metaroce.mrct.socket.link;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * How long a reader thread that waited in the kernel for a datagram was blind after the kernel woke it: what lets a
 * link's reader block instead of polling (polling two readers every few tens of microseconds took half the CPU the
 * harness and {@code mrct serve} used on a 2-core host, 2026-12-03) and still say until when it knew that nothing had
 * come.
 *
 * <p>Around one wait, {@link #mark()} before and {@link #watchedUntil} after, the thread's own accounts are read: its
 * CPU time ({@code CLOCK_THREAD_CPUTIME_ID}), its time runnable on a run queue (Linux's
 * {@code /proc/thread-self/schedstat}), its voluntary and involuntary context switches ({@code status}), and whether
 * the JVM stopped its threads ({@link JvmStops}). When the thread went to sleep exactly once, was never preempted and
 * no safepoint began or ended, that one sleep was the wait in the kernel (no lock is taken between the mark and the
 * system call, and a datagram already queued at the call ends it at once, with no sleep): the socket was empty when
 * the wait began and stayed so until the kernel woke the thread. From then on the thread was queued or ran, so it woke
 * no earlier than the end of the wait minus its CPU and queued time; {@link #MARGIN_NANOS} less is claimed, for what
 * neither clock counts (interrupts served and time the hypervisor stole while the thread ran: up to 27 us measured
 * here beside a 4.7 ms preemption, 2026-12-03). In every other case nothing is claimed, and the whole wait counts as a
 * pause of the reader, as it did when it polled. Not detected: a sleep of the JVM's own outside a safepoint (a
 * handshake) on a wait that found a datagram already queued.
 *
 * <p>One instance per thread, created and used on that thread only.
 */
final class WakeLatency {
    /**
     * The least time asleep that is taken for a wait in the kernel: a sleep and wake-up take microseconds, and the three
     * clocks read here (the thread's CPU clock, the run queue's, the monotonic clock) may disagree by a little.
     */
    static final long MIN_SLEEP_NANOS = 2_000;
    /** Taken off every claim (see the class comment): below the 50 us a link's reader's pause is noted from. */
    static final long MARGIN_NANOS = 40_000;
    private final FileChannel schedstat;
    private final FileChannel status;
    private final ByteBuffer statusText = ByteBuffer.allocate(4096);
    private long voluntaryAtMark;
    private long involuntaryAtMark;
    private long voluntary;
    private long involuntary;
    private final ThreadMXBean threads;
    private final JvmStops stops;
    private final ByteBuffer line = ByteBuffer.allocate(128);
    private final long[] fields = new long[3];
    private long stopsAtMark;
    private long cpuAtMark;
    private long queuedAtMark;
    private long monotonicAtMark;

    private WakeLatency(final FileChannel schedstat, final FileChannel status, final ThreadMXBean threads,
                        final JvmStops stops) {
        this.schedstat = schedstat;
        this.status = status;
        this.threads = threads;
        this.stops = stops;
    }

    /** The calling thread's accounts, or null where they cannot all be read (not Linux, no performance data). */
    static WakeLatency ofCurrentThread() {
        return ofCurrentThread(JvmStops.ofThisJvm());
    }

    /** As {@link #ofCurrentThread()} with the JVM's stops read from {@code stops} (package-private for tests). */
    static WakeLatency ofCurrentThread(final JvmStops stops) {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!stops.available() || !threads.isCurrentThreadCpuTimeSupported()) {
            return null;
        }
        FileChannel schedstat = null;
        FileChannel status = null;
        try {
            if (!threads.isThreadCpuTimeEnabled()) {
                threads.setThreadCpuTimeEnabled(true);
            }
            schedstat = FileChannel.open(Path.of("/proc/thread-self/schedstat"));
            status = FileChannel.open(Path.of("/proc/thread-self/status"));
            final WakeLatency latency = new WakeLatency(schedstat, status, threads, stops);
            latency.read();
            latency.readSwitches();
            return latency;
        } catch (IOException | RuntimeException e) {
            close(schedstat);
            close(status);
            return null;
        }
    }

    /** Before a wait: the thread's accounts now (the last thing before the system call). */
    void mark() throws IOException {
        stopsAtMark = stops.mark();
        readSwitches();
        voluntaryAtMark = voluntary;
        involuntaryAtMark = involuntary;
        read();
        queuedAtMark = fields[1];
        cpuAtMark = threads.getCurrentThreadCpuTime();
        monotonicAtMark = System.nanoTime();
    }

    /**
     * After the wait (the first thing after it): the instant, on the clock of {@code wokeNanos} (taken just before this
     * call), before which no datagram arrived since the mark; Long.MIN_VALUE when that is not known.
     */
    long watchedUntil(final long wokeNanos) throws IOException {
        final long elapsed = System.nanoTime() - monotonicAtMark;
        final long cpu = threads.getCurrentThreadCpuTime() - cpuAtMark;
        read();
        final long queued = fields[1] - queuedAtMark;
        readSwitches();
        if (stops.mark() != stopsAtMark || voluntary - voluntaryAtMark != 1 || involuntary != involuntaryAtMark) {
            return Long.MIN_VALUE;
        }
        final long blind = cpu + queued;
        return elapsed - blind < MIN_SLEEP_NANOS ? Long.MIN_VALUE : wokeNanos - blind - MARGIN_NANOS;
    }

    /** Reads the three fields of schedstat: nanoseconds on a CPU, nanoseconds queued, times put on a CPU. */
    private void read() throws IOException {
        line.clear();
        final int length = schedstat.read(line, 0);
        int field = 0;
        long value = 0;
        boolean digits = false;
        for (int i = 0; i < length && field < 3; i++) {
            final byte b = line.get(i);
            if (b >= '0' && b <= '9') {
                value = value * 10 + (b - '0');
                digits = true;
            } else if (digits) {
                fields[field++] = value;
                value = 0;
                digits = false;
            }
        }
        if (digits && field < 3) {
            fields[field++] = value;
        }
        if (field < 3) {
            throw new IOException("unexpected schedstat: "
                + new String(line.array(), 0, Math.max(0, length), StandardCharsets.US_ASCII));
        }
    }

    /** Reads the thread's voluntary and involuntary context switches from its status (their lines come last). */
    private void readSwitches() throws IOException {
        statusText.clear();
        final int length = status.read(statusText, 0);
        voluntary = -1;
        involuntary = -1;
        int end = length;
        while (end > 0 && (voluntary < 0 || involuntary < 0)) {
            int start = end - 1;
            while (start > 0 && statusText.get(start - 1) != '\n') {
                start--;
            }
            final String line = new String(statusText.array(), start, end - start, StandardCharsets.US_ASCII).trim();
            if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary = Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
            end = start - 1;
        }
        if (voluntary < 0 || involuntary < 0) {
            throw new IOException("no context switches in the thread's status");
        }
    }

    /** Closes the thread's files. */
    void close() {
        close(schedstat);
        close(status);
    }

    private static void close(final FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}

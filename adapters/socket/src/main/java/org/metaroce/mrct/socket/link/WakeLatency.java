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
 * CPU time ({@code CLOCK_THREAD_CPUTIME_ID}), its time runnable on a run queue and the number of times it was put
 * on a CPU (Linux's {@code /proc/thread-self/schedstat}), and whether the JVM stopped its threads ({@link JvmStops}).
 * The wait's time is the thread's CPU time, its time queued and its time asleep. When the thread went off its CPU
 * exactly once, and no safepoint began or ended, that one sleep was the wait in the kernel (no lock is taken between
 * the mark and the system call, and a datagram already queued at the call would have ended it at once, with no sleep):
 * the socket was empty when the wait began and stayed so until the kernel woke the thread, no earlier than the wake-up
 * time minus the CPU and queued time measured. In every other case nothing is claimed, and the whole wait counts as a
 * pause of the reader, as it did when it polled.
 *
 * <p>One instance per thread, created and used on that thread only.
 */
final class WakeLatency {
    /**
     * The least time asleep that is taken for a wait in the kernel: a sleep and wake-up take microseconds, and the three
     * clocks read here (the thread's CPU clock, the run queue's, the monotonic clock) may disagree by a little.
     */
    static final long MIN_SLEEP_NANOS = 2_000;
    private final FileChannel schedstat;
    private final ThreadMXBean threads;
    private final JvmStops stops;
    private final ByteBuffer line = ByteBuffer.allocate(128);
    private final long[] fields = new long[3];
    private long stopsAtMark;
    private long cpuAtMark;
    private long queuedAtMark;
    private long runsAtMark;
    private long monotonicAtMark;

    private WakeLatency(final FileChannel schedstat, final ThreadMXBean threads, final JvmStops stops) {
        this.schedstat = schedstat;
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
        FileChannel channel = null;
        try {
            if (!threads.isThreadCpuTimeEnabled()) {
                threads.setThreadCpuTimeEnabled(true);
            }
            channel = FileChannel.open(Path.of("/proc/thread-self/schedstat"));
            final WakeLatency latency = new WakeLatency(channel, threads, stops);
            latency.read();
            return latency;
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // unusable anyway
                }
            }
            return null;
        }
    }

    /** Before a wait: the thread's accounts now (the last thing before the system call). */
    void mark() throws IOException {
        stopsAtMark = stops.mark();
        read();
        queuedAtMark = fields[1];
        runsAtMark = fields[2];
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
        final long runs = fields[2] - runsAtMark;
        if (stops.mark() != stopsAtMark || runs != 1) {
            return Long.MIN_VALUE;
        }
        final long blind = cpu + queued;
        return elapsed - blind < MIN_SLEEP_NANOS ? Long.MIN_VALUE : wokeNanos - blind;
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

    /** Closes the thread's schedstat file. */
    void close() {
        try {
            schedstat.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }
}

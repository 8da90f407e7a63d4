package org.metaroce.mrct.socket.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The UDP link's reader waiting in the kernel: what it claims about the time it waited (nothing came before the
 * instant it reports) holds against datagrams sent at random moments, it does not poll, and it looks when asked.
 */
class UdpLinkWaitTest {
    private static final long SEED = 20261203L;

    /** What a receiver heard, in order, from the reader thread. */
    private static final class Heard implements FrameReceiver {
        final List<long[]> events = new ArrayList<>();
        volatile long lastSweep;
        volatile int sweeps;

        @Override
        public synchronized void frame(final byte[] bytes, final long timestampNanos) {
            events.add(new long[] {'F', timestampNanos, (bytes[bytes.length - 6] & 0xFF) << 8
                | bytes[bytes.length - 5] & 0xFF});
        }

        @Override
        public synchronized void idle(final long sweptAtNanos) {
            events.add(new long[] {'I', sweptAtNanos, 0});
            lastSweep = sweptAtNanos;
            sweeps++;
        }

        @Override
        public synchronized void watched(final long untilNanos) {
            events.add(new long[] {'W', untilNanos, 0});
        }

        synchronized List<long[]> copy() {
            return new ArrayList<>(events);
        }
    }

    private static void assumeBlocking() {
        final WakeLatency wake = WakeLatency.ofCurrentThread();
        assumeTrue(wake != null, "the reader cannot measure its wake-up here (needs Linux's /proc/thread-self/schedstat"
            + " and HotSpot's performance data): it polls");
        wake.close();
    }

    /** A transport packet the device end takes (BTH..ICRC), numbered in the two bytes before its ICRC. */
    private static byte[] packet(final int n) {
        final byte[] p = new byte[32];
        p[0] = 0x04; // SEND_ONLY
        // the rest zero: the link does not parse it
        p[p.length - 6] = (byte) (n >> 8);
        p[p.length - 5] = (byte) n;
        return p;
    }

    @Test
    void nothingIsClaimedWatchedAfterADatagramWasSent() throws Exception {
        assumeBlocking();
        final Heard heard = new Heard();
        final InetSocketAddress listen = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (UdpLink device = UdpLink.serve(listen, 0x02000000000dL, 0x02000000000aL, heard);
             DatagramChannel harness = DatagramChannel.open()) {
            harness.connect(device.localAddress());
            final Random random = new Random(SEED);
            final int count = 300;
            final long[] sentBy = new long[count];
            for (int i = 0; i < count; i++) {
                // gaps from none to 3 ms: datagrams that find the reader busy, about to wait, asleep, or on its own
                // 1 ms timeout
                final int gap = random.nextInt(4);
                LockSupport.parkNanos(gap == 0 ? 0 : random.nextInt(gap * 1_000_000));
                harness.write(ByteBuffer.wrap(packet(i)));
                sentBy[i] = WallClock.nanos(); // the datagram was in the socket by then
            }
            final long until = System.nanoTime() + 5_000_000_000L;
            while (heard.copy().stream().filter(e -> e[0] == 'F').count() < count && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            final List<long[]> events = heard.copy();
            assertThat(events.stream().filter(e -> e[0] == 'F').count()).isEqualTo(count);
            long claimed = Long.MIN_VALUE;
            int watched = 0;
            for (final long[] e : events) {
                if (e[0] == 'W' || e[0] == 'I') {
                    claimed = Math.max(claimed, e[1]);
                    watched += e[0] == 'W' ? 1 : 0;
                } else {
                    final int n = (int) e[2];
                    assertThat(claimed).as("datagram %d (seed %d): the reader claimed nothing came until %d, but it "
                        + "was sent by %d", n, SEED, claimed, sentBy[n]).isLessThanOrEqualTo(sentBy[n]);
                    assertThat(e[1]).as("its timestamp").isGreaterThan(claimed);
                }
            }
            assertThat(watched).as("waits in the kernel reported").isPositive();
        }
    }

    @Test
    void anIdleReaderDoesNotPollAndLooksWhenAsked() throws Exception {
        assumeBlocking();
        final Heard heard = new Heard();
        final InetSocketAddress listen = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (UdpLink device = UdpLink.serve(listen, 0x02000000000dL, 0x02000000000aL, heard)) {
            Thread.sleep(50);
            final int before = heard.sweeps;
            Thread.sleep(200);
            // a polling reader looked every POLL_NANOS (20 us, ~70 us with the timer slack): thousands of sweeps; one
            // that waits in the kernel looks once per BLOCK_MILLIS at most (fewer on a loaded host, never more)
            assertThat(heard.sweeps - before).isLessThan(200 / (int) UdpLink.BLOCK_MILLIS + 50);
            for (int i = 0; i < 20; i++) {
                final long asked = WallClock.nanos();
                device.lookNow();
                final long until = System.nanoTime() + 1_000_000_000L;
                while (heard.lastSweep <= asked && System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                assertThat(heard.lastSweep).as("a sweep after lookNow").isGreaterThan(asked);
            }
        }
    }

    @Test
    void aWaitThatFoundADatagramAlreadyQueuedClaimsNothingAfterIt() throws IOException {
        assumeBlocking();
        final WakeLatency wake = WakeLatency.ofCurrentThread();
        try (DatagramChannel a = DatagramChannel.open(); DatagramChannel b = DatagramChannel.open();
             Selector selector = Selector.open()) {
            a.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            b.connect(a.getLocalAddress());
            a.configureBlocking(false);
            a.register(selector, SelectionKey.OP_READ);
            b.write(ByteBuffer.wrap(packet(1)));
            final long sentBy = WallClock.nanos();
            for (int i = 0; i < 1000; i++) {
                wake.mark();
                assertThat(selector.select(1000)).isEqualTo(1);
                final long until = wake.watchedUntil(WallClock.nanos());
                if (until != Long.MIN_VALUE) {
                    // the socket was not empty: no wait in the kernel, so no claim, or one so early that the margin
                    // covers a sleep of the JVM's own (seen once in 600,000 waits while it compiled the loop)
                    assertThat(until).as("claimed nothing came until then, but a datagram had").isLessThan(sentBy);
                }
                selector.selectedKeys().clear();
            }
            // a wait that ran to its timeout slept in the kernel: what it claims is before it woke, by the margin at least
            a.receive(ByteBuffer.allocate(64));
            int claims = 0;
            for (int i = 0; i < 20; i++) {
                wake.mark();
                selector.select(2);
                final long woke = WallClock.nanos();
                final long until = wake.watchedUntil(woke);
                if (until != Long.MIN_VALUE) {
                    claims++;
                    assertThat(until).isLessThanOrEqualTo(woke - WakeLatency.MARGIN_NANOS);
                }
            }
            // every wait slept; one preempted after its wake-up claims nothing (a loaded host), but not all of them
            assertThat(claims).isPositive();
        } finally {
            wake.close();
        }
    }
}

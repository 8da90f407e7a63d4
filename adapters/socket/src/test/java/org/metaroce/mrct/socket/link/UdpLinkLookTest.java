package org.metaroce.mrct.socket.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * {@link UdpLink#lookNow} looks on the caller's thread when the reader is not looking: the sweep is in before it
 * returns, and the receiver still hears of every datagram once, in order, from one thread at a time.
 */
class UdpLinkLookTest {
    private static final long SEED = 20261203L;

    /** What a receiver heard, checking that no two threads are ever in it at once. */
    private static final class Heard implements FrameReceiver {
        final List<Integer> numbers = java.util.Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger backwards = new AtomicInteger();
        final AtomicInteger sweepsOnOtherThreads = new AtomicInteger();
        volatile Thread reader;
        volatile long lastSweep;
        private long last = Long.MIN_VALUE;

        private void enter(final long time) {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            if (time < last) {
                backwards.incrementAndGet();
            }
            last = Math.max(last, time);
        }

        @Override
        public void frame(final byte[] bytes, final long timestampNanos) {
            enter(timestampNanos);
            numbers.add((bytes[bytes.length - 6] & 0xFF) << 8 | bytes[bytes.length - 5] & 0xFF);
            inside.decrementAndGet();
        }

        @Override
        public void idle(final long sweptAtNanos) {
            enter(sweptAtNanos);
            if (reader == null && Thread.currentThread().getName().startsWith("mrct-udp-")) {
                reader = Thread.currentThread();
            }
            if (Thread.currentThread() != reader) {
                sweepsOnOtherThreads.incrementAndGet();
            }
            lastSweep = sweptAtNanos;
            inside.decrementAndGet();
        }
    }

    /** A transport packet (BTH..ICRC; the link does not parse it), numbered in the two bytes before its ICRC. */
    private static byte[] packet(final int n) {
        final byte[] p = new byte[32];
        p[0] = 0x04;
        p[p.length - 6] = (byte) (n >> 8);
        p[p.length - 5] = (byte) n;
        return p;
    }

    @Test
    void aCallerLooksItselfAndTheReceiverStillHearsEachDatagramOnceInOrder() throws Exception {
        final Heard heard = new Heard();
        final InetSocketAddress listen = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (UdpLink device = UdpLink.serve(listen, 0x02000000000dL, 0x02000000000aL, heard);
             DatagramChannel harness = DatagramChannel.open()) {
            harness.connect(device.localAddress());
            final int count = 2000;
            final Thread sender = new Thread(() -> {
                final Random random = new Random(SEED);
                try {
                    for (int i = 0; i < count; i++) {
                        harness.write(ByteBuffer.wrap(packet(i)));
                        if (random.nextInt(8) == 0) {
                            LockSupport.parkNanos(random.nextInt(200_000));
                        }
                    }
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }, "test-sender");
            sender.start();
            // two threads asking to look while the reader polls and the datagrams come
            final Runnable asker = () -> {
                for (int i = 0; i < 3000; i++) {
                    device.lookNow();
                    LockSupport.parkNanos(20_000);
                }
            };
            final Thread a = new Thread(asker, "test-asker-1");
            final Thread b = new Thread(asker, "test-asker-2");
            a.start();
            b.start();
            sender.join();
            a.join();
            b.join();
            final long until = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < until && sizeOf(heard) < count) {
                device.lookNow();
                Thread.sleep(5);
            }
            final List<Integer> numbers;
            synchronized (heard.numbers) {
                numbers = new ArrayList<>(heard.numbers);
            }
            final List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                expected.add(i);
            }
            assertThat(numbers).as("every datagram once, in order (seed %d)", SEED).isEqualTo(expected);
            assertThat(heard.overlaps.get()).as("callbacks on two threads at once").isZero();
            assertThat(heard.backwards.get()).as("times going back from one callback to the next").isZero();
            assertThat(heard.sweepsOnOtherThreads.get()).as("sweeps made by the askers themselves").isPositive();
        }
    }

    private static int sizeOf(final Heard heard) {
        return heard.numbers.size();
    }

    @Test
    void aSweepPastTheRequestIsInWhenLookNowReturnsUnlessTheReaderWasLooking() throws Exception {
        final Heard heard = new Heard();
        final InetSocketAddress listen = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (UdpLink device = UdpLink.serve(listen, 0x02000000000dL, 0x02000000000aL, heard)) {
            int inline = 0;
            for (int i = 0; i < 200; i++) {
                final long asked = WallClock.nanos();
                device.lookNow();
                if (heard.lastSweep > asked) {
                    inline++;
                } else {
                    // the reader was looking: it was asked to look again, and does
                    final long until = System.nanoTime() + 1_000_000_000L;
                    while (heard.lastSweep <= asked && System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    assertThat(heard.lastSweep).as("a sweep after the request").isGreaterThan(asked);
                }
                LockSupport.parkNanos(50_000);
            }
            // the reader looks for a few microseconds in every ~70: most requests find it parked
            assertThat(inline).isGreaterThan(100);
        }
    }
}

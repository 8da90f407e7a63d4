package org.metaroce.mrct.socket.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The kernel's count of datagrams a UDP link's socket dropped: read right, and seen when it really happens. */
class KernelUdpDropsTest {
    private static final String TABLE = """
          sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops
         4493: 0100007F:A0D3 0100007F:C09F 01 00000000:00000000 00:00000000 00000000     0        0 698464 2 000000003c3668e7 0
        12633: 0100007F:C09F 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 574759 2 00000000403c311f 17
        12634: 00000000:1F90 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 574760 2 00000000403c3120 5
        """;

    @Test
    void theDropsColumnOfTheSocketsOwnLineIsRead() throws Exception {
        final InetAddress loopback = InetAddress.getByName("127.0.0.1");
        assertThat(KernelUdpDrops.parse(TABLE, new InetSocketAddress(loopback, 49_311))).isEqualTo(17);
        assertThat(KernelUdpDrops.parse(TABLE, new InetSocketAddress(loopback, 41_171))).isZero();
        assertThat(KernelUdpDrops.parse(TABLE, new InetSocketAddress(loopback, 8080))).as("bound to any address")
            .isEqualTo(5);
        assertThat(KernelUdpDrops.parse(TABLE, new InetSocketAddress(loopback, 1))).as("no such socket").isEqualTo(-1);
    }

    @Test
    void datagramsTheKernelDroppedWhileTheReaderStalledAreCounted() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/udp")), "needs Linux's /proc/net/udp");
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch stalled = new CountDownLatch(1);
        final FrameReceiver stuck = new FrameReceiver() {
            @Override
            public void frame(final byte[] bytes, final long timestampNanos) {
                stalled.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void idle(final long sweptAtNanos) {
            }
        };
        final InetAddress loopback = InetAddress.getLoopbackAddress();
        try (DatagramChannel device = DatagramChannel.open()) {
            device.bind(new InetSocketAddress(loopback, 0));
            final UdpLink link = UdpLink.connect((InetSocketAddress) device.getLocalAddress(),
                new InetSocketAddress(loopback, 0), 1, 2, stuck);
            try {
                assertThat(link.dropped()).isZero();
                final InetSocketAddress harness = link.localAddress();
                final ByteBuffer big = ByteBuffer.allocate(60_000);
                device.send(big.duplicate(), harness);
                assertThat(stalled.await(30, TimeUnit.SECONDS)).isTrue();
                // the reader is stuck in the first frame: far more than any receive buffer can hold
                for (int i = 0; i < 2_000; i++) {
                    device.send(big.duplicate(), harness);
                }
                assertThat(link.dropped()).as("the kernel dropped what the stalled reader could not take")
                    .isPositive();
            } finally {
                release.countDown();
                link.close();
            }
        }
    }
}

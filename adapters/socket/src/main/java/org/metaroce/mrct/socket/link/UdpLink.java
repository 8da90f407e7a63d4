package org.metaroce.mrct.socket.link;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.metaroce.mrct.spi.AdapterException;

/**
 * The UDP mode's link: a plain {@link DatagramChannel} that carries the transport packet (BTH through ICRC) of each
 * frame, for software implementations that listen on a UDP port. Frames are turned into payloads and back by
 * {@link UdpFraming}. Timestamps are taken when the reader thread receives a datagram (Java cannot read the kernel's),
 * so they are late by the polling delay, tens of microseconds.
 *
 * <p>Two roles: {@link #connect the harness's}, which sends to the device's address and accepts datagrams from it
 * only; and {@link #serve a device's}, which listens on its address and answers each peer IP at the port it last
 * heard from it.
 */
public final class UdpLink implements Link {
    private static final long POLL_NANOS = 20_000;
    private static final int MAX_DATAGRAM = 65_507;
    /**
     * The kernel receive buffer asked for. A case sends hundreds of frames back to back (ROB-006 sends 464), and the
     * default buffer (about 208 KiB, each small datagram costing over 1 KiB of it) overflows whenever the reading thread
     * is descheduled for a millisecond, which drops frames the case then counts. Linux caps the request at
     * net.core.rmem_max (4 MiB on this project's machines); raise that sysctl if a run reports lost frames.
     */
    static final int RECEIVE_BUFFER = 16 << 20;

    private final DatagramChannel channel;
    private final InetSocketAddress local;
    private final InetSocketAddress remote;
    private final long localMac;
    private final long remoteMac;
    private final FrameReceiver receiver;
    private final Map<String, InetSocketAddress> peers = new ConcurrentHashMap<>();
    private final AtomicLong unroutable = new AtomicLong();
    private final AtomicLong unreachable = new AtomicLong();
    private final Thread reader;
    private volatile boolean running = true;
    private volatile String problem;
    /** The kernel's drop count for this socket when it was opened (-1: unknown). */
    private final long dropsAtOpen;

    private UdpLink(final DatagramChannel channel, final InetSocketAddress local, final InetSocketAddress remote,
                    final long localMac, final long remoteMac, final FrameReceiver receiver) {
        this.channel = channel;
        this.local = local;
        this.remote = remote;
        this.localMac = localMac;
        this.remoteMac = remoteMac;
        this.receiver = receiver;
        this.reader = new Thread(this::read, "mrct-udp-" + local.getPort());
        this.reader.setDaemon(true);
        this.dropsAtOpen = KernelUdpDrops.of(local);
    }

    /**
     * The harness's end: a channel bound to {@code bind} (port 0 for any) and connected to {@code device}.
     *
     * @param harnessMac the harness's MAC in the frames handed to the engine
     * @param deviceMac the device's MAC in those frames
     */
    public static UdpLink connect(final InetSocketAddress device, final InetSocketAddress bind, final long harnessMac,
                                  final long deviceMac, final FrameReceiver receiver) {
        requireIpv4(device, "the device");
        try {
            final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER);
            channel.bind(bind);
            channel.connect(device);
            channel.configureBlocking(false);
            InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
            if (local.getAddress().isAnyLocalAddress()) {
                local = new InetSocketAddress(device.getAddress().isLoopbackAddress() ? device.getAddress()
                    : local.getAddress(), local.getPort());
            }
            final UdpLink link = new UdpLink(channel, local, device, harnessMac, deviceMac, receiver);
            link.reader.start();
            // the greeting: one datagram of a single zero byte, so that a device that answers each peer at the port
            // it heard from knows the harness's before its first own request (a requester case's device speaks
            // first); a device drops it as a truncated packet, and the first case's reset clears that count. (Java
            // cannot send an empty datagram: a write of no bytes sends nothing.)
            channel.write(ByteBuffer.wrap(new byte[1]));
            return link;
        } catch (IOException e) {
            throw new AdapterException("cannot open a UDP socket towards " + device + ": " + e.getMessage(), e);
        }
    }

    /** A device's end: a channel bound to {@code listen}, which must be a specific IPv4 address. */
    public static UdpLink serve(final InetSocketAddress listen, final long deviceMac, final long peerMac,
                                final FrameReceiver receiver) {
        requireIpv4(listen, "the device");
        if (listen.getAddress().isAnyLocalAddress()) {
            throw new AdapterException("a UDP device needs a specific address to listen on (its frames carry it), "
                + "not " + listen.getAddress().getHostAddress());
        }
        try {
            final DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER);
            channel.bind(listen);
            channel.configureBlocking(false);
            final UdpLink link = new UdpLink(channel, (InetSocketAddress) channel.getLocalAddress(), null, deviceMac,
                peerMac, receiver);
            link.reader.start();
            return link;
        } catch (IOException e) {
            throw new AdapterException("cannot listen on UDP " + listen + ": " + e.getMessage(), e);
        }
    }

    private static void requireIpv4(final InetSocketAddress address, final String what) {
        if (address.isUnresolved() || !(address.getAddress() instanceof Inet4Address)) {
            throw new AdapterException("the UDP mode reaches " + what + " over IPv4 only, not " + address);
        }
    }

    /** The local address the datagrams come from. */
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public String describe() {
        return remote == null ? "udp listening on " + hostPort(local)
            : "udp " + hostPort(local) + " -> " + hostPort(remote);
    }

    private static String hostPort(final InetSocketAddress address) {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    /**
     * Datagrams the kernel dropped for this socket since it was opened, its receive buffer full (the reader thread
     * was descheduled while the device sent): frames the device did send that the harness never saw. 0 where the
     * kernel does not say (not Linux).
     */
    @Override
    public long dropped() {
        final long now = KernelUdpDrops.of(local);
        return now < 0 || dropsAtOpen < 0 ? 0 : Math.max(0, now - dropsAtOpen);
    }

    @Override
    public String whenDropping() {
        return "the socket's receive buffer overflowed while the harness was descheduled; raise net.core.rmem_max";
    }

    @Override
    public boolean seesOwn(final byte[] frame) {
        return false;
    }

    /** The reader stamps each datagram when it takes it from the socket (Java has no receive timestamps). */
    @Override
    public boolean stampsWhenRead() {
        return true;
    }

    @Override
    public void lookNow() {
        LockSupport.unpark(reader);
    }

    @Override
    public String problem() {
        return problem;
    }

    /** Frames a device end could not send because no datagram had come from their destination IP yet. */
    public long unroutable() {
        return unroutable.get();
    }

    /** ICMP port-unreachable answers seen (the device was not listening at that moment). */
    public long unreachable() {
        return unreachable.get();
    }

    @Override
    public void send(final byte[] frame) {
        final InetSocketAddress to;
        if (remote != null) {
            to = remote;
        } else {
            if (frame.length < 34) {
                unroutable.incrementAndGet();
                return;
            }
            final String ip = (frame[30] & 0xFF) + "." + (frame[31] & 0xFF) + "." + (frame[32] & 0xFF) + "."
                + (frame[33] & 0xFF);
            to = peers.get(ip);
            if (to == null) {
                unroutable.incrementAndGet();
                return;
            }
        }
        final byte[] payload = UdpFraming.payload(frame, local, to);
        try {
            final int sent = remote != null ? channel.write(ByteBuffer.wrap(payload))
                : channel.send(ByteBuffer.wrap(payload), to);
            if (sent != payload.length) {
                throw new AdapterException("the UDP socket took " + sent + " of " + payload.length + " bytes");
            }
        } catch (PortUnreachableException e) {
            unreachable.incrementAndGet();
        } catch (IOException e) {
            throw new AdapterException("cannot send to " + hostPort(to) + ": " + e.getMessage(), e);
        }
    }

    private void read() {
        final ByteBuffer buffer = ByteBuffer.allocate(MAX_DATAGRAM);
        while (running) {
            final long sweep = WallClock.nanos();
            buffer.clear();
            final SocketAddress source;
            try {
                source = channel.receive(buffer);
            } catch (PortUnreachableException e) {
                unreachable.incrementAndGet();
                continue;
            } catch (ClosedChannelException e) {
                if (running) {
                    problem = "the UDP socket " + hostPort(local) + " was closed";
                }
                return;
            } catch (IOException e) {
                problem = "receiving on " + hostPort(local) + " failed: " + e.getMessage();
                LockSupport.parkNanos(POLL_NANOS);
                continue;
            }
            if (source == null) {
                receiver.idle(sweep);
                LockSupport.parkNanos(POLL_NANOS);
                continue;
            }
            final long timestamp = WallClock.nanos();
            final InetSocketAddress from = (InetSocketAddress) source;
            if (remote == null) {
                peers.put(from.getAddress().getHostAddress(), from);
            }
            buffer.flip();
            receiver.frame(UdpFraming.frame(buffer.array(), buffer.limit(), from, local, remoteMac, localMac),
                timestamp);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

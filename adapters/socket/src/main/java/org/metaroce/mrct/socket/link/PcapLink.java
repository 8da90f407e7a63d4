package org.metaroce.mrct.socket.link;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.sql.Timestamp;
import java.util.concurrent.locks.LockSupport;
import org.metaroce.mrct.spi.AdapterException;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.PcapStat;

/**
 * A network interface through libpcap (pcap4j 1.8.2, raw bytes only): frames are sent with {@code pcap_inject} on one
 * handle and captured on another with a BPF filter, kernel timestamps (nanoseconds where libpcap allows) and a large
 * kernel buffer (libpcap's default of 2 MiB lost 30 % of a full-rate burst across a veth pair; 256 MiB lost nothing).
 *
 * <p>The capture runs in immediate mode and is read by polling in non-blocking mode: libpcap's read timeout does not
 * fire while no traffic arrives, so a blocking read could not be stopped or tell "nothing came" from "nothing yet".
 * Each empty poll tells the receiver that everything seen before it has been delivered. Every 100 ms the reader
 * checks that the interface is up (and reopens the capture when it comes back) and refreshes the MTU and the drop
 * counts.
 */
public final class PcapLink implements Link {
    /** RoCEv2 frames, tagged or not. */
    public static final String ROCE_FILTER = "udp port 4791 or (vlan and udp port 4791)";
    /** Idle pause between two empty polls. */
    private static final long POLL_NANOS = 20_000;
    private static final long CHECK_NANOS = 100_000_000;

    /**
     * How to capture.
     *
     * @param bufferBytes the kernel capture buffer
     * @param captureOutgoing also capture the frames this host sends (so that the harness sees its own frames on the
     *                        wire); false captures incoming frames only (a device must not hear itself)
     * @param filter the BPF filter, or "" for every frame
     * @param polling read by non-blocking polling, with an {@link FrameReceiver#idle} report after every empty poll
     *                (what the harness needs to know that nothing came by a deadline); false blocks in libpcap for
     *                up to the 1 ms read timeout of immediate mode, which costs far less CPU and garbage (each pcap4j
     *                read allocates) and suits a device, which only needs the frames
     */
    public record Settings(int bufferBytes, boolean captureOutgoing, String filter, boolean polling) {
        /** Both directions, RoCEv2 only, polling. */
        public static Settings harness(final int bufferBytes) {
            return new Settings(bufferBytes, true, ROCE_FILTER, true);
        }

        /**
         * Every incoming frame but TCP ({@code not tcp}): a device must see the broken frames a harness sends it,
         * whose IP or UDP header a port filter would not recognise, and it ignores what is not RoCE; TCP (the
         * agent's own connection when it shares the interface: two segments per request) never is. Polling:
         * blocking reads measured here answered about 1 ms late (the read timeout, not the frame, ended the wait),
         * which is more than a software device's whole budget.
         */
        public static Settings device(final int bufferBytes) {
            return new Settings(bufferBytes, false, "not tcp", true);
        }
    }

    private final String iface;
    private final Settings settings;
    private final FrameReceiver receiver;
    private final long mac;
    private final Object sendLock = new Object();
    private volatile PcapHandle capture;
    private volatile PcapHandle sender;
    private volatile int mtu;
    private volatile String problem;
    private volatile boolean running = true;
    private volatile long dropped;
    private volatile boolean nanosecond;
    private volatile boolean statsWanted;
    private volatile long statsRound;
    private long droppedBeforeReopen;
    private final Thread reader;

    private PcapLink(final String iface, final Settings settings, final FrameReceiver receiver, final long mac,
                     final int mtu) {
        this.iface = iface;
        this.settings = settings;
        this.receiver = receiver;
        this.mac = mac;
        this.mtu = mtu;
        this.reader = new Thread(this::read, "mrct-pcap-" + iface);
        this.reader.setDaemon(true);
    }

    /**
     * Opens {@code iface} for sending and capturing and starts delivering its frames to {@code receiver}.
     *
     * @throws AdapterException when the interface does not exist, libpcap is missing or capturing is not allowed
     */
    public static PcapLink open(final String iface, final Settings settings, final FrameReceiver receiver) {
        final NetworkInterface ni = networkInterface(iface);
        final long mac;
        final int mtu;
        try {
            mac = macOf(ni);
            mtu = ni.getMTU();
        } catch (SocketException e) {
            throw new AdapterException("cannot read the interface " + iface + ": " + e.getMessage(), e);
        }
        final PcapLink link = new PcapLink(iface, settings, receiver, mac, mtu);
        link.openHandles();
        link.reader.start();
        return link;
    }

    private static NetworkInterface networkInterface(final String iface) {
        try {
            final NetworkInterface ni = NetworkInterface.getByName(iface);
            if (ni == null) {
                throw new AdapterException("no network interface named '" + iface + "' here ('ip link' lists them)");
            }
            return ni;
        } catch (SocketException e) {
            throw new AdapterException("cannot look up the interface " + iface + ": " + e.getMessage(), e);
        }
    }

    private static long macOf(final NetworkInterface ni) throws SocketException {
        final byte[] address = ni.getHardwareAddress();
        if (address == null || address.length != 6) {
            return 0;
        }
        long mac = 0;
        for (final byte b : address) {
            mac = mac << 8 | (b & 0xFF);
        }
        return mac;
    }

    private void openHandles() {
        try {
            PcapHandle handle;
            try {
                handle = builder(PcapHandle.TimestampPrecision.NANO).build();
                nanosecond = true;
            } catch (PcapNativeException e) {
                handle = builder(PcapHandle.TimestampPrecision.MICRO).build();
                nanosecond = false;
            }
            if (!settings.filter().isEmpty()) {
                handle.setFilter(settings.filter(), BpfProgram.BpfCompileMode.OPTIMIZE);
            }
            handle.setBlockingMode(settings.polling() ? PcapHandle.BlockingMode.NONBLOCKING
                : PcapHandle.BlockingMode.BLOCKING);
            final PcapHandle out = new PcapHandle.Builder(iface).snaplen(64).bufferSize(1 << 20)
                .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS).timeoutMillis(1)
                .direction(PcapHandle.PcapDirection.IN).build();
            out.setFilter("less 1", BpfProgram.BpfCompileMode.OPTIMIZE);
            capture = handle;
            sender = out;
        } catch (PcapNativeException | NotOpenException e) {
            throw new AdapterException("cannot capture on " + iface + ": " + e.getMessage()
                + (String.valueOf(e.getMessage()).contains("ermi") ? " (capturing needs root or CAP_NET_RAW)" : ""),
                e);
        } catch (LinkageError e) {
            throw new AdapterException("libpcap could not be loaded (on Debian: apt-get install libpcap0.8): " + e, e);
        }
    }

    private PcapHandle.Builder builder(final PcapHandle.TimestampPrecision precision) {
        return new PcapHandle.Builder(iface).snaplen(65_535)
            .promiscuousMode(PcapNetworkInterface.PromiscuousMode.PROMISCUOUS).timeoutMillis(1)
            .bufferSize(settings.bufferBytes()).timestampPrecision(precision).immediateMode(true)
            .direction(settings.captureOutgoing() ? PcapHandle.PcapDirection.INOUT : PcapHandle.PcapDirection.IN);
    }

    /** The interface's MAC (0 when it has none). */
    public long mac() {
        return mac;
    }

    /** The interface's MTU (refreshed every 100 ms). */
    public int mtu() {
        return mtu;
    }

    /** Whether capture timestamps have nanosecond precision (else microseconds). */
    public boolean nanosecondTimestamps() {
        return nanosecond;
    }

    @Override
    public String describe() {
        return "pcap on " + iface;
    }

    @Override
    public boolean seesOwn(final byte[] frame) {
        return settings.captureOutgoing() && ROCE_FILTER.equals(settings.filter()) && passesRoceFilter(frame);
    }

    /**
     * Whether {@link #ROCE_FILTER} lets {@code frame} through, decided as libpcap's compiled filter decides it:
     * EtherType IPv4 (protocol 17, not a later fragment, the UDP ports at IHL words) or IPv6 (next header 17, the
     * ports right after the fixed header), optionally behind one 802.1Q tag, and either UDP port 4791. Frames the
     * harness crafts without these (WIRE cases: other EtherTypes, broken IP headers) are sent all the same, but their
     * presence on the wire cannot be checked.
     */
    static boolean passesRoceFilter(final byte[] frame) {
        int at = 12;
        if (frame.length < at + 2) {
            return false;
        }
        int type = u16(frame, at);
        if (type == 0x8100) {
            at += 4;
            if (frame.length < at + 2) {
                return false;
            }
            type = u16(frame, at);
        }
        final int ip = at + 2;
        final int udp;
        if (type == 0x0800) {
            if (frame.length < ip + 20 || (frame[ip + 9] & 0xFF) != 17 || (u16(frame, ip + 6) & 0x1FFF) != 0) {
                return false;
            }
            udp = ip + (frame[ip] & 0x0F) * 4;
        } else if (type == 0x86DD) {
            if (frame.length < ip + 40 || (frame[ip + 6] & 0xFF) != 17) {
                return false;
            }
            udp = ip + 40;
        } else {
            return false;
        }
        return frame.length >= udp + 4 && (u16(frame, udp) == 4791 || u16(frame, udp + 2) == 4791);
    }

    private static int u16(final byte[] frame, final int at) {
        return (frame[at] & 0xFF) << 8 | (frame[at + 1] & 0xFF);
    }

    @Override
    public long dropped() {
        return dropped;
    }

    @Override
    public void lookNow() {
        LockSupport.unpark(reader);
    }

    @Override
    public String problem() {
        return problem;
    }

    /** The largest frame (without FCS) the kernel sends on this interface. */
    public int largestFrame(final boolean tagged) {
        return mtu + 14 + (tagged ? 4 : 0);
    }

    @Override
    public void send(final byte[] frame) {
        final String down = problem;
        if (down != null) {
            throw new AdapterException(down);
        }
        final boolean tagged = frame.length >= 14 && (frame[12] & 0xFF) == 0x81 && frame[13] == 0;
        if (frame.length > largestFrame(tagged)) {
            throw new AdapterException(tooLong(frame.length, tagged));
        }
        synchronized (sendLock) {
            try {
                sender.sendPacket(frame);
            } catch (PcapNativeException e) {
                final String message = String.valueOf(e.getMessage());
                if (message.contains("too long")) {
                    throw new AdapterException(tooLong(frame.length, tagged), e);
                }
                throw new AdapterException("cannot send on " + iface + ": " + message, e);
            } catch (NotOpenException e) {
                throw new AdapterException("cannot send on " + iface + ": the link is closed", e);
            }
        }
    }

    private String tooLong(final int length, final boolean tagged) {
        return "the kernel refuses frames longer than the MTU of " + iface + " plus the Ethernet header (" + mtu
            + " + " + (tagged ? 18 : 14) + " bytes); this frame has " + length + " bytes: raise the MTU (e.g. 'ip link "
            + "set " + iface + " mtu 4200' for PMTU 4096) on both ends";
    }

    private void read() {
        long lastCheck = WallClock.nanos();
        while (running) {
            final long sweep = WallClock.nanos();
            final PcapHandle handle = capture;
            byte[] raw = null;
            Timestamp timestamp = null;
            try {
                raw = handle.getNextRawPacket();
                if (raw != null) {
                    timestamp = handle.getTimestamp();
                }
            } catch (NotOpenException e) {
                if (!running) {
                    return;
                }
            } catch (RuntimeException e) {
                problem = "capture on " + iface + " failed: " + e;
            }
            if (raw != null && timestamp != null) {
                receiver.frame(raw, Math.floorDiv(timestamp.getTime(), 1000) * 1_000_000_000L + timestamp.getNanos());
                continue;
            }
            if (problem == null) {
                receiver.idle(sweep);
            }
            if (statsWanted || sweep - lastCheck >= CHECK_NANOS) {
                statsWanted = false;
                lastCheck = sweep;
                check(handle);
                statsRound++;
            }
            if (settings.polling()) {
                LockSupport.parkNanos(POLL_NANOS);
            }
        }
    }

    /** Refreshes the drop count, MTU and link state; reopens the capture when the interface came back up. */
    private void check(final PcapHandle handle) {
        try {
            final PcapStat stats = handle.getStats();
            dropped = droppedBeforeReopen + stats.getNumPacketsDropped() + stats.getNumPacketsDroppedByIf();
        } catch (PcapNativeException | NotOpenException | RuntimeException e) {
            // the state check below says what is wrong
        }
        boolean up;
        try {
            final NetworkInterface ni = NetworkInterface.getByName(iface);
            up = ni != null && ni.isUp();
            if (ni != null) {
                mtu = ni.getMTU();
            }
        } catch (SocketException e) {
            up = false;
        }
        if (!up) {
            problem = "the interface " + iface + " is down or gone";
            return;
        }
        if (problem != null) {
            synchronized (sendLock) {
                final PcapHandle oldCapture = capture;
                final PcapHandle oldSender = sender;
                try {
                    droppedBeforeReopen = dropped;
                    openHandles();
                    oldCapture.close();
                    oldSender.close();
                    problem = null;
                } catch (AdapterException e) {
                    problem = "the interface " + iface + " is up again but cannot be reopened: " + e.getMessage();
                }
            }
        }
    }

    /**
     * Fresh drop counts: the reader thread (the only one that touches the capture handle's statistics) refreshes them
     * at its next poll; waits for that 50 ms at most.
     */
    public long droppedNow() {
        final long wanted = statsRound + 1;
        statsWanted = true;
        final long until = System.nanoTime() + 50_000_000;
        while (statsRound < wanted && System.nanoTime() < until && running) {
            LockSupport.parkNanos(POLL_NANOS);
        }
        return dropped;
    }

    @Override
    public void close() {
        running = false;
        try {
            reader.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (sendLock) {
            if (capture != null) {
                capture.close();
            }
            if (sender != null) {
                sender.close();
            }
        }
    }
}

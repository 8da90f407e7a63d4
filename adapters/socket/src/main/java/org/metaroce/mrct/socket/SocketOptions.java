package org.metaroce.mrct.socket;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * How to reach a device outside the JVM. Exactly one of {@code iface} and {@code udpDevice} is set.
 *
 * @param iface the network interface the device is cabled to (raw frames through libpcap), or null
 * @param udpDevice the device's UDP address (UDP mode), or null
 * @param udpBind the harness's own UDP address in UDP mode (port 0: any free port)
 * @param agent where the device's control agent listens
 * @param token the agent's shared token, or null
 * @param agentTimeout how long one agent answer may take
 * @param connectAttempts connection attempts to the agent before a call fails (pauses of 100 ms doubling to 1 s)
 * @param captureBufferBytes the kernel capture buffer (raw interface)
 * @param harnessMac the harness's MAC in frames, or null for the interface's own
 * @param harnessIpv4 the harness's IPv4 address in frames (raw interface; the UDP mode uses the socket's)
 * @param harnessIpv6 the harness's IPv6 address in frames, or null (raw interface)
 */
public record SocketOptions(String iface, InetSocketAddress udpDevice, InetSocketAddress udpBind,
                            InetSocketAddress agent, String token, Duration agentTimeout, int connectAttempts,
                            int captureBufferBytes, Long harnessMac, String harnessIpv4, String harnessIpv6) {
    /** 256 MiB: measured across a veth pair, libpcap's 2 MiB default lost 30 % of a full-rate burst, this nothing. */
    public static final int DEFAULT_CAPTURE_BUFFER = 256 << 20;

    /** Options for a raw interface with the defaults. */
    public static SocketOptions iface(final String iface, final InetSocketAddress agent, final String token) {
        return new SocketOptions(iface, null, null, agent, token, SocketAdapter.DEFAULT_AGENT_TIMEOUT, 5,
            DEFAULT_CAPTURE_BUFFER, null, SocketAdapter.DEFAULT_HARNESS_IPV4, SocketAdapter.DEFAULT_HARNESS_IPV6);
    }

    /** Options for the UDP mode with the defaults. */
    public static SocketOptions udp(final InetSocketAddress device, final InetSocketAddress agent, final String token) {
        return new SocketOptions(null, device, new InetSocketAddress(0), agent, token,
            SocketAdapter.DEFAULT_AGENT_TIMEOUT, 5, DEFAULT_CAPTURE_BUFFER, null, null, null);
    }

    public SocketOptions withAgentTimeout(final Duration timeout, final int attempts) {
        return new SocketOptions(iface, udpDevice, udpBind, agent, token, timeout, attempts, captureBufferBytes,
            harnessMac, harnessIpv4, harnessIpv6);
    }

    public SocketOptions withCaptureBuffer(final int bytes) {
        return new SocketOptions(iface, udpDevice, udpBind, agent, token, agentTimeout, connectAttempts, bytes,
            harnessMac, harnessIpv4, harnessIpv6);
    }

    public SocketOptions withHarness(final Long mac, final String ipv4, final String ipv6) {
        return new SocketOptions(iface, udpDevice, udpBind, agent, token, agentTimeout, connectAttempts,
            captureBufferBytes, mac, ipv4, ipv6);
    }

    public SocketOptions withUdpBind(final InetSocketAddress bind) {
        return new SocketOptions(iface, udpDevice, bind, agent, token, agentTimeout, connectAttempts,
            captureBufferBytes, harnessMac, harnessIpv4, harnessIpv6);
    }
}

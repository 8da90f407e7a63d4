package org.metaroce.mrct.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.socket.agent.AgentLimits;
import org.metaroce.mrct.socket.agent.AgentRoundTripTest;
import org.metaroce.mrct.socket.agent.AgentServer;
import org.metaroce.mrct.socket.agent.FakeDevice;
import org.metaroce.mrct.socket.link.UdpFraming;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The UDP mode over loopback against a small UDP device of the test's own: it checks the ICRC of every datagram over
 * the datagram's own headers and answers each with an ACKNOWLEDGE for the same PSN.
 */
class UdpModeTest {
    private final List<DecodedFrame> heard = new CopyOnWriteArrayList<>();
    /** Datagrams too short for a BTH: the harness's greeting (PROTOCOL.md, UDP mode), which a device drops. */
    private final java.util.concurrent.atomic.AtomicInteger greetings = new java.util.concurrent.atomic.AtomicInteger();
    private DatagramChannel device;
    private Thread deviceThread;
    private AgentServer agent;
    private SocketAdapter adapter;

    @BeforeEach
    void start() throws IOException {
        device = DatagramChannel.open();
        device.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        final InetSocketAddress self = (InetSocketAddress) device.getLocalAddress();
        deviceThread = new Thread(() -> serve(self), "udp-test-device");
        deviceThread.setDaemon(true);
        deviceThread.start();
        agent = new AgentServer(new FakeDevice(), AgentRoundTripTest.INFO, AgentLimits.DEFAULTS, null, line -> { });
        final InetSocketAddress agentAddress = agent.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        adapter = SocketAdapter.open(SocketOptions.udp(self, agentAddress, null));
    }

    private void serve(final InetSocketAddress self) {
        final ByteBuffer buffer = ByteBuffer.allocate(65_536);
        try {
            while (true) {
                buffer.clear();
                final InetSocketAddress from = (InetSocketAddress) device.receive(buffer);
                buffer.flip();
                if (buffer.limit() < 12) {
                    greetings.incrementAndGet();
                    continue;
                }
                final byte[] frame = UdpFraming.frame(buffer.array(), buffer.limit(), from, self, 1, 2);
                final DecodedFrame f = new FrameDecoder().decode(ByteBuffer.wrap(frame), 0, frame.length).copy();
                heard.add(f);
                final byte[] ack = FrameBuilder.of(Encapsulation.ipv4(self.getAddress().getHostAddress(),
                    from.getAddress().getHostAddress()), Opcode.ACKNOWLEDGE).psn(f.bth().psn())
                    .destQp(0x77).build();
                device.send(ByteBuffer.wrap(UdpFraming.payload(ack, self, from)), from);
            }
        } catch (IOException e) {
            // closed by the test
        }
    }

    @AfterEach
    void stop() throws IOException {
        if (adapter != null) {
            adapter.close();
        }
        agent.close();
        device.close();
    }

    @Test
    void capabilitiesAreHonest() {
        assertThat(adapter.name()).isEqualTo("socket");
        assertThat(adapter.capabilities()).containsExactlyInAnyOrder(Capability.MEMORY_READBACK,
            Capability.COUNTERS);
        assertThat(adapter.capabilities()).doesNotContain(Capability.VIRTUAL_TIME, Capability.ECN_READ,
            Capability.RAW_FRAMES, Capability.L2_CONTROL, Capability.IPV6);
        final Endpoints endpoints = adapter.endpoints();
        assertThat(endpoints.deviceIpv4()).isEqualTo("127.0.0.1");
        assertThat(endpoints.harnessIpv4()).isEqualTo("127.0.0.1");
        assertThat(endpoints.deviceIpv6()).isNull();
        assertThat(endpoints.deviceMac()).isEqualTo(AgentRoundTripTest.INFO.mac());
        assertThat(adapter.identity().vendor()).isEqualTo("Acme");
    }

    @Test
    void framesTravelBothWaysWithValidIcrcsAndRealTimestamps() {
        final Endpoints e = adapter.endpoints();
        final Encapsulation out = Encapsulation.ipv4(e.harnessIpv4(), e.deviceIpv4())
            .withMacs(e.harnessMac(), e.deviceMac()).withUdpSourcePort(0xC001);
        final long before = adapter.dataPlane().now();
        for (int psn = 10; psn < 13; psn++) {
            adapter.dataPlane().send(FrameBuilder.of(out, Opcode.SEND_ONLY).payload(new byte[100]).psn(psn)
                .destQp(0x100).build());
        }
        for (int psn = 10; psn < 13; psn++) {
            final CapturedFrame frame = adapter.dataPlane().poll(adapter.dataPlane().now() + 5_000_000_000L);
            assertThat(frame).as("the ACK for PSN " + psn).isNotNull();
            final DecodedFrame f = new FrameDecoder().decode(ByteBuffer.wrap(frame.unsafeBytes()), 0,
                frame.unsafeBytes().length);
            assertThat(f.opcode()).isEqualTo(Opcode.ACKNOWLEDGE);
            assertThat(f.bth().psn()).isEqualTo(psn);
            assertThat(f.icrcValid()).isTrue();
            assertThat(f.eth().destination()).isEqualTo(e.harnessMac());
            assertThat(frame.timestampNanos()).isBetween(before, adapter.dataPlane().now());
        }
        assertThat(heard).hasSize(3).allSatisfy(f -> assertThat(f.icrcValid()).isTrue());
        assertThat(greetings).as("the harness greets the device once, so that a device speaking first knows its port")
            .hasValue(1);
        final long deadline = adapter.dataPlane().now() + 3_000_000;
        assertThat(adapter.dataPlane().poll(deadline)).isNull();
        assertThat(adapter.dataPlane().now()).isGreaterThanOrEqualTo(deadline);
        assertThat(adapter.evidenceProblem()).isNull();
    }

    @Test
    void aFrameTheModeCannotCarryIsUnsupportedWithTheReason() {
        final Endpoints e = adapter.endpoints();
        final byte[] tagged = FrameBuilder.of(Encapsulation.ipv4(e.harnessIpv4(), e.deviceIpv4()).withVlan(5, 0),
            Opcode.SEND_ONLY).build();
        assertThatThrownBy(() -> adapter.dataPlane().send(tagged)).isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("VLAN").hasMessageContaining("--iface");
    }

    @Test
    void theControlPlaneIsTheAgents() {
        adapter.beginCase("X");
        adapter.controlPlane().reset();
        assertThat(adapter.controlPlane().allocatePd()).isEqualTo(7);
        assertThat(adapter.agentInfo().identity().model()).isEqualTo("NIC 9");
    }
}

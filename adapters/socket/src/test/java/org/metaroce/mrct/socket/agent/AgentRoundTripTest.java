package org.metaroce.mrct.socket.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.DeviceIdentity;
import org.metaroce.mrct.spi.DeviceTimeline;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;

/** Every control-plane operation travels through the agent protocol and comes back unchanged. */
public class AgentRoundTripTest {
    public static final AgentInfo INFO = new AgentInfo(1, new DeviceIdentity("Acme", "NIC 9", "4.2"), 0x02_00_00_00_00_0DL,
        "198.51.100.2", "2001:db8::2", EnumSet.of(Capability.MEMORY_READBACK, Capability.COUNTERS,
            Capability.VIRTUAL_TIME));

    private final FakeDevice device = new FakeDevice();
    private final List<String> log = new ArrayList<>();
    private AgentServer server;
    private AgentClient client;

    @BeforeEach
    void start() throws Exception {
        server = new AgentServer(device, INFO, AgentLimits.DEFAULTS, "s3cret", line -> {
            synchronized (log) {
                log.add(line);
            }
        });
        final InetSocketAddress address = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        client = new AgentClient(address, "s3cret", Duration.ofSeconds(5), 2);
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void helloCarriesIdentityEndpointsAndCapabilities() {
        final AgentInfo info = client.hello();
        assertThat(info.version()).isEqualTo(1);
        assertThat(info.identity()).isEqualTo(INFO.identity());
        assertThat(info.mac()).isEqualTo(0x02_00_00_00_00_0DL);
        assertThat(info.ipv4()).isEqualTo("198.51.100.2");
        assertThat(info.ipv6()).isEqualTo("2001:db8::2");
        assertThat(info.capabilities()).containsExactlyInAnyOrder(Capability.MEMORY_READBACK, Capability.COUNTERS,
            Capability.VIRTUAL_TIME);
    }

    @Test
    void qpAttributesOfEveryTypeRoundTrip() {
        final QpAttributes attributes = QpAttributes.empty().with(QpAttribute.PMTU, 4096)
            .with(QpAttribute.RTO_LOW_NS, 123_456_789_012L).with(QpAttribute.DCQCN_G, 0.00390625)
            .with(QpAttribute.SPRAY, true).with(QpAttribute.DEST_IP, "2001:db8::1")
            .with(QpAttribute.DEST_MAC, 0x02_00_00_00_00_0AL).with(QpAttribute.SQ_PSN, 0xFFFFFF)
            .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE, Access.REMOTE_ATOMIC))
            .with(QpAttribute.PKEY, 0xFFFF);
        final int qpn = client.createQp(attributes);
        assertThat(qpn).isEqualTo(0x100);
        assertThat(device.lastAttributes).isEqualTo(attributes);
        client.modifyQp(qpn, QpState.RTR, QpAttributes.empty().with(QpAttribute.RQ_PSN, 5));
        assertThat(device.calls).contains("modifyQp 100 RTR");
        assertThat(device.lastAttributes.getInt(QpAttribute.RQ_PSN, -1)).isEqualTo(5);
        assertThat(client.queryQp(qpn)).isEqualTo(QpState.RTS);
        client.destroyQp(qpn);
        assertThat(device.calls).contains("destroyQp 100");
    }

    @Test
    void memoryRegionsKeysAndSixtyFourBitAddressesRoundTrip() {
        assertThat(client.allocatePd()).isEqualTo(7);
        final MemoryRegion mr = client.registerMr(7, 65_536, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ));
        assertThat(mr.va()).isEqualTo(0xFFFF_8000_0000_1000L);
        assertThat(mr.length()).isEqualTo(65_536);
        assertThat(mr.rkey()).isEqualTo(0x1000 | 0x8000_0000);
        assertThat(mr.access()).containsExactlyInAnyOrder(Access.LOCAL_WRITE, Access.REMOTE_READ);
        client.invalidateRkey(mr.rkey());
        assertThat(device.calls).contains("invalidateRkey 80001000");
        client.deregisterMr(mr.lkey());
        assertThat(device.calls).contains("deregisterMr 1000");
    }

    @Test
    void workRequestsAndCompletionsRoundTrip() {
        client.postReceive(0x100, new ReceiveWqe(-2L, 0xFFFF_8000_0000_1000L, 4096, 0x1000));
        assertThat(device.lastReceive).isEqualTo(new ReceiveWqe(-2L, 0xFFFF_8000_0000_1000L, 4096, 0x1000));
        final SendWqe send = new SendWqe(Long.MIN_VALUE, WorkOpcode.COMPARE_SWAP, 0x1000, 8, 0x1000,
            0xFFFF_FFFF_FFFF_FFF8L, 0xDEAD_BEEF, 0x8000_0001, -1L, 0x0123_4567_89AB_CDEFL, true);
        client.postSend(0x100, send);
        assertThat(device.lastSend).isEqualTo(send);
        final Completion withImmediate = new Completion(0x100, 42, WorkOpcode.RECV_RDMA_WITH_IMM,
            CompletionStatus.SUCCESS, 3000, 0xCAFE_F00D, true, 0, false, true, 1_700_000_000_000_000_000L);
        final Completion invalidated = new Completion(0x100, -1L, WorkOpcode.RECV, CompletionStatus.LOCAL_ACCESS_ERROR,
            0, 0, false, 0x8000_0000, true, false, 5);
        device.completions = List.of(withImmediate, invalidated);
        assertThat(client.pollCompletions(0x100, 64)).containsExactly(withImmediate, invalidated);
        assertThat(device.calls).contains("pollCompletions 64");
    }

    @Test
    void memoryTravelsInBase64BothWays() {
        final byte[] data = new byte[70_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 31 + 7);
        }
        client.writeMemory(0xFFFF_8000_0000_1000L, data);
        assertThat(device.lastWrite).isEqualTo(data);
        assertThat(device.lastVa).isEqualTo(0xFFFF_8000_0000_1000L);
        final byte[] read = client.readMemory(0x10, 1000);
        assertThat(read).hasSize(1000);
        assertThat(read[999]).isEqualTo((byte) (999 * 7));
        assertThat(client.readMemory(0x10, 0)).isEmpty();
    }

    @Test
    void everyRequestWaitsAtTheBarrierForWhatArrivedBeforeIt() {
        final List<Long> arrivals = new ArrayList<>();
        server.withBarrier(arrival -> {
            arrivals.add(arrival);
            device.calls.add("barrier");
        });
        final long before = org.metaroce.mrct.socket.link.WallClock.nanos();
        client.allocatePd();
        client.reset();
        assertThat(device.calls).containsExactly("barrier", "allocatePd", "barrier", "reset");
        assertThat(arrivals).hasSize(2).allSatisfy(a -> assertThat(a).isGreaterThanOrEqualTo(before));
    }

    @Test
    void aSoftwareDeviceReportsItsOwnTimelineOnlyWhereItOffersTo() {
        assertThat(client.offersDeviceTimeline()).as("nothing offered: a hardware device's agent").isFalse();
        assertThatThrownBy(client::deviceTimeline).hasMessageContaining("unknown op 'deviceTimeline'");

        client.close();
        server.withDeviceTimeline(() -> new DeviceTimeline(7_500_000, "a timer ran after it fell due by", 3, 2));
        client = new AgentClient(server.address(), "s3cret", Duration.ofSeconds(5), 2);
        assertThat(client.offersDeviceTimeline()).isTrue();
        assertThat(client.hello().capabilities()).as("not an adapter capability")
            .containsExactlyInAnyOrder(Capability.MEMORY_READBACK, Capability.COUNTERS, Capability.VIRTUAL_TIME);
        assertThat(client.deviceTimeline())
            .isEqualTo(new DeviceTimeline(7_500_000, "a timer ran after it fell due by", 3, 2));
    }

    @Test
    void aTimelineThatIsNotCountsIsRefusedByName() {
        client.close();
        server.withDeviceTimeline(() -> new DeviceTimeline(-1, "", 0, 0));
        client = new AgentClient(server.address(), "s3cret", Duration.ofSeconds(5), 2);
        assertThatThrownBy(client::deviceTimeline).isInstanceOf(AdapterException.class)
            .hasMessageContaining("answered deviceTimeline with worst_late_ns = -1, not a count");
    }

    @Test
    void countersAndReset() {
        assertThat(client.counters()).containsEntry("drop_bad_icrc", 3L);
        assertThat(client.qpCounters(0x100)).containsEntry("ack_sent", 2L);
        client.reset();
        assertThat(device.calls).contains("reset");
    }

    @Test
    void rejectedTravelsAsRejectedAndUnsupportedAsUnsupported() {
        assertThatThrownBy(() -> client.readMemory(0, 2 << 20)).isInstanceOf(RejectedException.class)
            .hasMessage("outside every region");
        device.failure = new UnsupportedOperationException("no requester here");
        assertThatThrownBy(() -> client.postSend(1, new SendWqe(1, WorkOpcode.SEND, 0, 0, 0, 0, 0, 0, 0, 0, true)))
            .isInstanceOf(UnsupportedOperationException.class).hasMessage("no requester here");
        device.failure = new RejectedException("transition RESET to RTS is not allowed");
        assertThatThrownBy(() -> client.modifyQp(1, QpState.RTS, QpAttributes.empty()))
            .isInstanceOf(RejectedException.class).hasMessageContaining("RESET to RTS");
        device.failure = null;
        assertThat(client.allocatePd()).isEqualTo(7);
    }

    @Test
    void aDeviceFailureIsAnInternalErrorAndTheAgentGoesOn() {
        device.failure = new IllegalStateException("firmware assertion 17");
        assertThatThrownBy(client::allocatePd).isInstanceOf(AdapterException.class)
            .hasMessageContaining("internal").hasMessageContaining("firmware assertion 17");
        device.failure = null;
        assertThat(client.allocatePd()).isEqualTo(7);
        assertThat(client.connections()).isEqualTo(1);
    }

    @Test
    void eachConnectionIsLoggedWhenItOpensAndWhenItCloses() throws Exception {
        client.allocatePd();
        client.close();
        final long until = System.nanoTime() + 120_000_000_000L; // a hang guard: the server logs from its own thread
        while (System.nanoTime() < until) {
            synchronized (log) {
                if (log.size() >= 2) {
                    break;
                }
            }
            Thread.sleep(10);
        }
        synchronized (log) {
            assertThat(log).hasSize(2);
            assertThat(log.get(0)).contains("client #1").contains("connected");
            assertThat(log.get(1)).contains("client #1").contains("disconnected").contains("2 request(s)");
        }
    }
}

package org.metaroce.mrct.socket.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.AdapterException;

/** A lost agent connection costs the call in flight only; the next call connects again and says hello again. */
class AgentReconnectTest {
    @Test
    void aDroppedConnectionFailsOneCallAndTheNextReconnects() throws Exception {
        final FakeDevice device = new FakeDevice();
        final AgentServer first = new AgentServer(device, AgentRoundTripTest.INFO, AgentLimits.DEFAULTS, "t",
            line -> { });
        final InetSocketAddress address = first.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        try (AgentClient client = new AgentClient(address, "t", Duration.ofSeconds(5), 5)) {
            assertThat(client.allocatePd()).isEqualTo(7);
            first.close();
            assertThatThrownBy(client::allocatePd).isInstanceOf(AdapterException.class)
                .hasMessageContaining(":" + address.getPort() + ": connection lost during allocatePd");
            final AgentServer second = new AgentServer(device, AgentRoundTripTest.INFO, AgentLimits.DEFAULTS, "t",
                line -> { });
            second.start(address);
            try {
                assertThat(client.allocatePd()).isEqualTo(7);
                assertThat(client.connections()).isEqualTo(2);
                assertThat(second.connections()).isEqualTo(1);
            } finally {
                second.close();
            }
            final long start = System.nanoTime();
            assertThatThrownBy(client::reset).isInstanceOf(AdapterException.class);
            assertThatThrownBy(client::reset).isInstanceOf(AdapterException.class)
                .hasMessageContaining("after 5 attempt(s)");
            assertThat(System.nanoTime() - start).as("bounded reconnection").isLessThan(15_000_000_000L);
        }
    }
}

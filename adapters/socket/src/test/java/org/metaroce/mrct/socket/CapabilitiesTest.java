package org.metaroce.mrct.socket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.socket.agent.AgentInfo;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.DeviceIdentity;

/** What the socket adapter claims, from what the agent declares and what the link can do. */
class CapabilitiesTest {
    private static AgentInfo agent(final String ipv6, final Capability... declared) {
        return new AgentInfo(1, new DeviceIdentity("v", "m", "f"), 2, "198.51.100.2", ipv6,
            declared.length == 0 ? EnumSet.noneOf(Capability.class) : EnumSet.of(declared[0], declared));
    }

    @Test
    void neverVirtualTimeWhateverTheAgentSays() {
        assertThat(SocketAdapter.capabilities(agent(null, Capability.VIRTUAL_TIME), true, true))
            .doesNotContain(Capability.VIRTUAL_TIME);
        assertThat(SocketAdapter.capabilities(agent(null, Capability.VIRTUAL_TIME), false, false))
            .doesNotContain(Capability.VIRTUAL_TIME);
    }

    @Test
    void aRawInterfaceAddsFramingAndEcnAndIpv6WhenBothEndsHaveIt() {
        assertThat(SocketAdapter.capabilities(agent("2001:db8::2", Capability.MEMORY_READBACK, Capability.COUNTERS),
            true, true)).containsExactlyInAnyOrder(Capability.MEMORY_READBACK, Capability.COUNTERS,
                Capability.RAW_FRAMES, Capability.ECN_READ, Capability.ECN_WRITE, Capability.L2_CONTROL,
                Capability.IPV6);
        assertThat(SocketAdapter.capabilities(agent(null), true, true)).doesNotContain(Capability.IPV6);
        assertThat(SocketAdapter.capabilities(agent("2001:db8::2"), true, false)).doesNotContain(Capability.IPV6);
    }

    @Test
    void theUdpModeAddsNothingAndKeepsWhatTheAgentDeclares() {
        assertThat(SocketAdapter.capabilities(agent("2001:db8::2", Capability.MEMORY_WRITE, Capability.COMPLETIONS,
            Capability.ECN_READ, Capability.RAW_FRAMES, Capability.IPV6), false, false))
            .as("link capabilities are the link's, not the agent's")
            .containsExactlyInAnyOrder(Capability.MEMORY_WRITE, Capability.COMPLETIONS);
    }
}

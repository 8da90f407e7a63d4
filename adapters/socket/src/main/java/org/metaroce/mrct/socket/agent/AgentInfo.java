package org.metaroce.mrct.socket.agent;

import java.util.EnumSet;
import java.util.Set;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.DeviceIdentity;

/**
 * What an agent says about its device in answer to {@code hello}.
 *
 * @param version the protocol version the agent speaks
 * @param identity the device's vendor, model and firmware
 * @param mac the device port's MAC (low 48 bits)
 * @param ipv4 the device's IPv4 address, or null
 * @param ipv6 the device's IPv6 address, or null
 * @param capabilities what the device's control plane can do (memory read-back and write, counters, completions,
 *                     requester control, scale); the data-plane capabilities are the harness's own
 */
public record AgentInfo(int version, DeviceIdentity identity, long mac, String ipv4, String ipv6,
                        Set<Capability> capabilities) {
    public AgentInfo {
        capabilities = capabilities.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(capabilities));
    }
}

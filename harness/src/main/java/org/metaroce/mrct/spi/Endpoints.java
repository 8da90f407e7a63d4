package org.metaroce.mrct.spi;

/**
 * Addresses of the two ends of the link: the device under test and the harness (which plays the peer).
 *
 * @param deviceMac the device's MAC (low 48 bits)
 * @param deviceIpv4 the device's IPv4 address
 * @param deviceIpv6 the device's IPv6 address, or null when it has none
 * @param harnessMac the harness's MAC
 * @param harnessIpv4 the harness's IPv4 address
 * @param harnessIpv6 the harness's IPv6 address, or null
 */
public record Endpoints(long deviceMac, String deviceIpv4, String deviceIpv6, long harnessMac, String harnessIpv4,
                        String harnessIpv6) {
}

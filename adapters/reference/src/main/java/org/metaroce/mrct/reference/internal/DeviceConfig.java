package org.metaroce.mrct.reference.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.reference.Fault;

/**
 * The reference NIC's port addresses, PICS claims, declared parameters and faults.
 *
 * @param mac port MAC
 * @param ipv4 port IPv4 address (4 bytes)
 * @param ipv6 port IPv6 address (16 bytes)
 * @param pics claimed PICS items
 * @param parameters declared parameters (Appendix B names; Long, Double or String values)
 * @param faults deviations turned on
 */
public record DeviceConfig(long mac, byte[] ipv4, byte[] ipv6, Set<String> pics, Map<String, Object> parameters,
                           Set<Fault> faults) {
    public DeviceConfig {
        ipv4 = ipv4.clone();
        ipv6 = ipv6.clone();
        pics = Set.copyOf(pics);
        parameters = Map.copyOf(parameters);
        faults = faults.isEmpty() ? java.util.EnumSet.noneOf(Fault.class) : java.util.EnumSet.copyOf(faults);
    }

    /** A numeric parameter, or {@code fallback} when it is not declared. */
    public long number(final String name, final long fallback) {
        final Object value = parameters.get(name);
        return value instanceof Number n ? n.longValue() : fallback;
    }

    /** A ratio parameter. */
    public double ratio(final String name, final double fallback) {
        final Object value = parameters.get(name);
        return value instanceof Number n ? n.doubleValue() : fallback;
    }

    /** A word parameter. */
    public String word(final String name, final String fallback) {
        final Object value = parameters.get(name);
        return value == null ? fallback : value.toString();
    }

    public boolean claims(final String item) {
        return pics.contains(item);
    }

    public boolean has(final Fault fault) {
        return faults.contains(fault);
    }

    /** Parses an IP address literal. */
    public static byte[] address(final String text) {
        // literals only: a host name would be looked up in DNS, which can stall for seconds (and a device's control
        // plane is called with its lock held); InetAddress parses a literal without any lookup
        if (text == null || !(text.indexOf(':') >= 0 ? text.matches("[0-9A-Fa-f:.]+") && text.length() <= 45
            : text.matches("(\\d{1,3}\\.){3}\\d{1,3}"))) {
            throw new IllegalArgumentException("not an IP address literal (host names are not looked up): " + text);
        }
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + text, e);
        }
    }
}

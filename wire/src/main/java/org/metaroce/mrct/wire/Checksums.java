package org.metaroce.mrct.wire;

import java.nio.ByteBuffer;

/** Internet checksums (RFC 1071) of UDP over IPv4 and IPv6. */
public final class Checksums {
    private Checksums() {
    }

    /** RFC 1071 checksum of the IPv4 header at {@code ip} (IHL words), taking the checksum field as it is. */
    public static int ipv4Header(final ByteBuffer buffer, final int ip) {
        final int length = (buffer.get(ip) & 0xF) * 4;
        int sum = 0;
        for (int i = 0; i < length; i += 2) {
            sum += BigEndian.u16(buffer, ip + i);
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }

    /**
     * The one's complement sum over the pseudo-header, UDP header and payload, folded and complemented. A packet whose
     * checksum field is right yields 0; to compute the field, call this with the field zeroed and store the result
     * (0xFFFF when it is 0).
     */
    public static int udp(final ByteBuffer buffer, final int ipOffset, final boolean ipv6, final int udpOffset) {
        final int udpLength = BigEndian.u16(buffer, udpOffset + 4);
        long sum = 0;
        if (ipv6) {
            for (int i = 8; i < 40; i += 2) {
                sum += BigEndian.u16(buffer, ipOffset + i);
            }
        } else {
            for (int i = 12; i < 20; i += 2) {
                sum += BigEndian.u16(buffer, ipOffset + i);
            }
        }
        sum += 17 + udpLength;
        final int end = udpOffset + udpLength;
        int i = udpOffset;
        for (; i + 1 < end; i += 2) {
            sum += BigEndian.u16(buffer, i);
        }
        if (i < end) {
            sum += (buffer.get(i) & 0xFF) << 8;
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return (int) (~sum & 0xFFFF);
    }
}

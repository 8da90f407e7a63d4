package org.metaroce.mrct.socket.link;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Datagrams the kernel dropped for one UDP socket because its receive buffer was full: the {@code drops} column of
 * Linux's {@code /proc/net/udp} for the socket's local address. Java's socket API has no way to ask (SO_RXQ_OVFL is
 * not exposed), and a datagram dropped there never reaches the reader, so a case would count it as lost by the device.
 * Where the table cannot be read (not Linux), nothing is known and 0 is reported.
 */
final class KernelUdpDrops {
    private static final Path TABLE = Path.of("/proc/net/udp");

    private KernelUdpDrops() {
    }

    /** The drops of the socket bound to {@code local} as the kernel reports them now, or -1 when unknown. */
    static long of(final InetSocketAddress local) {
        try {
            return parse(Files.readString(TABLE, StandardCharsets.US_ASCII), local);
        } catch (IOException | RuntimeException unreadable) {
            return -1;
        }
    }

    /**
     * The drops of the socket bound to {@code local} in {@code table} (the text of /proc/net/udp), or -1 when no line
     * is that socket's. The table gives each local address as the IPv4 address in host byte order and the port, both
     * in hex ({@code 0100007F:C09F} is 127.0.0.1:49311 on a little-endian host); the drops are the last column. A socket
     * bound to the wildcard address is matched too.
     */
    static long parse(final String table, final InetSocketAddress local) {
        if (!(local.getAddress() instanceof Inet4Address)) {
            return -1;
        }
        final byte[] ip = local.getAddress().getAddress();
        final String port = String.format(Locale.ROOT, "%04X", local.getPort());
        final String littleEndian = String.format(Locale.ROOT, "%02X%02X%02X%02X", ip[3], ip[2], ip[1], ip[0]);
        final String bigEndian = String.format(Locale.ROOT, "%02X%02X%02X%02X", ip[0], ip[1], ip[2], ip[3]);
        long drops = -1;
        for (final String line : table.split("\n")) {
            final String[] columns = line.trim().split("\\s+");
            if (columns.length < 13 || !columns[0].endsWith(":")) {
                continue;
            }
            final int colon = columns[1].indexOf(':');
            if (colon < 0 || !columns[1].substring(colon + 1).equalsIgnoreCase(port)) {
                continue;
            }
            final String address = columns[1].substring(0, colon);
            if (address.equalsIgnoreCase(littleEndian) || address.equalsIgnoreCase(bigEndian)
                || address.equals("00000000")) {
                drops = Math.max(0, drops) + Long.parseLong(columns[columns.length - 1]);
            }
        }
        return drops;
    }
}

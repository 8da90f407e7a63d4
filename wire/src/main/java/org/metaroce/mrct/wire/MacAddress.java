package org.metaroce.mrct.wire;

import java.util.HexFormat;

/**
 * A 48-bit Ethernet MAC address held in the low bits of a {@code long}, as the codec, the reports, the evidence file
 * and the control-agent protocol all write it: six lower-case hex pairs separated by colons,
 * {@code 02:00:00:00:00:0a}. The one place that formats and parses that text (with the JDK's {@link HexFormat}).
 */
public final class MacAddress {
    /** What {@link #parse} answers for text that is not a MAC address. */
    public static final long NONE = -1;

    private static final HexFormat COLONS = HexFormat.ofDelimiter(":");
    private static final HexFormat DASHES = HexFormat.ofDelimiter("-");
    private static final int OCTETS = 6;

    private MacAddress() {
    }

    /** {@code aa:bb:cc:dd:ee:ff} (lower case) for the low 48 bits of {@code mac}. */
    public static String format(final long mac) {
        final byte[] octets = new byte[OCTETS];
        for (int i = 0; i < OCTETS; i++) {
            octets[i] = (byte) (mac >>> (8 * (OCTETS - 1 - i)));
        }
        return COLONS.formatHex(octets);
    }

    /**
     * The address written as six pairs of hex digits (either case) separated by {@code :} or {@code -} (one kind
     * throughout), surrounding blanks ignored; {@link #NONE} for anything else, {@code null} included.
     */
    public static long parse(final String text) {
        if (text == null) {
            return NONE;
        }
        final String mac = text.strip();
        if (mac.length() != 3 * OCTETS - 1) {
            return NONE;
        }
        final byte[] octets;
        try {
            octets = (mac.charAt(2) == '-' ? DASHES : COLONS).parseHex(mac);
        } catch (IllegalArgumentException notHex) {
            return NONE;
        }
        long value = 0;
        for (final byte octet : octets) {
            value = value << 8 | (octet & 0xFF);
        }
        return value;
    }
}

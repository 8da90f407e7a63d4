package org.metaroce.mrct.wire;

import java.util.Locale;

/**
 * AETH.Syndrome as an open enum: all 256 byte values have an interned instance and unassigned codes decode as
 * {@code UNKNOWN(0xNN)} without throwing.
 *
 * <pre>
 *   7   6 5   4 3 2 1 0
 * +---+-----+-----------+
 * | 0 | type|   value   |   type: 00 ACK (value = credit code), 01 RNR NAK (value = timer code),
 * +---+-----+-----------+         10 reserved, 11 NAK (value = NAK code)
 * </pre>
 */
public final class AethSyndrome {
    /** The kind of acknowledgement a syndrome encodes. */
    public enum Type { ACK, RNR_NAK, RESERVED, NAK }

    private static final AethSyndrome[] TABLE = new AethSyndrome[256];

    static {
        for (int value = 0; value < 256; value++) {
            TABLE[value] = new AethSyndrome(value);
        }
    }

    /** ACK with the credit field set to "invalid" (0x1F): the only ACK MetaRoCE v1 sends. */
    public static final AethSyndrome ACK = TABLE[0x1F];
    /** NAK: PSN sequence error (legacy RoCEv2 only). */
    public static final AethSyndrome NAK_PSN_SEQUENCE_ERROR = TABLE[0x60];
    /** NAK: invalid request. */
    public static final AethSyndrome NAK_INVALID_REQUEST = TABLE[0x61];
    /** NAK: remote access error. */
    public static final AethSyndrome NAK_REMOTE_ACCESS_ERROR = TABLE[0x62];
    /** NAK: remote operational error. */
    public static final AethSyndrome NAK_REMOTE_OPERATIONAL_ERROR = TABLE[0x63];
    /** NAK: invalid RD request (unused by RC). */
    public static final AethSyndrome NAK_INVALID_RD_REQUEST = TABLE[0x64];

    private final int value;
    private final Type type;
    private final String name;

    private AethSyndrome(final int value) {
        this.value = value;
        this.type = (value & 0x80) != 0 ? Type.RESERVED : Type.values()[(value >>> 5) & 0x3];
        this.name = nameOf(value, type);
    }

    private static String nameOf(final int value, final Type type) {
        final int low = value & 0x1F;
        switch (type) {
            case ACK:
                return low == 0x1F ? "ACK" : String.format(Locale.ROOT, "ACK(credit=%d)", low);
            case RNR_NAK:
                return String.format(Locale.ROOT, "RNR_NAK(timer=%d)", low);
            case NAK:
                switch (low) {
                    case 0:
                        return "NAK_PSN_SEQUENCE_ERROR";
                    case 1:
                        return "NAK_INVALID_REQUEST";
                    case 2:
                        return "NAK_REMOTE_ACCESS_ERROR";
                    case 3:
                        return "NAK_REMOTE_OPERATIONAL_ERROR";
                    case 4:
                        return "NAK_INVALID_RD_REQUEST";
                    default:
                        return String.format(Locale.ROOT, "UNKNOWN(0x%02X)", value);
                }
            default:
                return String.format(Locale.ROOT, "UNKNOWN(0x%02X)", value);
        }
    }

    /** The syndrome for a byte value; never null, never throws. */
    public static AethSyndrome valueOf(final int value) {
        return TABLE[value & 0xFF];
    }

    /** RNR NAK with the given timer code (0..31). */
    public static AethSyndrome rnrNak(final int timerCode) {
        return TABLE[0x20 | (timerCode & 0x1F)];
    }

    /** The byte value. */
    public int value() {
        return value;
    }

    /** ACK, RNR NAK, NAK or reserved. */
    public Type type() {
        return type;
    }

    /** The low five bits: credit code, RNR timer code or NAK code. */
    public int code() {
        return value & 0x1F;
    }

    /** True for the NAK codes 0x60..0x64 and every ACK and RNR NAK; false for reserved encodings. */
    public boolean isKnown() {
        return type == Type.ACK || type == Type.RNR_NAK || (type == Type.NAK && code() <= 4);
    }

    /** Name such as {@code ACK}, {@code RNR_NAK(timer=14)}, {@code NAK_REMOTE_ACCESS_ERROR}. */
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}

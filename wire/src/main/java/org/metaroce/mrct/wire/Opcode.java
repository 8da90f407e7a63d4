package org.metaroce.mrct.wire;

import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * BTH.OpCode as an open enum: every one of the 256 byte values has an instance, and a value that no specification
 * assigns decodes as {@code UNKNOWN(0xNN)} instead of throwing. Instances are interned, so {@code ==} works.
 *
 * <p>Names follow the RoCEv2 opcode table; RC opcodes carry no prefix (MetaRoCE defines only RC), UC and UD ones are
 * prefixed ({@code UC_SEND_ONLY}).
 */
public final class Opcode {
    /** Flag: the opcode carries ImmDt (a compile-time constant, so usable in the initialisers below). */
    private static final int IMM = 1;
    /** Flag: the opcode carries IETH. */
    private static final int INV = 2;
    private static final Opcode[] TABLE = new Opcode[256];
    private static final Map<String, Opcode> BY_NAME = new HashMap<>();

    public static final Opcode SEND_FIRST = define(0x00, "SEND_FIRST", OpKind.SEND, Position.FIRST, 0);
    public static final Opcode SEND_MIDDLE = define(0x01, "SEND_MIDDLE", OpKind.SEND, Position.MIDDLE, 0);
    public static final Opcode SEND_LAST = define(0x02, "SEND_LAST", OpKind.SEND, Position.LAST, 0);
    public static final Opcode SEND_LAST_WITH_IMMEDIATE =
        define(0x03, "SEND_LAST_WITH_IMMEDIATE", OpKind.SEND, Position.LAST, IMM);
    public static final Opcode SEND_ONLY = define(0x04, "SEND_ONLY", OpKind.SEND, Position.ONLY, 0);
    public static final Opcode SEND_ONLY_WITH_IMMEDIATE =
        define(0x05, "SEND_ONLY_WITH_IMMEDIATE", OpKind.SEND, Position.ONLY, IMM);
    public static final Opcode RDMA_WRITE_FIRST = define(0x06, "RDMA_WRITE_FIRST", OpKind.RDMA_WRITE, Position.FIRST, 0);
    public static final Opcode RDMA_WRITE_MIDDLE =
        define(0x07, "RDMA_WRITE_MIDDLE", OpKind.RDMA_WRITE, Position.MIDDLE, 0);
    public static final Opcode RDMA_WRITE_LAST = define(0x08, "RDMA_WRITE_LAST", OpKind.RDMA_WRITE, Position.LAST, 0);
    public static final Opcode RDMA_WRITE_LAST_WITH_IMMEDIATE =
        define(0x09, "RDMA_WRITE_LAST_WITH_IMMEDIATE", OpKind.RDMA_WRITE, Position.LAST, IMM);
    public static final Opcode RDMA_WRITE_ONLY = define(0x0A, "RDMA_WRITE_ONLY", OpKind.RDMA_WRITE, Position.ONLY, 0);
    public static final Opcode RDMA_WRITE_ONLY_WITH_IMMEDIATE =
        define(0x0B, "RDMA_WRITE_ONLY_WITH_IMMEDIATE", OpKind.RDMA_WRITE, Position.ONLY, IMM);
    public static final Opcode RDMA_READ_REQUEST =
        define(0x0C, "RDMA_READ_REQUEST", OpKind.RDMA_READ_REQUEST, Position.NONE, 0);
    public static final Opcode RDMA_READ_RESPONSE_FIRST =
        define(0x0D, "RDMA_READ_RESPONSE_FIRST", OpKind.RDMA_READ_RESPONSE, Position.FIRST, 0);
    public static final Opcode RDMA_READ_RESPONSE_MIDDLE =
        define(0x0E, "RDMA_READ_RESPONSE_MIDDLE", OpKind.RDMA_READ_RESPONSE, Position.MIDDLE, 0);
    public static final Opcode RDMA_READ_RESPONSE_LAST =
        define(0x0F, "RDMA_READ_RESPONSE_LAST", OpKind.RDMA_READ_RESPONSE, Position.LAST, 0);
    public static final Opcode RDMA_READ_RESPONSE_ONLY =
        define(0x10, "RDMA_READ_RESPONSE_ONLY", OpKind.RDMA_READ_RESPONSE, Position.ONLY, 0);
    public static final Opcode ACKNOWLEDGE = define(0x11, "ACKNOWLEDGE", OpKind.ACKNOWLEDGE, Position.NONE, 0);
    public static final Opcode ATOMIC_ACKNOWLEDGE =
        define(0x12, "ATOMIC_ACKNOWLEDGE", OpKind.ATOMIC_ACKNOWLEDGE, Position.NONE, 0);
    public static final Opcode COMPARE_SWAP = define(0x13, "COMPARE_SWAP", OpKind.COMPARE_SWAP, Position.NONE, 0);
    public static final Opcode FETCH_ADD = define(0x14, "FETCH_ADD", OpKind.FETCH_ADD, Position.NONE, 0);
    public static final Opcode SEND_LAST_WITH_INVALIDATE =
        define(0x16, "SEND_LAST_WITH_INVALIDATE", OpKind.SEND, Position.LAST, INV);
    public static final Opcode SEND_ONLY_WITH_INVALIDATE =
        define(0x17, "SEND_ONLY_WITH_INVALIDATE", OpKind.SEND, Position.ONLY, INV);
    public static final Opcode FLUSH = define(0x1C, "FLUSH", OpKind.FLUSH, Position.NONE, 0);
    public static final Opcode ATOMIC_WRITE = define(0x1D, "ATOMIC_WRITE", OpKind.ATOMIC_WRITE, Position.NONE, 0);

    public static final Opcode UC_SEND_FIRST = define(0x20, "UC_SEND_FIRST", OpKind.SEND, Position.FIRST, 0);
    public static final Opcode UC_SEND_MIDDLE = define(0x21, "UC_SEND_MIDDLE", OpKind.SEND, Position.MIDDLE, 0);
    public static final Opcode UC_SEND_LAST = define(0x22, "UC_SEND_LAST", OpKind.SEND, Position.LAST, 0);
    public static final Opcode UC_SEND_LAST_WITH_IMMEDIATE =
        define(0x23, "UC_SEND_LAST_WITH_IMMEDIATE", OpKind.SEND, Position.LAST, IMM);
    public static final Opcode UC_SEND_ONLY = define(0x24, "UC_SEND_ONLY", OpKind.SEND, Position.ONLY, 0);
    public static final Opcode UC_SEND_ONLY_WITH_IMMEDIATE =
        define(0x25, "UC_SEND_ONLY_WITH_IMMEDIATE", OpKind.SEND, Position.ONLY, IMM);
    public static final Opcode UC_RDMA_WRITE_FIRST =
        define(0x26, "UC_RDMA_WRITE_FIRST", OpKind.RDMA_WRITE, Position.FIRST, 0);
    public static final Opcode UC_RDMA_WRITE_MIDDLE =
        define(0x27, "UC_RDMA_WRITE_MIDDLE", OpKind.RDMA_WRITE, Position.MIDDLE, 0);
    public static final Opcode UC_RDMA_WRITE_LAST =
        define(0x28, "UC_RDMA_WRITE_LAST", OpKind.RDMA_WRITE, Position.LAST, 0);
    public static final Opcode UC_RDMA_WRITE_LAST_WITH_IMMEDIATE =
        define(0x29, "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE", OpKind.RDMA_WRITE, Position.LAST, IMM);
    public static final Opcode UC_RDMA_WRITE_ONLY =
        define(0x2A, "UC_RDMA_WRITE_ONLY", OpKind.RDMA_WRITE, Position.ONLY, 0);
    public static final Opcode UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE =
        define(0x2B, "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE", OpKind.RDMA_WRITE, Position.ONLY, IMM);

    public static final Opcode UD_SEND_ONLY = define(0x64, "UD_SEND_ONLY", OpKind.SEND, Position.ONLY, 0);
    public static final Opcode UD_SEND_ONLY_WITH_IMMEDIATE =
        define(0x65, "UD_SEND_ONLY_WITH_IMMEDIATE", OpKind.SEND, Position.ONLY, IMM);

    /** Congestion Notification Packet (RoCEv2 Annex A17). */
    public static final Opcode CNP = define(0x81, "CNP", OpKind.CNP, Position.NONE, 0);

    static {
        for (int code = 0; code < 256; code++) {
            if (TABLE[code] == null) {
                TABLE[code] = new Opcode(code, String.format(Locale.ROOT, "UNKNOWN(0x%02X)", code), OpKind.UNKNOWN,
                    Position.NONE, 0, false);
            }
        }
    }

    private final int code;
    private final String name;
    private final OpKind kind;
    private final Position position;
    private final boolean immediate;
    private final boolean invalidate;
    private final boolean known;
    private final Transport transport;

    private Opcode(final int code, final String name, final OpKind kind, final Position position, final int flags,
                   final boolean known) {
        this.code = code;
        this.name = name;
        this.kind = kind;
        this.position = position;
        this.immediate = (flags & IMM) != 0;
        this.invalidate = (flags & INV) != 0;
        this.known = known;
        this.transport = Transport.of(code);
    }

    private static Opcode define(final int code, final String name, final OpKind kind, final Position position,
                                 final int flags) {
        final Opcode opcode = new Opcode(code, name, kind, position, flags, true);
        TABLE[code] = opcode;
        BY_NAME.put(name, opcode);
        return opcode;
    }

    /** The opcode for a byte value; never null, never throws (only the low 8 bits are used). */
    public static Opcode valueOf(final int code) {
        return TABLE[code & 0xFF];
    }

    /**
     * The opcode with this name ({@code RDMA_WRITE_ONLY}, {@code RC_RDMA_WRITE_ONLY}, {@code UC_SEND_ONLY},
     * case-insensitive), or {@code null} when no opcode has it. {@code UNKNOWN(0xNN)} and plain numbers are accepted.
     */
    public static Opcode byName(final String text) {
        final String upper = text.trim().toUpperCase(Locale.ROOT);
        final Opcode named = BY_NAME.get(upper.startsWith("RC_") ? upper.substring(3) : upper);
        if (named != null) {
            return named;
        }
        String number = upper;
        if (number.startsWith("UNKNOWN(") && number.endsWith(")")) {
            number = number.substring(8, number.length() - 1);
        }
        try {
            final int value = number.startsWith("0X") ? Integer.parseInt(number.substring(2), 16)
                : Integer.parseInt(number);
            return value >= 0 && value < 256 ? valueOf(value) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** All opcodes a specification assigns (RC, UC, UD, CNP), in code order. */
    public static java.util.List<Opcode> known() {
        final java.util.List<Opcode> list = new java.util.ArrayList<>();
        for (final Opcode opcode : TABLE) {
            if (opcode.known) {
                list.add(opcode);
            }
        }
        return Collections.unmodifiableList(list);
    }

    /** The byte value. */
    public int code() {
        return code;
    }

    /** The name, {@code UNKNOWN(0xNN)} for unassigned values. */
    public String name() {
        return name;
    }

    /** What the opcode does; {@link OpKind#UNKNOWN} for unassigned values. */
    public OpKind kind() {
        return kind;
    }

    /** The packet's position in its message. */
    public Position position() {
        return position;
    }

    /** The transport service (bits 7..5). */
    public Transport transport() {
        return transport;
    }

    /** True when the opcode carries ImmDt. */
    public boolean hasImmediate() {
        return immediate;
    }

    /** True when the opcode carries IETH (SEND WITH INVALIDATE). */
    public boolean hasInvalidate() {
        return invalidate;
    }

    /** False for reserved, unsupported-transport and manufacturer-specific values. */
    public boolean isKnown() {
        return known;
    }

    /**
     * True for FLUSH (0x1C) and ATOMIC WRITE (0x1D), the RC opcodes of InfiniBand's memory placement extensions:
     * RoCEv2 traffic may carry them (MetaRoCE v1 Appendix F), a MetaRoCE device never sends them (Table D-4).
     */
    public boolean isMemoryPlacement() {
        return kind == OpKind.FLUSH || kind == OpKind.ATOMIC_WRITE;
    }

    /** True for RC opcodes that MetaRoCE v1 (TVer 1) defines: everything RC except FLUSH and ATOMIC WRITE. */
    public boolean isMetaRoceV1() {
        return known && transport == Transport.RC && kind != OpKind.FLUSH && kind != OpKind.ATOMIC_WRITE;
    }

    @Override
    public String toString() {
        return name;
    }
}

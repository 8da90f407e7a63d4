package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;

/**
 * One RoCEv2 frame as the matching of several captures sees it ({@link ViewMatcher}): where and when it was seen, its
 * flow (addresses and bth.dqpn), PSN, opcode and ICRC on the wire. Mutable and reused frame after frame by a reader;
 * {@link #encode} and {@link #decode} carry it between machines (big-endian, 40 or 64 bytes).
 */
public final class Sighting {
    /** Timestamp, nanoseconds since the epoch. */
    public long ts;
    /** The capture's index among the captures matched. */
    public int capture;
    /** The frame's 1-based record number in its capture. */
    public long number;
    boolean v4;
    /** Source then destination address: 4 + 4 bytes (IPv4) or 16 + 16 (IPv6). */
    final byte[] addresses = new byte[32];
    int dqpn;
    int psn;
    int opcode;
    /** The ICRC as carried (0 when the frame has none). */
    long icrc;

    /** Fills this from a decoded RoCEv2 frame with a BTH. */
    void fill(final DecodedFrame d, final ByteBuffer b, final int captureIndex, final long recordNumber,
              final long timestamp) {
        ts = timestamp;
        capture = captureIndex;
        number = recordNumber;
        v4 = d.has(HeaderKind.IPV4);
        final int ip = d.offset(v4 ? HeaderKind.IPV4 : HeaderKind.IPV6);
        b.get(ip + (v4 ? 12 : 8), addresses, 0, v4 ? 8 : 32);
        final int bth = d.offset(HeaderKind.BTH);
        dqpn = BigEndian.u24(b, bth + 5);
        psn = BigEndian.u24(b, bth + 9);
        opcode = BigEndian.u8(b, bth);
        icrc = d.has(HeaderKind.ICRC) ? d.icrcOnWire() & 0xFFFF_FFFFL : 0;
    }

    int addressBytes() {
        return v4 ? 8 : 32;
    }

    /** The flow's key: a hash of its addresses and bth.dqpn. */
    long flowKey() {
        long key = dqpn * 0x9E3779B97F4A7C15L;
        final ByteBuffer a = ByteBuffer.wrap(addresses);
        for (int i = 0; i < addressBytes(); i += 4) {
            key = (key ^ (BigEndian.i32(a, i) & 0xFFFF_FFFFL)) * 0xC2B2AE3D27D4EB4FL;
        }
        return key ^ key >>> 31;
    }

    /**
     * A hash of the two hosts, the same for both directions: every flow between two hosts, both ways, has the same
     * (the matching pairs a flow with its other direction, {@link ViewMatcher}).
     */
    public long hostPair() {
        final int half = addressBytes() / 2;
        final boolean ordered = Arrays.compareUnsigned(addresses, 0, half, addresses, half, 2 * half) <= 0;
        final int first = ordered ? 0 : half;
        final int second = ordered ? half : 0;
        long key = half;
        final ByteBuffer a = ByteBuffer.wrap(addresses);
        for (int i = 0; i < half; i += 4) {
            key = (key ^ (BigEndian.i32(a, first + i) & 0xFFFF_FFFFL)) * 0x9E3779B97F4A7C15L;
        }
        for (int i = 0; i < half; i += 4) {
            key = (key ^ (BigEndian.i32(a, second + i) & 0xFFFF_FFFFL)) * 0xC2B2AE3D27D4EB4FL;
        }
        return key ^ key >>> 29;
    }

    /** This sighting as bytes. */
    public byte[] encode() {
        // explicit big-endian: ts 0-7, capture 8-11, number 12-19, IPv4 flag 20, opcode 21, dqpn 22-24, psn 25-27,
        // ICRC 28-31, then the addresses
        final ByteBuffer out = ByteBuffer.allocate(32 + addressBytes()).order(ByteOrder.BIG_ENDIAN);
        out.putLong(0, ts);
        out.putInt(8, capture);
        out.putLong(12, number);
        out.put(20, (byte) (v4 ? 1 : 0));
        out.putInt(21, (opcode & 0xFF) << 24 | dqpn & 0xFF_FFFF);
        out.putInt(24, (dqpn & 0xFF) << 24 | psn & 0xFF_FFFF);
        out.putInt(28, (int) icrc);
        out.put(32, addresses, 0, addressBytes());
        return out.array();
    }

    /** Reads {@code bytes} ({@link #encode}) into this sighting. */
    public void decode(final byte[] bytes) {
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        ts = BigEndian.i64(in, 0);
        capture = BigEndian.i32(in, 8);
        number = BigEndian.i64(in, 12);
        v4 = in.get(20) != 0;
        opcode = BigEndian.u8(in, 21);
        dqpn = BigEndian.u24(in, 22);
        psn = BigEndian.u24(in, 25);
        icrc = BigEndian.i32(in, 28) & 0xFFFF_FFFFL;
        in.get(32, addresses, 0, addressBytes());
    }
}

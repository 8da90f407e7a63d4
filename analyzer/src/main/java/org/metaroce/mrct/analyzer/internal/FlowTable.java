package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.wire.BigEndian;

/**
 * Finds the flow of a frame by (source address, destination address, bth.dqpn) without allocating: an open-addressing
 * table over the addresses read straight from the frame (IPv4 as two ints, IPv6 as four longs), with the last flow
 * found cached since consecutive frames mostly belong to the same flow. New flows are created through the factory
 * given, and registered with the {@link HostPair} of their two addresses. The VLAN is not part of the key.
 *
 * <p>When the source and destination addresses are the same (two ends sharing an address, as the harness and a device
 * on one host do over UDP), the addresses cannot tell the two directions apart, and two QPs of the same number at both
 * ends would make one flow of both directions. Such a frame's key is then (the address, the source MAC, bth.dqpn),
 * with a bit that keeps it apart from every key of two different addresses: the ends are told apart by their link
 * addresses. Frames between different addresses are keyed as before, whatever their MACs (a router on the way may
 * change them).
 */
final class FlowTable {
    /** Creates the flow of a new key. */
    interface Factory {
        Flow create(byte[] source, byte[] destination, int dqpn);
    }

    private long[] k1 = new long[64];
    private long[] k2 = new long[64];
    private long[] k3 = new long[64];
    private long[] k4 = new long[64];
    private int[] k5 = new int[64];
    private Flow[] values = new Flow[64];
    private int size;
    private final List<Flow> all = new ArrayList<>();
    private final Map<String, HostPair> hostPairs = new HashMap<>();

    private Flow last;
    private long lastA;
    private long lastB;
    private long lastC;
    private long lastD;
    private int lastE;

    /**
     * The flow of the frame whose IP header is at {@code ip} (version 4 or 6) and whose BTH names {@code dqpn}.
     */
    Flow lookup(final ByteBuffer buffer, final int ip, final int version, final int dqpn, final int eth,
                final Factory factory) {
        final long a;
        final long b;
        long c;
        long d;
        if (version == 4) {
            a = BigEndian.i32(buffer, ip + 12) & 0xFFFF_FFFFL;
            b = BigEndian.i32(buffer, ip + 16) & 0xFFFF_FFFFL;
            c = 0;
            d = 0;
        } else {
            a = BigEndian.i64(buffer, ip + 8);
            b = BigEndian.i64(buffer, ip + 16);
            c = BigEndian.i64(buffer, ip + 24);
            d = BigEndian.i64(buffer, ip + 32);
        }
        int e = dqpn | (version << 24);
        if (version == 4 ? a == b : a == c && b == d) {
            c = sourceMac(buffer, eth);
            d = 0;
            e |= SHARED_ADDRESS;
        }
        if (last != null && a == lastA && b == lastB && c == lastC && d == lastD && e == lastE) {
            return last;
        }
        final int mask = values.length - 1;
        int i = hash(a, b, c, d, e) & mask;
        while (values[i] != null) {
            if (k1[i] == a && k2[i] == b && k3[i] == c && k4[i] == d && k5[i] == e) {
                return remember(values[i], a, b, c, d, e);
            }
            i = (i + 1) & mask;
        }
        final byte[] source = new byte[version == 4 ? 4 : 16];
        final byte[] destination = new byte[source.length];
        final int from = ip + (version == 4 ? 12 : 8);
        buffer.get(from, source, 0, source.length);
        buffer.get(from + source.length, destination, 0, destination.length);
        final Flow flow = factory.create(source, destination, dqpn);
        hostPair(source, destination).add(flow);
        all.add(flow);
        k1[i] = a;
        k2[i] = b;
        k3[i] = c;
        k4[i] = d;
        k5[i] = e;
        values[i] = flow;
        if (++size * 2 > values.length) {
            rehash();
        }
        return remember(flow, a, b, c, d, e);
    }

    /**
     * True when a flow of (source, destination, dqpn) exists (of the source MAC too when the two addresses are the
     * same); creates nothing and leaves the cache alone.
     */
    boolean contains(final ByteBuffer buffer, final int ip, final int version, final int dqpn, final int eth) {
        final int mask = values.length - 1;
        final long a = version == 4 ? BigEndian.i32(buffer, ip + 12) & 0xFFFF_FFFFL : BigEndian.i64(buffer, ip + 8);
        final long b = version == 4 ? BigEndian.i32(buffer, ip + 16) & 0xFFFF_FFFFL : BigEndian.i64(buffer, ip + 16);
        long c = version == 4 ? 0 : BigEndian.i64(buffer, ip + 24);
        long d = version == 4 ? 0 : BigEndian.i64(buffer, ip + 32);
        int e = dqpn | (version << 24);
        if (version == 4 ? a == b : a == c && b == d) {
            c = sourceMac(buffer, eth);
            d = 0;
            e |= SHARED_ADDRESS;
        }
        for (int i = hash(a, b, c, d, e) & mask; values[i] != null; i = (i + 1) & mask) {
            if (k1[i] == a && k2[i] == b && k3[i] == c && k4[i] == d && k5[i] == e) {
                return true;
            }
        }
        return false;
    }

    /** Marks the key of a frame whose two addresses are the same (above the version's bits, 24 to 26). */
    private static final int SHARED_ADDRESS = 1 << 28;

    /** The source MAC of the Ethernet header at {@code eth} as 48 bits, or 0 without one ({@code eth} negative). */
    static long sourceMac(final ByteBuffer buffer, final int eth) {
        return eth < 0 ? 0 : mac(buffer, eth + 6);
    }

    /** The MAC at {@code at} as 48 bits. */
    static long mac(final ByteBuffer buffer, final int at) {
        return (long) BigEndian.u16(buffer, at) << 32 | BigEndian.i32(buffer, at + 2) & 0xFFFF_FFFFL;
    }

    private Flow remember(final Flow flow, final long a, final long b, final long c, final long d, final int e) {
        last = flow;
        lastA = a;
        lastB = b;
        lastC = c;
        lastD = d;
        lastE = e;
        return flow;
    }

    private HostPair hostPair(final byte[] x, final byte[] y) {
        return hostPairs.computeIfAbsent(key(x, y), k -> new HostPair());
    }

    private static String key(final byte[] x, final byte[] y) {
        final String one = Arrays.toString(x);
        final String two = Arrays.toString(y);
        return one.compareTo(two) <= 0 ? one + two : two + one;
    }

    private static int hash(final long a, final long b, final long c, final long d, final int e) {
        long h = a * 0x9E3779B97F4A7C15L;
        h = (h ^ b) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ c) * 0x9E3779B97F4A7C15L;
        h = (h ^ d) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ e) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }

    private void rehash() {
        final long[] o1 = k1;
        final long[] o2 = k2;
        final long[] o3 = k3;
        final long[] o4 = k4;
        final int[] o5 = k5;
        final Flow[] ov = values;
        final int capacity = ov.length * 2;
        k1 = new long[capacity];
        k2 = new long[capacity];
        k3 = new long[capacity];
        k4 = new long[capacity];
        k5 = new int[capacity];
        values = new Flow[capacity];
        final int mask = capacity - 1;
        for (int j = 0; j < ov.length; j++) {
            if (ov[j] == null) {
                continue;
            }
            int i = hash(o1[j], o2[j], o3[j], o4[j], o5[j]) & mask;
            while (values[i] != null) {
                i = (i + 1) & mask;
            }
            k1[i] = o1[j];
            k2[i] = o2[j];
            k3[i] = o3[j];
            k4[i] = o4[j];
            k5[i] = o5[j];
            values[i] = ov[j];
        }
    }

    /**
     * Forgets the flows of released connections ({@link Releases}): out of the table (backward-shift deletion, so
     * the probing of the others stays right), the list and their host pairs (a pair left without flows is dropped).
     */
    void removeReleased(final List<Flow> gone) {
        for (final Flow flow : gone) {
            remove(flow);
            final HostPair pair = flow.hostPair;
            pair.flows.remove(flow);
            if (pair.flows.isEmpty()) {
                hostPairs.remove(key(flow.source, flow.destination));
            }
        }
        all.removeIf(f -> f.connection.released);
        last = null;
    }

    private void remove(final Flow flow) {
        final boolean v4 = flow.source.length == 4;
        final ByteBuffer s = ByteBuffer.wrap(flow.source);
        final ByteBuffer t = ByteBuffer.wrap(flow.destination);
        final long a = v4 ? BigEndian.i32(s, 0) & 0xFFFF_FFFFL : BigEndian.i64(s, 0);
        final long b = v4 ? BigEndian.i32(t, 0) & 0xFFFF_FFFFL : BigEndian.i64(s, 8);
        long c = v4 ? 0 : BigEndian.i64(t, 0);
        long d = v4 ? 0 : BigEndian.i64(t, 8);
        int e = flow.dqpn | ((v4 ? 4 : 6) << 24);
        if (Arrays.equals(flow.source, flow.destination)) {
            c = flow.sourceMac;
            d = 0;
            e |= SHARED_ADDRESS;
        }
        final int mask = values.length - 1;
        int i = hash(a, b, c, d, e) & mask;
        while (values[i] != flow) {
            if (values[i] == null) {
                return;
            }
            i = (i + 1) & mask;
        }
        values[i] = null;
        size--;
        // backward-shift deletion: move up every later entry of the run whose home slot is not between the hole and it
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            final int home = hash(k1[j], k2[j], k3[j], k4[j], k5[j]) & mask;
            if (i <= j ? i < home && home <= j : i < home || home <= j) {
                continue;
            }
            k1[i] = k1[j];
            k2[i] = k2[j];
            k3[i] = k3[j];
            k4[i] = k4[j];
            k5[i] = k5[j];
            values[i] = values[j];
            values[j] = null;
            i = j;
        }
    }

    /** Every flow, in order of creation. */
    List<Flow> flows() {
        return all;
    }

    /** Forgets every flow (a new case of an evidence file starts). */
    void clear() {
        Arrays.fill(values, null);
        size = 0;
        all.clear();
        hostPairs.clear();
        last = null;
    }
}

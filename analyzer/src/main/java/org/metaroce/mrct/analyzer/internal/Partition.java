package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.wire.BigEndian;

/**
 * One capture's frames split into shards that can be analysed apart, with the findings of the whole.
 *
 * <p>The unit is a set of hosts joined by RoCE traffic (the connected components of the graph whose edges are the
 * address pairs of the capture's RoCEv2 frames). Nothing a check keeps crosses it: a connection's two flows go between
 * the same two hosts, and the CNP checks' widest scope, the notification point's port, is a host, so a CNP a host
 * sends counts for the CE marks of every connection it receives on, all in its unit. A shard holds whole units.
 *
 * <p>Two uses, each a {@link Session} that reads the whole capture: a <em>recorder</em> analyses nothing and joins the
 * hosts of every addressed frame ({@link #plan}); a <em>shard</em> judges the frames of its hosts and, for shard 0,
 * the frames without addresses (other link types, RoCEv1) and the counting of the frames outside MetaRoCE's scope.
 * Every shard reads every record, so record numbers, the capture's first and last timestamps and the damage, if any,
 * are those of the whole capture.
 */
public final class Partition {
    private final boolean recording;
    private final int shard;
    private final Map<Long, Integer> shardOfHost;
    // recording: the hosts' groups, with the frames of each host
    private final HostGroups groups = new HostGroups();
    private final List<Long> hostKeys = new ArrayList<>();
    private long[] weight = new long[64];
    // the last pair of hosts seen, and its answer
    private long lastA = Long.MIN_VALUE;
    private long lastB = Long.MIN_VALUE;
    private boolean lastOwned;
    // shard 0: the flows of other shards seen (for the scope of a later look-alike frame of one of them)
    private final Set<Long> seen = new HashSet<>();
    private long lastSeen = Long.MIN_VALUE;

    private Partition(final boolean recording, final int shard, final Map<Long, Integer> shardOfHost) {
        this.recording = recording;
        this.shard = shard;
        this.shardOfHost = shardOfHost;
    }

    /** The pass that finds the units: analyses no frame, joins the hosts of every one. */
    public static Partition recorder() {
        return new Partition(true, 0, Map.of());
    }

    /**
     * Shard {@code shard} of a plan: {@code shardOf[i]} is the shard of the host whose key is {@code hosts[i]}; a host
     * not listed belongs to shard 0.
     */
    public static Partition shard(final int shard, final long[] hosts, final int[] shardOf) {
        final Map<Long, Integer> map = new HashMap<>(hosts.length * 2);
        for (int i = 0; i < hosts.length; i++) {
            map.put(hosts[i], shardOf[i]);
        }
        return new Partition(false, shard, map);
    }

    /** True when this shard judges frames without addresses and counts those outside the scope. */
    boolean ownsUnaddressed() {
        return !recording && shard == 0;
    }

    /** True when the frame whose IP header (version 4 or 6) is at {@code ip} belongs to this shard. */
    boolean owns(final ByteBuffer buffer, final int ip, final int version) {
        final long a = host(buffer, ip + (version == 4 ? 12 : 8), version);
        final long b = host(buffer, ip + (version == 4 ? 16 : 24), version);
        if (a == lastA && b == lastB) {
            return lastOwned;
        }
        lastA = a;
        lastB = b;
        if (recording) {
            groups.joinRoots(groups.root(index(a)), groups.root(index(b)));
            lastOwned = false;
        } else {
            lastOwned = shardOfHost.getOrDefault(a, 0) == shard;
        }
        return lastOwned;
    }

    /** Remembers the flow (addresses and destination QP) of a frame of another shard. */
    void see(final ByteBuffer buffer, final int ip, final int version, final int dqpn) {
        final long key = flowKey(buffer, ip, version, dqpn);
        if (key != lastSeen) {
            lastSeen = key;
            seen.add(key);
        }
    }

    /** True when {@link #see} was told of this flow. */
    boolean seen(final ByteBuffer buffer, final int ip, final int version, final int dqpn) {
        return !seen.isEmpty() && seen.contains(flowKey(buffer, ip, version, dqpn));
    }

    private static long flowKey(final ByteBuffer buffer, final int ip, final int version, final int dqpn) {
        long key = (dqpn | (long) version << 24) * 0x9E3779B97F4A7C15L;
        key = (key ^ host(buffer, ip + (version == 4 ? 12 : 8), version)) * 0xC2B2AE3D27D4EB4FL;
        key = (key ^ host(buffer, ip + (version == 4 ? 16 : 24), version)) * 0x9E3779B97F4A7C15L;
        return key ^ key >>> 31;
    }

    /**
     * A host's key: an IPv4 address with a marker bit (exact), an IPv6 address mixed into 64 bits (two addresses
     * that collided would only put two hosts in one unit, never split one).
     */
    static long host(final ByteBuffer buffer, final int at, final int version) {
        if (version == 4) {
            return 1L << 40 | BigEndian.i32(buffer, at) & 0xFFFF_FFFFL;
        }
        long key = BigEndian.i64(buffer, at) * 0x9E3779B97F4A7C15L;
        key = (key ^ key >>> 29 ^ BigEndian.i64(buffer, at + 8)) * 0xC2B2AE3D27D4EB4FL;
        return (key ^ key >>> 32) | 1L << 63;
    }

    private int index(final long host) {
        final int known = groups.size();
        final int i = groups.host(0, host);
        if (i == known) {
            hostKeys.add(host);
            if (i == weight.length) {
                weight = Arrays.copyOf(weight, i * 2);
            }
        }
        weight[i]++;
        return i;
    }

    /**
     * The recorder's plan: the units dealt to at most {@code maxShards} shards, the heaviest unit first onto the
     * lightest shard (weights: the frames of a unit's hosts), ties by first appearance, so the plan is the same
     * for the same capture. {@code result[0]} holds the host keys, {@code result[1]} their shards, {@code result[2]}
     * the number of shards and of units.
     */
    public long[][] plan(final int maxShards) {
        if (!recording) {
            throw new IllegalStateException("only the recording pass plans");
        }
        final int n = hostKeys.size();
        final Map<Integer, Integer> unitOfRoot = new HashMap<>();
        final List<long[]> units = new ArrayList<>();
        final int[] unitOf = new int[n];
        for (int i = 0; i < n; i++) {
            final int r = groups.root(i);
            Integer u = unitOfRoot.get(r);
            if (u == null) {
                u = units.size();
                unitOfRoot.put(r, u);
                units.add(new long[] {u, 0});
            }
            unitOf[i] = u;
            units.get(u)[1] += weight[i];
        }
        final int shards = Math.max(1, Math.min(maxShards, units.size()));
        final List<long[]> heaviest = new ArrayList<>(units);
        heaviest.sort((x, y) -> x[1] != y[1] ? Long.compare(y[1], x[1]) : Long.compare(x[0], y[0]));
        final long[] load = new long[shards];
        final int[] shardOfUnit = new int[units.size()];
        for (final long[] unit : heaviest) {
            int lightest = 0;
            for (int s = 1; s < shards; s++) {
                if (load[s] < load[lightest]) {
                    lightest = s;
                }
            }
            shardOfUnit[(int) unit[0]] = lightest;
            load[lightest] += unit[1];
        }
        final long[] keys = new long[n];
        final long[] shardOf = new long[n];
        for (int i = 0; i < n; i++) {
            keys[i] = hostKeys.get(i);
            shardOf[i] = shardOfUnit[unitOf[i]];
        }
        return new long[][] {keys, shardOf, {shards, units.size()}};
    }
}

package org.metaroce.mrct.analyzer.internal;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Hosts by address, numbered in order of first appearance, and the groups their traffic joins them into (union-find
 * with path compression): the unit by which a capture can be split without changing its findings, since every piece
 * of state shared across connections (a host's CNP scope, pairing, congestion expectations) is keyed by a host or a
 * pair of hosts. Used by {@link Shards} (one capture over threads) and {@link Partition} (over Spark tasks). Not
 * thread-safe.
 */
final class HostGroups {
    private record Key(long high, long low) {
    }

    private final Map<Key, Integer> index = new HashMap<>();
    private int[] parent = new int[64];
    private int hosts;

    /** The host's number (the next one for a host not seen before); an address as two 64-bit halves. */
    int host(final long high, final long low) {
        final Key key = new Key(high, low);
        final Integer known = index.get(key);
        if (known != null) {
            return known;
        }
        if (hosts == parent.length) {
            parent = Arrays.copyOf(parent, hosts * 2);
        }
        parent[hosts] = hosts;
        index.put(key, hosts);
        return hosts++;
    }

    /** How many hosts have been numbered. */
    int size() {
        return hosts;
    }

    /** The number of the host that stands for {@code host}'s group. */
    int root(final int host) {
        int root = host;
        while (parent[root] != root) {
            root = parent[root];
        }
        for (int h = host; parent[h] != root; ) {
            final int next = parent[h];
            parent[h] = root;
            h = next;
        }
        return root;
    }

    /** Joins the groups whose roots are {@code a} and {@code b}; returns the joined group's root (the lower number). */
    int joinRoots(final int a, final int b) {
        if (a == b) {
            return a;
        }
        final int root = Math.min(a, b);
        parent[Math.max(a, b)] = root;
        return root;
    }
}

package org.metaroce.mrct.reference.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.metaroce.mrct.spi.Access;

/**
 * Protection domains and memory regions of the reference NIC. Virtual addresses are handed out from a sparse space
 * with a guard gap between regions, so that an access past a region's end hits no other region; keys are derived from
 * a counter, so a run is deterministic.
 */
public final class MemoryTable {
    private static final long BASE_VA = 0x7F00_0000_0000L;
    private static final long GUARD = 1L << 20;

    private final TreeMap<Long, MemoryRegionState> byVa = new TreeMap<>();
    private final Map<Integer, MemoryRegionState> byRkey = new HashMap<>();
    private final Map<Integer, MemoryRegionState> byLkey = new HashMap<>();
    private long nextVa = BASE_VA;
    private int nextKey = 1;
    private int nextPd = 1;

    /** Allocates a protection domain. */
    int allocatePd() {
        return nextPd++;
    }

    /** True when the PD was allocated. */
    boolean pdExists(final int pd) {
        return pd > 0 && pd < nextPd;
    }

    /** Registers zeroed memory. */
    MemoryRegionState register(final int pd, final int length, final Set<Access> access) {
        final long va = nextVa;
        nextVa = (va + length + GUARD + 0xFFF) & ~0xFFFL;
        final int index = nextKey++;
        final int lkey = 0x0001_0000 | (index << 8) | 0x11;
        final int rkey = 0x00A0_0000 | (index << 8) | 0x22;
        final MemoryRegionState mr = new MemoryRegionState(pd, va, length, lkey, rkey, access);
        byVa.put(va, mr);
        byRkey.put(rkey, mr);
        byLkey.put(lkey, mr);
        return mr;
    }

    /** The region an R_Key names (valid or not), or null. */
    MemoryRegionState byRkey(final int rkey) {
        return byRkey.get(rkey);
    }

    /** The region an L_Key names, or null. */
    MemoryRegionState byLkey(final int lkey) {
        return byLkey.get(lkey);
    }

    /** The registered region holding [va, va + length), or null. */
    MemoryRegionState containing(final long va, final long length) {
        final Map.Entry<Long, MemoryRegionState> entry = byVa.floorEntry(va);
        if (entry == null || !entry.getValue().registered || !entry.getValue().contains(va, length)) {
            return null;
        }
        return entry.getValue();
    }

    /** Deregisters a region. */
    void deregister(final MemoryRegionState mr) {
        mr.registered = false;
        mr.rkeyValid = false;
        byVa.remove(mr.va);
    }

    /** Reads {@code length} bytes at {@code va}; throws when not inside one region. */
    byte[] read(final long va, final int length) {
        final MemoryRegionState mr = require(va, length);
        final byte[] out = new byte[length];
        System.arraycopy(mr.data, (int) (va - mr.va), out, 0, length);
        return out;
    }

    /** Writes bytes at {@code va}; throws when not inside one region. */
    void write(final long va, final byte[] bytes) {
        final MemoryRegionState mr = require(va, bytes.length);
        System.arraycopy(bytes, 0, mr.data, (int) (va - mr.va), bytes.length);
    }

    private MemoryRegionState require(final long va, final long length) {
        final MemoryRegionState mr = containing(va, length);
        if (mr == null) {
            throw new IllegalArgumentException(String.format("no registered region holds [0x%x, 0x%x)", va,
                va + length));
        }
        return mr;
    }

    /** Forgets every region and PD. */
    void clear() {
        byVa.clear();
        byRkey.clear();
        byLkey.clear();
        nextVa = BASE_VA;
        nextKey = 1;
        nextPd = 1;
    }
}

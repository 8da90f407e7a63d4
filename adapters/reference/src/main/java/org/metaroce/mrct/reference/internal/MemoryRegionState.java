package org.metaroce.mrct.reference.internal;

import java.util.Set;
import org.metaroce.mrct.spi.Access;

/** A registered region of the reference NIC: its keys, rights and the bytes behind it. */
public final class MemoryRegionState {
    final int pd;
    final long va;
    final byte[] data;
    final int lkey;
    final int rkey;
    final Set<Access> access;
    boolean rkeyValid = true;
    boolean registered = true;

    MemoryRegionState(final int pd, final long va, final int length, final int lkey, final int rkey,
                      final Set<Access> access) {
        this.pd = pd;
        this.va = va;
        this.data = new byte[length];
        this.lkey = lkey;
        this.rkey = rkey;
        this.access = Set.copyOf(access);
    }

    /** True when [address, address + length) lies inside the region. */
    boolean contains(final long address, final long length) {
        return address >= va && length >= 0 && address - va <= data.length - length;
    }
}

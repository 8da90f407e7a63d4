package org.metaroce.mrct.spi;

import java.util.Set;

/**
 * A registered memory region as the device reports it.
 *
 * @param pd protection domain
 * @param va virtual address of the first byte
 * @param length length in bytes
 * @param lkey local key
 * @param rkey remote key
 * @param access access rights
 */
public record MemoryRegion(int pd, long va, long length, int lkey, int rkey, Set<Access> access) {
    public MemoryRegion {
        access = Set.copyOf(access);
    }

    /** True when {@code [address, address + bytes)} lies inside the region. */
    public boolean contains(final long address, final long bytes) {
        return address >= va && bytes >= 0 && address - va <= length - bytes;
    }
}

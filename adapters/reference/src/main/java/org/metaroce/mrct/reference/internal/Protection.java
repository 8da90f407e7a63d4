package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.Access;

/** The protection checks P1 to P5 of MetaRoCE v1 Table 10-1. */
final class Protection {
    private Protection() {
    }

    /**
     * The region {@code [va, va + length)} may be accessed through {@code rkey} with {@code right} (a
     * {@link QueuePair} access bit); returns it, or null when a check fails.
     */
    static MemoryRegionState check(final Device device, final QueuePair qp, final int rkey, final long va,
                                   final long length, final int right) {
        MemoryRegionState mr = device.memory.byRkey(rkey);
        if (mr == null || !mr.registered || !mr.rkeyValid) {
            if (!device.has(Fault.RKEY_NOT_CHECKED) || right != QueuePair.ACCESS_WRITE) {
                return null; // P1 (the fault skips it for writes only, placed wherever the address is mapped)
            }
            mr = device.memory.containing(va, 1);
            if (mr == null) {
                return null;
            }
        }
        if (mr.pd != qp.pd && !(device.has(Fault.PD_CHECKED_ON_WRITE_ONLY) && right != QueuePair.ACCESS_WRITE)) {
            return null; // P2
        }
        if ((qp.access & right) == 0 && !device.has(Fault.QP_ACCESS_UNCHECKED)) {
            return null; // P3
        }
        final Access needed = switch (right) {
            case QueuePair.ACCESS_WRITE -> Access.REMOTE_WRITE;
            case QueuePair.ACCESS_READ -> Access.REMOTE_READ;
            default -> device.has(Fault.ATOMIC_NEEDS_READ_RIGHT) ? Access.REMOTE_READ : Access.REMOTE_ATOMIC;
        };
        if (!mr.access.contains(needed)) {
            return null; // P4
        }
        if (!mr.contains(va, length)
            && !(right == QueuePair.ACCESS_WRITE && device.has(Fault.BOUNDS_NOT_CHECKED))) {
            return null; // P5 (the fault skips it for writes only, whose placement clips to the region)
        }
        return mr;
    }
}

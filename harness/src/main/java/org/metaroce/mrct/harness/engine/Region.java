package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.spi.MemoryRegion;

/**
 * A region of a running case: its definition's name, its registration (on the device, or on the peer in requester
 * cases), and the model of its content.
 */
final class Region {
    final String name;
    final MemoryRegion mr;
    /** What a conforming device's memory must hold, as far as the harness's own traffic determines it. */
    final byte[] model;
    /** Content right after setup, for "untouched" expectations. */
    final byte[] initial;
    /** Whether the region lives on the harness's peer (requester cases) rather than on the device. */
    final boolean onPeer;

    Region(final String name, final MemoryRegion mr, final byte[] initial) {
        this(name, mr, initial, false);
    }

    Region(final String name, final MemoryRegion mr, final byte[] initial, final boolean onPeer) {
        this.name = name;
        this.mr = mr;
        this.initial = initial;
        this.model = initial.clone();
        this.onPeer = onPeer;
    }

    /** Applies bytes the device must have placed at {@code va}; bytes outside the region are ignored. */
    void place(final long va, final byte[] bytes) {
        final long at = va - mr.va();
        final long from = Math.max(0, -at);
        final long to = Math.min(bytes.length, model.length - at);
        if (from < to) {
            System.arraycopy(bytes, (int) from, model, (int) (at + from), (int) (to - from));
        }
    }
}

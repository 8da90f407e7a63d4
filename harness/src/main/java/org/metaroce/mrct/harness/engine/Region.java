package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.spi.MemoryRegion;

/** A region of a running case: its definition's name, the device's registration, and the model of its content. */
final class Region {
    final String name;
    final MemoryRegion mr;
    /** What a conforming device's memory must hold, as far as the harness's own traffic determines it. */
    final byte[] model;
    /** Content right after setup, for "untouched" expectations. */
    final byte[] initial;
    boolean invalidated;

    Region(final String name, final MemoryRegion mr, final byte[] initial) {
        this.name = name;
        this.mr = mr;
        this.initial = initial;
        this.model = initial.clone();
    }

    /** Applies bytes the device must have placed at {@code va}; bytes outside the region are ignored. */
    void place(final long va, final byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            final long at = va + i - mr.va();
            if (at >= 0 && at < model.length) {
                model[(int) at] = bytes[i];
            }
        }
    }
}

package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.MemoryRegion;

/** Placing bytes in a region's model keeps those inside the region, at their address, and ignores the rest. */
class RegionPlaceTest {
    @Test
    void bytesInsideTheRegionLandAtTheirAddressTheRestAreIgnored() {
        final SplittableRandom random = new SplittableRandom(31337L); // seed of the placements tried
        final long base = 0x1000_0000L;
        final Region region = new Region("r", new MemoryRegion(1, base, 256, 1, 2, Set.of()), new byte[256]);
        final byte[] expected = new byte[256];
        for (int trial = 0; trial < 2000; trial++) {
            final byte[] bytes = new byte[random.nextInt(400)];
            random.nextBytes(bytes);
            final long va = base - 300 + random.nextInt(700);
            region.place(va, bytes);
            for (int i = 0; i < bytes.length; i++) { // the definition, byte by byte
                final long at = va + i - base;
                if (at >= 0 && at < expected.length) {
                    expected[(int) at] = bytes[i];
                }
            }
            assertThat(region.model).as("trial %d: %d bytes at base%+d", trial, bytes.length, va - base)
                .isEqualTo(expected);
        }
        region.place(Long.MIN_VALUE, new byte[] {1, 2, 3});
        region.place(Long.MAX_VALUE, new byte[] {1, 2, 3});
        assertThat(region.model).isEqualTo(expected);
    }
}

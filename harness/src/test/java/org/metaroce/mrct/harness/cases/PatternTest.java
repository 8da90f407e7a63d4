package org.metaroce.mrct.harness.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A random pattern's bytes are those of its definition: one SplittableRandom per 8-byte block, seeded per block. */
class PatternTest {
    /** The definition, written with SplittableRandom itself (the pattern computes it without one per block). */
    private static byte[] expected(final long seed, final long offset, final int length) {
        final byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            final long index = offset + i;
            final long bits = new SplittableRandom(seed ^ ((index >>> 3) * 0x9E3779B97F4A7C15L)).nextLong();
            out[i] = (byte) (bits >>> ((index & 7) * 8));
        }
        return out;
    }

    @Test
    void randomBytesAreSplittableRandomsPerBlockAtAnyOffset() {
        final SplittableRandom cases = new SplittableRandom(20261203L); // seed of the offsets, lengths and seeds tried
        for (int trial = 0; trial < 500; trial++) {
            final long seed = trial < 3 ? trial - 1 : cases.nextLong();
            final long offset = trial % 2 == 0 ? cases.nextInt(1 << 20) : cases.nextLong() >>> 2;
            final int length = cases.nextInt(100);
            final Pattern pattern = new Pattern(Pattern.Kind.RANDOM, Expr.of(seed), null);
            assertThat(pattern.bytes(offset, length, name -> null))
                .as("seed %d offset %d length %d", seed, offset, length)
                .isEqualTo(expected(seed, offset, length));
        }
    }

    @Test
    void aWindowOfAFillIsTheFillsBytesThere() {
        final Pattern pattern = new Pattern(Pattern.Kind.RANDOM, Expr.of(13), null);
        final byte[] whole = pattern.bytes(0, 4096, name -> null);
        final byte[] window = pattern.bytes(1001, 77, name -> null);
        assertThat(window).isEqualTo(java.util.Arrays.copyOfRange(whole, 1001, 1078));
        assertThat(whole).isEqualTo(expected(13, 0, 4096));
    }
}

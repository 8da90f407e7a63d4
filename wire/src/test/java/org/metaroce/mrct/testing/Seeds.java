package org.metaroce.mrct.testing;

import java.util.SplittableRandom;

/**
 * Seeds for property tests: the seed is fixed per test unless {@code -Dmrct.seed=N} overrides it, and it is printed,
 * so any failure can be replayed exactly. (Property tests are seeded JUnit tests with our own small generators; jqwik
 * is not used because its maintainer forbids use by automated agents from 1.10.)
 */
public final class Seeds {
    private Seeds() {
    }

    /** A generator for {@code test}, seeded from {@code defaultSeed} or the {@code mrct.seed} property. */
    public static SplittableRandom random(final String test, final long defaultSeed) {
        final String override = System.getProperty("mrct.seed");
        final long seed = override != null && !override.isBlank() ? Long.decode(override) : defaultSeed;
        System.out.println(test + ": seed " + seed + " (replay with -Dmrct.seed=" + seed + ")");
        return new SplittableRandom(seed);
    }
}

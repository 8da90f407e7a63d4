package org.metaroce.mrct.harness.generate;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The search both shrinkers share: from a failing input, take the first one-step simplification that still fails,
 * and repeat until none does (or a bound on rounds is reached, so a predicate that flips never loops forever).
 */
final class GreedyShrink {
    private static final int MAX_ROUNDS = 200;

    private GreedyShrink() {
    }

    /** The smallest failing input reached from {@code start} through {@code candidates}, most drastic first. */
    static <T> T shrink(final T start, final Function<T, List<T>> candidates, final Predicate<T> stillFails) {
        T current = start;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            T better = null;
            for (final T candidate : candidates.apply(current)) {
                if (stillFails.test(candidate)) {
                    better = candidate;
                    break;
                }
            }
            if (better == null) {
                return current;
            }
            current = better;
        }
        return current;
    }
}

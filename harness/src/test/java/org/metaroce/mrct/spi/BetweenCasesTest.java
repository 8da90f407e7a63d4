package org.metaroce.mrct.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class BetweenCasesTest {
    @Test
    void realTimeCollectsOnlyWhenTheOldGenerationIsAboveTheLimit() {
        final AtomicLong old = new AtomicLong(BetweenCases.COLLECT_ABOVE);
        final AtomicInteger collected = new AtomicInteger();
        final BetweenCases between = new BetweenCases(true, old::get, () -> {
            collected.incrementAndGet();
            old.set(20L << 20); // what a full collection leaves
        });
        assertThat(between.beforeCase()).isFalse();
        assertThat(collected).as("at the limit: no collection").hasValue(0);
        old.set(BetweenCases.COLLECT_ABOVE + 1);
        assertThat(between.beforeCase()).isTrue();
        assertThat(collected).as("above it: one").hasValue(1);
        assertThat(between.beforeCase()).isFalse();
        assertThat(collected).as("the collection brought it down: none again").hasValue(1);
        assertThat(between.collections()).isEqualTo(1);
    }

    @Test
    void virtualTimeNeverCollects() {
        final AtomicInteger collected = new AtomicInteger();
        final BetweenCases between = new BetweenCases(false, () -> Long.MAX_VALUE, collected::incrementAndGet);
        assertThat(between.beforeCase()).isFalse();
        assertThat(between.beforeCase()).isFalse();
        assertThat(collected).hasValue(0);
    }
}

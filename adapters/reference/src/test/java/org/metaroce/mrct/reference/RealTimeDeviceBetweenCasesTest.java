package org.metaroce.mrct.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.BetweenCases;

/**
 * The device behind {@code mrct serve} collects its JVM's garbage at a reset, when no case runs, once its old
 * generation is large (issue 10: after QP-011's 65,536 QPs every young collection of the rest of a UDP run paused the
 * device 80-200 ms inside the cases), and what the collection stopped (the link's reader) is charged to the time
 * between the cases, not to the next case's timeline.
 */
class RealTimeDeviceBetweenCasesTest {
    private static final long READER_PAUSE = 50_000_000;

    @Test
    void aResetCollectsOnTheDeviceThreadAndTheReadersPauseStaysBeforeTheNextCase() {
        final AtomicLong old = new AtomicLong(BetweenCases.COLLECT_ABOVE + 1);
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final RealTimeDevice device = device();
        device.betweenCases(new BetweenCases(true, old::get, () -> {
            events.add("collect on " + Thread.currentThread().getName());
            old.set(20L << 20);
        }), () -> {
            events.add("then");
            device.readerPaused(READER_PAUSE); // the reader the collection stopped looks again
        }).start();
        try {
            device.controlPlane().reset();
            assertThat(events).containsExactly("collect on mrct-reference-device", "then");
            assertThat(device.timeline().worstLateNanos()).as("the next case's timeline").isLessThan(READER_PAUSE);
            device.controlPlane().reset();
            assertThat(events).as("the old generation is small again: no collection").hasSize(2);
            device.readerPaused(READER_PAUSE);
            assertThat(device.timeline().worstLateNanos()).as("a pause inside a case still counts")
                .isGreaterThanOrEqualTo(READER_PAUSE);
        } finally {
            device.close();
        }
    }

    @Test
    void belowTheLimitOrOnVirtualTimeAResetCollectsNothing() {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        for (final BetweenCases between : List.of(
                new BetweenCases(true, () -> BetweenCases.COLLECT_ABOVE, () -> events.add("collect")),
                new BetweenCases(false, () -> Long.MAX_VALUE, () -> events.add("collect")))) {
            final RealTimeDevice device = device().betweenCases(between, () -> events.add("then")).start();
            try {
                device.controlPlane().reset();
                device.controlPlane().reset();
            } finally {
                device.close();
            }
        }
        assertThat(events).isEmpty();
    }

    private static RealTimeDevice device() {
        return new RealTimeDevice(Map.of(), Set.of(), Set.of(), 0x02_00_00_00_00_0dL, "198.51.100.2", null,
            frame -> { });
    }
}

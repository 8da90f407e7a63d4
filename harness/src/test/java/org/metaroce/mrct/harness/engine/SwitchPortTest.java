package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The switch port model: FIFO timing, ECN marking profile, tail drop, background load. */
class SwitchPortTest {
    @Test
    void anEmptyPortForwardsAtItsRateWithoutMarking() {
        // 8000 Mb/s = 1 byte per ns
        final SwitchPort port = new SwitchPort(8_000, 10_000, 20_000, 0.5, 100_000, List.of(), 0,
            new SplittableRandom(1));
        final SwitchPort.Fate fate = port.enqueue(1_000, 1_000);
        assertThat(fate.dropped()).isFalse();
        assertThat(fate.marked()).isFalse();
        assertThat(fate.departure()).isEqualTo(2_000);
        assertThat(port.enqueue(2_500, 500).departure()).as("the queue drained meanwhile").isEqualTo(3_000);
    }

    @Test
    void aboveKmaxEveryFrameIsMarkedAndAboveTheBufferDropped() {
        final SwitchPort port = new SwitchPort(8_000, 1_000, 2_000, 0.1, 5_000, List.of(), 0,
            new SplittableRandom(1));
        for (int i = 0; i < 3; i++) {
            port.enqueue(0, 1_000);
        }
        assertThat(port.enqueue(0, 1_000).marked()).as("queue 3000 bytes > kmax").isTrue();
        assertThat(port.enqueue(0, 1_000).marked()).isTrue();
        assertThat(port.enqueue(0, 1_000).dropped()).as("5000 + 1000 > buffer").isTrue();
        assertThat(port.maxQueue()).isEqualTo(5_000);
    }

    @Test
    void betweenKminAndKmaxTheMarkingRateFollowsTheProfile() {
        final SwitchPort port = new SwitchPort(8_000, 0, 2_000, 0.2, Long.MAX_VALUE, List.of(), 0,
            new SplittableRandom(3));
        int marked = 0;
        final int n = 20_000;
        port.enqueue(0, 1_000); // queue at 1000 bytes: half-way, probability 0.1
        for (int i = 0; i < n; i++) {
            if (port.enqueue(0, 0).marked()) { // empty frames leave the queue where it is
                marked++;
            }
        }
        assertThat(marked / (double) n).isBetween(0.08, 0.12);
    }

    @Test
    void backgroundLoadFillsTheQueueWhileItRuns() {
        // port 8000 Mb/s, background 16000 Mb/s for 10 us: the queue grows by 1 byte/ns, then drains
        final SwitchPort port = new SwitchPort(8_000, 1_000_000, 2_000_000, 0, Long.MAX_VALUE,
            List.of(new SwitchPort.Load(16_000, 0, 10_000)), 0, new SplittableRandom(1));
        final SwitchPort.Fate fate = port.enqueue(10_000, 100);
        assertThat(fate.departure()).isEqualTo(10_000 + 10_100);
        assertThat(port.enqueue(40_000, 100).departure()).as("drained by then").isEqualTo(40_100);
    }
}

package org.metaroce.mrct.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.reference.internal.OwnTimeline;

/**
 * A real-time device asked for its timeline while its thread is not running reports the work it has left undone (issue
 * 10: RTX-010 over UDP failed "no frame arrived" for a post_send the device had answered, with the device reporting no
 * lateness: what it was late for is measured only when it runs, and the harness asked before). Here the device thread
 * never starts, so a frame handed to it waits for as long as the test likes.
 */
class RealTimeDeviceBehindTest {
    @Test
    void aFrameStillWaitingForTheDeviceCountsAsItsLateness() {
        final RealTimeDevice device = new RealTimeDevice(Map.of(), Set.of(), Set.of(), 0x02_00_00_00_00_0dL,
            "198.51.100.2", null, frame -> { });
        assertThat(device.timeline().worstLateNanos()).isZero();
        device.receive(new byte[64], 5_000_000); // captured 5 ms ago, and the device thread is not running
        final RealTimeDevice.Timeline timeline = device.timeline();
        assertThat(timeline.worstLateNanos()).isGreaterThanOrEqualTo(5_000_000);
        assertThat(timeline.worst()).isEqualTo(OwnTimeline.Kind.BEHIND.text());
        assertThat(timeline.lateEvents()).isEqualTo(1);
    }
}

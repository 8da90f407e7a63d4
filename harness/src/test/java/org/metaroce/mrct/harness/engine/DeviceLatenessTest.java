package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.DeviceTimeline;

/** When a failure coincides with a device's own report of lateness: both ends share the run's tolerance. */
class DeviceLatenessTest {
    private static final long MS = 1_000_000;

    private static DeviceTimeline late(final long nanos) {
        return new DeviceTimeline(nanos, "processing a received frame took", 2, 0);
    }

    @Test
    void aDeviceThatSaysNothingOrKeptItsTimelineLeavesTheFailureStanding() {
        assertThat(DeviceLateness.problem(null, MS, 0)).isNull();
        assertThat(DeviceLateness.problem(new DeviceTimeline(0, "", 0, 0), MS, 0)).isNull();
        assertThat(DeviceLateness.problem(late(MS), MS, 0)).as("exactly the tolerance is within it").isNull();
    }

    @Test
    void beyondTheToleranceTheReportSaysWhatWasLateAndByHowMuch() {
        assertThat(DeviceLateness.problem(late(3 * MS / 2), MS, 0)).isEqualTo("the device reports that it fell "
            + "behind its own timeline: processing a received frame took 1.5 ms (2 time(s) late by 100 us or more); "
            + "the run tolerates 1 ms");
    }

    @Test
    void theHarnessAndTheDeviceShareTheTolerance() {
        // 0.6 ms at the device and 0.5 ms at the harness: each within 1 ms, together not
        assertThat(DeviceLateness.problem(late(600_000), MS, 500_000)).isEqualTo("the device reports that it fell "
            + "behind its own timeline: processing a received frame took 600 us (2 time(s) late by 100 us or more), "
            + "and the harness was late by up to 500 us; the run tolerates 1 ms");
        assertThat(DeviceLateness.problem(late(600_000), MS, 300_000)).isNull();
    }

    @Test
    void aFailureThatStandsSaysWhatBothEndsMeasured() {
        // issue 10: a requester failure over veth with neither end beyond the tolerance kept no figure of either
        assertThat(DeviceLateness.within(late(600_000), MS, 300_000)).isEqualTo("judged with both ends within the "
            + "run's tolerance of 1 ms: the device reported its worst lateness as processing a received frame took "
            + "600 us (2 time(s) late by 100 us or more), the harness's own share was 300 us");
        assertThat(DeviceLateness.within(new DeviceTimeline(0, "", 0, 0), 2 * MS, 0)).isEqualTo("judged with both "
            + "ends within the run's tolerance of 2 ms: the device reported no lateness, the harness's own share was "
            + "0 ns");
    }

    @Test
    void anyFrameTheDevicesCaptureDroppedIsAProblem() {
        assertThat(DeviceLateness.problem(new DeviceTimeline(0, "", 0, 1), MS, 0))
            .startsWith("the device reports that its capture dropped 1 frame(s) during the case");
    }
}

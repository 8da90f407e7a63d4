package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.spi.DeviceTimeline;

/**
 * Whether a failed case coincided with the device's own report that it could not keep the case's timeline
 * ({@link org.metaroce.mrct.spi.Adapter#deviceTimeline()}): lateness beyond the run's tolerance, or frames its
 * capture dropped. Such a failure may be the host's, not the device's: the runner runs the case again and, when every
 * attempt was disturbed, gives it INCONCLUSIVE with the device's report. Lateness within the tolerance is the slack
 * every window already grants; a failure then stands.
 */
final class DeviceLateness {
    private DeviceLateness() {
    }

    /**
     * Why the failure says nothing certain about the device, or null when the device reports nothing or kept its
     * timeline within what the harness left of {@code toleranceNanos}: both ends' lateness add up on the way of a
     * frame and its answer, and the tolerance is the slack for both together.
     *
     * @param harnessNanos the harness's own worst lateness in the case (within the tolerance, else the case is
     *                     INCONCLUSIVE already)
     */
    static String problem(final DeviceTimeline timeline, final long toleranceNanos, final long harnessNanos) {
        if (timeline == null) {
            return null;
        }
        if (timeline.captureDrops() > 0) {
            return "the device reports that its capture dropped " + timeline.captureDrops() + " frame(s) during the "
                + "case: it never saw everything the harness sent";
        }
        final long harness = Math.max(0, harnessNanos);
        if (timeline.worstLateNanos() + harness > toleranceNanos) {
            return "the device reports that it fell behind its own timeline: " + (timeline.worst().isEmpty()
                ? "late by" : timeline.worst()) + " " + Timing.measured(timeline.worstLateNanos()) + " ("
                + timeline.lateEvents() + " time(s) late by 100 us or more)" + (harness == 0 ? ""
                : ", and the harness was late by up to " + Timing.measured(harness)) + "; the run tolerates "
                + Timing.nanos(toleranceNanos);
        }
        return null;
    }

    /**
     * What a failure that stands was judged with, in one note: the device's own report (within what the harness left
     * of {@code toleranceNanos}) and the harness's share ({@code harnessNanos}).
     */
    static String within(final DeviceTimeline timeline, final long toleranceNanos, final long harnessNanos) {
        return "judged with both ends within the run's tolerance of " + Timing.nanos(toleranceNanos) + ": the device "
            + "reported " + (timeline.worstLateNanos() == 0 ? "no lateness" : "its worst lateness as "
                + (timeline.worst().isEmpty() ? "" : timeline.worst() + " ") + Timing.measured(timeline.worstLateNanos())
                + " (" + timeline.lateEvents() + " time(s) late by 100 us or more)")
            + ", the harness's own share was " + Timing.measured(Math.max(0, harnessNanos));
    }
}

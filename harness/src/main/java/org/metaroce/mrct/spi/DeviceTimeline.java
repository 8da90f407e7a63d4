package org.metaroce.mrct.spi;

/**
 * What a software device reports about its own timeline during one case (since the control plane's reset): the worst
 * it fell behind (a received frame that waited between its capture and the device, a timer that ran late, a
 * transmission that took long), how often it was late at all, and the frames its capture dropped. A device on a loaded
 * host, such as the reference NIC behind {@code mrct serve}, is late for reasons that say nothing about the protocol:
 * the harness runs a failed case again when the device was late beyond the run's tolerance or lost frames, and calls
 * it INCONCLUSIVE when every attempt was disturbed ({@link Adapter#deviceTimeline()}).
 *
 * @param worstLateNanos the worst lateness, nanoseconds (0: none)
 * @param worst what that was, in words before the duration ("a timer ran after it fell due by"); empty when none
 * @param lateEvents how many times the device was late by 100 us or more
 * @param captureDrops frames the device's capture dropped (the device never saw them)
 */
public record DeviceTimeline(long worstLateNanos, String worst, long lateEvents, long captureDrops) {
    public DeviceTimeline {
        worst = worst == null ? "" : worst;
    }
}

package org.metaroce.mrct.oracle;

/**
 * The timing tolerance of a real-time run (docs/real-devices.md): how far the observer's clock and the device's may
 * disagree. One definition for the live engine and {@code mrct analyze} of the run's evidence, which records it in its
 * section comment ({@code tolerance_ns}, {@code tolerance_pct}):
 *
 * <ul>
 *   <li>an event-to-event check (a resend after the answer that delivered its PSN, a request after an RNR wait, a
 *       timer) gives the device {@link #absoluteNs()} of slack;</li>
 *   <li>a check against a window (a CNP within cnp_delay_max_ns, CNPs cnp_interval_ns apart) gives it
 *       {@link #around(long)}: the larger of the absolute and the relative tolerance.</li>
 * </ul>
 *
 * @param absoluteNs absolute tolerance in nanoseconds, at least 0 (0 on virtual time)
 * @param percent    relative tolerance in percent of a window, at least 0 (0 on virtual time)
 */
public record TimingTolerance(long absoluteNs, int percent) {
    /** No tolerance: virtual time, or a capture that does not record one. */
    public static final TimingTolerance NONE = new TimingTolerance(0, 0);

    /** Throws {@link IllegalArgumentException} for a negative value. */
    public TimingTolerance {
        if (absoluteNs < 0) {
            throw new IllegalArgumentException("tolerance_ns cannot be negative: " + absoluteNs);
        }
        if (percent < 0) {
            throw new IllegalArgumentException("tolerance_pct cannot be negative: " + percent);
        }
    }

    /** The slack allowed around a window of {@code windowNs}: the larger of the absolute and the relative tolerance. */
    public long around(final long windowNs) {
        return Math.max(absoluteNs, windowNs / 100 * percent + windowNs % 100 * percent / 100);
    }
}

package org.metaroce.mrct.socket.link;

import java.time.Instant;

/**
 * The clock of live links: nanoseconds since the epoch, the clock the kernel stamps captured frames with, so that
 * {@code DataPlane.now()} and capture timestamps can be compared.
 */
public final class WallClock {
    private WallClock() {
    }

    /** Now, in nanoseconds since 1970-01-01T00:00:00Z. */
    public static long nanos() {
        final Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}

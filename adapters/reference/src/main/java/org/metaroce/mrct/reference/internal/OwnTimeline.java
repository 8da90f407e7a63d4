package org.metaroce.mrct.reference.internal;

/**
 * How far a real-time device fell behind its own timeline since it was last cleared, as the device itself measures
 * it: a received frame that waited between its capture and the device, a timer that ran after it fell due, a frame
 * whose hand-over to the link took long. A software device on a loaded host (the reference NIC behind
 * {@code mrct serve}) is late for reasons that say nothing about the protocol; reporting it lets the harness tell such
 * a failure from a wrong answer. Written on the device thread, read from any thread.
 */
public final class OwnTimeline {
    /** What was late. */
    public enum Kind {
        /** A received frame waited between its capture and the device. */
        FRAME("a received frame waited between its capture and the device for"),
        /** Processing a received frame took long (the device's thread lost its CPU meanwhile). */
        PROCESSING("processing a received frame took"),
        /** A timer ran after it fell due. */
        TIMER("a timer ran after it fell due by"),
        /** Handing a frame to the link took long (the frames behind it waited). */
        TRANSMIT("handing a frame to the link took"),
        /**
         * The link's reader did not look for frames (a link that stamps frames when it reads them, such as a UDP socket,
         * cannot tell how long a frame waited in the kernel; a pause of its reader bounds that wait).
         */
        READER("the link's reader did not look for frames for"),
        /**
         * A frame the device sent left late by the delays along its way added up: the frame or timer that caused it
         * waited, the timers in between ran late, the hand-over to the link took long (each alone may be small).
         */
        CHAIN("a frame it sent was late, its cause's delays and its own added up, by"),
        /**
         * When asked, the device had work due that it had not done yet (a timer past due, a received frame waiting):
         * its thread was not running, so nothing it was late for had been measured yet.
         */
        BEHIND("when asked, it had work due and not yet done (its thread was not running) for");

        private final String text;

        Kind(final String text) {
            this.text = text;
        }

        /** The words before the duration ("a timer ran after it fell due by"). */
        public String text() {
            return text;
        }
    }

    /** Lateness at or above this counts as an event (below it is the ordinary cost of a frame). */
    public static final long EVENT_FLOOR_NANOS = 100_000;

    private long worstNanos;
    private Kind worst;
    private long events;

    /** The device was {@code nanos} late for {@code kind}. */
    public synchronized void late(final long nanos, final Kind kind) {
        if (nanos >= EVENT_FLOOR_NANOS) {
            events++;
        }
        if (nanos > worstNanos) {
            worstNanos = nanos;
            worst = kind;
        }
    }

    /** Forgets everything so far (a new case begins). */
    public synchronized void clear() {
        worstNanos = 0;
        worst = null;
        events = 0;
    }

    /** The worst lateness since the last {@link #clear()} (0 nanoseconds and no kind: none) and the event count. */
    public record Snapshot(long worstNanos, Kind worst, long events) {
    }

    /** What was late since the last {@link #clear()}, read at once. */
    public synchronized Snapshot snapshot() {
        return new Snapshot(worstNanos, worst, events);
    }
}

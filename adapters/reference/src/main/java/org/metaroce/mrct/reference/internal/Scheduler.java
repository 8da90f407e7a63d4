package org.metaroce.mrct.reference.internal;

import java.util.PriorityQueue;

/**
 * The reference NIC's virtual clock and its timers. Time moves only when the adapter runs the scheduler up to a
 * deadline; events at the same instant run in the order they were scheduled, so every run is deterministic.
 */
public final class Scheduler {
    /** A scheduled action; cancel it by setting {@link #cancelled}. */
    public static final class Event implements Comparable<Event> {
        final long time;
        final long seq;
        final Runnable action;
        boolean cancelled;

        Event(final long time, final long seq, final Runnable action) {
            this.time = time;
            this.seq = seq;
            this.action = action;
        }

        /** Cancels the event if it has not run. */
        public void cancel() {
            cancelled = true;
        }

        /** When it runs. */
        public long time() {
            return time;
        }

        @Override
        public int compareTo(final Event other) {
            return time != other.time ? Long.compare(time, other.time) : Long.compare(seq, other.seq);
        }
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long seq;

    /** Current virtual time, nanoseconds. */
    public long now() {
        return now;
    }

    /** Schedules {@code action} at {@code time} (not before now). */
    public Event at(final long time, final Runnable action) {
        final Event event = new Event(Math.max(time, now), seq++, action);
        queue.add(event);
        return event;
    }

    /** Time of the next live event, or {@link Long#MAX_VALUE}. */
    public long next() {
        while (!queue.isEmpty() && queue.peek().cancelled) {
            queue.poll();
        }
        return queue.isEmpty() ? Long.MAX_VALUE : queue.peek().time;
    }

    /** Runs the next event if it is due at or before {@code deadline}; returns false when none is. */
    public boolean runNext(final long deadline) {
        if (next() > deadline) {
            return false;
        }
        final Event event = queue.poll();
        now = Math.max(now, event.time);
        event.action.run();
        return true;
    }

    /** Moves the clock forward to {@code time} (never backward). */
    public void advanceTo(final long time) {
        now = Math.max(now, time);
    }

    /** Drops every event and resets nothing else (the clock keeps running forward). */
    public void clear() {
        queue.clear();
    }
}

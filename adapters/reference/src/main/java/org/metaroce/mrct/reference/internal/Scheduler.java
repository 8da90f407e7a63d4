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
        /** How late its cause ran (real time only, see {@link Scheduler#context}); 0 on virtual time. */
        long lag;

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
    /** How late the action running now is against the device's ideal timeline (real time only; 0 on virtual time). */
    private long lag;
    /** Events the running action scheduled while it was late (their lag is dropped when it transmits). */
    private final java.util.List<Event> scheduledLate = new java.util.ArrayList<>();

    /** Current virtual time, nanoseconds. */
    public long now() {
        return now;
    }

    /** Schedules {@code action} at {@code time} (not before now). */
    public Event at(final long time, final Runnable action) {
        final Event event = new Event(Math.max(time, now), seq++, action);
        event.lag = lag;
        if (lag > 0) {
            scheduledLate.add(event);
        }
        queue.add(event);
        return event;
    }

    /**
     * Real time only: the action about to run is {@code lagNanos} behind the device's ideal timeline (a received frame
     * that waited before the device took it, a timer that ran after it fell due, plus the lag of what scheduled it).
     * Every event it schedules inherits that lag, since its due time counts from the late moment: an RNR wait begun by
     * a NAK the device took 1 ms late ends 1 ms late even when its timer runs on time. The lag is dropped by
     * {@link #transmitted()}: the device's later timers then count from a frame the other end sees when it leaves.
     */
    public void context(final long lagNanos) {
        lag = Math.max(0, lagNanos);
        scheduledLate.clear();
    }

    /** The lag of the action running now (see {@link #context}). */
    public long lag() {
        return lag;
    }

    /**
     * The running action sent a frame: the other end judges what follows from that frame's own timestamp, so the
     * events this action scheduled (a retransmission timer started with the frame) and any it schedules from now on
     * carry no lag of their own cause.
     */
    public void transmitted() {
        if (lag == 0) {
            return;
        }
        for (final Event event : scheduledLate) {
            event.lag = 0;
        }
        scheduledLate.clear();
        lag = 0;
    }

    /** The lag the next live event inherited from what scheduled it (0 when none is scheduled). */
    public long nextLag() {
        return next() == Long.MAX_VALUE ? 0 : queue.peek().lag;
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

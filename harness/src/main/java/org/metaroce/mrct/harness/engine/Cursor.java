package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.harness.cases.Step;

/**
 * Where a running case stands: the step being executed (its index among the case's steps, counting those inside
 * {@code repeat} once per iteration) and the time the previous step ended, from which expectations measure their
 * windows. Setup steps and the end of the case have no step (index -1).
 */
final class Cursor {
    private int index = -1;
    private Step step;
    private long lastTime;
    private boolean paced;
    /** When the latest post_send returned on a real-time adapter (Long.MIN_VALUE: none, or virtual time). */
    private long postedBy = Long.MIN_VALUE;

    /** The index of the step being executed, or -1 outside the steps. */
    int index() {
        return index;
    }

    /** The step being executed, or null outside the steps. */
    Step step() {
        return step;
    }

    /** The next step starts. */
    void enter(final Step next) {
        index++;
        step = next;
    }

    /** The steps are over (the end-of-case checks run outside them). */
    void leave() {
        index = -1;
        step = null;
    }

    /** The time the previous step ended. */
    long lastTime() {
        return lastTime;
    }

    /**
     * The current step ended (so far) at {@code time}, but never before the latest post_send returned: a frame the
     * device sent for the first of several WQEs posted one call at a time may come before the later calls returned,
     * and the frames of the later WQEs cannot come before they were asked for (on a real-time adapter each call is a
     * round trip to the agent, tens of milliseconds in the Linux rxe lab), so the next window starts no earlier.
     */
    void endedAt(final long time) {
        lastTime = Math.max(time, postedBy);
        paced = true;
    }

    /**
     * A control-plane call returned at {@code time} on a real-time adapter: what the device was asked is certain to
     * have reached it by then, so the next window starts there at the latest (on virtual time a call takes no time).
     * The next frame's intended time stays unknown ({@link #controlCallMade()}).
     */
    void controlCallReturned(final long time) {
        lastTime = Math.max(lastTime, time);
        postedBy = Math.max(postedBy, time);
    }

    /**
     * A control-plane call was made: until a frame step ends again, the time the next frame is meant to leave is not
     * the previous step's end (the call took what it took, which is not the harness's lateness).
     */
    void controlCallMade() {
        paced = false;
    }

    /** When the case means the next frame to leave: the previous step's end, or Long.MIN_VALUE after a control call. */
    long intendedSendTime() {
        return paced ? lastTime : Long.MIN_VALUE;
    }
}

package org.metaroce.mrct.harness.engine;

/**
 * The harness's own lateness in one case on a real-time adapter, measured from the evidence it has: how long after the
 * moment the case meant a frame to leave it actually left (the send began late, or the send itself took long), and how
 * long the adapter's receive path was not looking around a deadline an expectation missed (a frame that arrived in
 * time would then carry a late timestamp). Lateness within the run's tolerance is the slack every window already
 * grants; beyond it, a failed expectation says nothing about the device: the case is INCONCLUSIVE and is run again
 * ({@link Runner#MAX_ATTEMPTS} runs at most). On virtual time nothing is late and nothing is recorded.
 */
final class HarnessLateness {
    /**
     * One late moment: the step it happened in (0-based; -1 outside the steps), what was late, and by how much. What
     * was late is worded only when asked: in a burst of frames each answered later than the one before, every frame
     * becomes the worst so far, and wording each (BigDecimal) cost more than answering it.
     */
    static final class Late {
        private final int step;
        private final long nanos;
        private final long budget;
        private final java.util.function.Supplier<String> wording;
        private String what;

        Late(final int step, final String what, final long nanos, final long budget) {
            this(step, () -> what, nanos, budget);
        }

        Late(final int step, final java.util.function.Supplier<String> what, final long nanos, final long budget) {
            this.step = step;
            this.wording = what;
            this.nanos = nanos;
            this.budget = budget;
        }

        int step() {
            return step;
        }

        /** What was late ("sending its frame took"). */
        String what() {
            if (what == null) {
                what = wording.get();
            }
            return what;
        }

        long nanos() {
            return nanos;
        }

        long budget() {
            return budget;
        }

        /** One line for reasons and notes ("step 4: sending its frame took 3 ms; the run tolerates 1 ms"). */
        String describe() {
            return (step < 0 ? "setup" : "step " + (step + 1)) + ": " + what() + " " + Timing.measured(nanos)
                + "; the run tolerates " + Timing.nanos(budget);
        }
    }

    /** A pause of the receive path shorter than this is the reader's ordinary polling, not lateness. */
    static final long PAUSE_FLOOR_NANOS = 100_000;

    private final boolean measured;
    private final long budget;
    private Late worst;
    /** The worst lateness on the way to the device (frames sent, answers held by a call) and on the way back. */
    private long worstOut;
    private long worstIn;

    /**
     * @param measured whether the adapter runs in real time (on virtual time the harness is never late)
     * @param budgetNanos the lateness the run tolerates: its absolute timing tolerance
     */
    HarnessLateness(final boolean measured, final long budgetNanos) {
        this.measured = measured;
        this.budget = Math.max(0, budgetNanos);
    }

    /**
     * A frame of step {@code step} left: the case meant it at {@code intended} (Long.MIN_VALUE when a control-plane
     * call came in between, whose duration is not the harness's to keep), the send began at {@code began} and had
     * returned at {@code returned}, all on the adapter's clock.
     */
    void frameSent(final int step, final long intended, final long began, final long returned) {
        if (!measured) {
            return;
        }
        if (intended != Long.MIN_VALUE && began > intended) {
            // both delays are on the frame's way: it reached the device as late as they add up (until 2026-12-03
            // only the larger counted, so a frame begun 1.2 ms late whose send took 1.2 ms was within 2 ms)
            if (noted(returned - intended, true)) {
                worst = new Late(step, () -> "its frame left later than the case meant (it began "
                    + Timing.measured(began - intended) + " late, and sending it took " + Timing.measured(returned
                    - began) + ") by", returned - intended, budget);
            }
            return;
        }
        if (noted(returned - began, true)) {
            worst = new Late(step, "sending its frame took", returned - began, budget);
        }
    }

    /**
     * A control-plane call the device acts on ({@code op}: a {@code post_send}, a {@code modify_qp}, ...) of step
     * {@code step} began at {@code began}, where the case meant it at {@code intended} (the previous step's end, such
     * as the end of an {@code advance}; Long.MIN_VALUE when another control call came in between, whose duration is
     * not the harness's to keep). The case's timeline after it is then the harness's doing: RTX-012 posts its WRITE
     * halfway through a 10 us RNR wait and counts the resend's {@code after} bound from when that call began, so a call
     * begun 3 ms late makes the device's punctual resend look 3 ms early.
     *
     * <p>Beyond the tolerance a failed expectation is INCONCLUSIVE, as for a frame sent late. Within it the lateness is
     * not added to the harness's share of the tolerance ({@link #worstNanos()}): that share is what lies on the way of
     * a frame and the device's answer to it, and the device's frames that the case times from a call are timed from
     * when the call began or returned (its {@code after} and {@code within} bounds), not from when the case meant it.
     */
    void controlCallBegan(final int step, final String op, final long intended, final long began) {
        if (!measured || intended == Long.MIN_VALUE || began <= intended) {
            return;
        }
        final Late late = new Late(step, "its " + callName(op) + " call began later than the case meant, by",
            began - intended, budget);
        if (late.nanos() > budget && (worst == null || late.nanos() > worst.nanos())) {
            worst = late;
        }
    }

    /** A control-plane call as case files name it: {@code postSend} is {@code post_send}. */
    private static String callName(final String op) {
        return op.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * A control-plane call of step {@code step} that only reads ({@code op}: polling completions, reading memory,
     * counters or a QP's state), which leaves the case's timeline alone, ran from {@code began} to {@code returned}. On
     * virtual time a call takes none of the device's time; on real time the device's timers run on meanwhile, and a
     * call that takes longer than the tolerance stretches the case beyond what its windows allow for:
     * CMP-014 over veth polled completions and read memory between its acknowledgements for 16 ms, the device rightly
     * inferred the atomic response lost (its reorder_time_ns, scaled, was 8 ms) and asked again, which the case calls
     * an unexpected frame. Beyond the tolerance a failed expectation after it is INCONCLUSIVE; within it, nothing is
     * noted (not in {@link #worstNanos()} either). A call the device acts on is not judged here: the case's timeline
     * starts again when it returned ({@link Cursor#controlCallReturned}).
     */
    void controlCallTook(final int step, final String op, final long began, final long returned) {
        if (!measured || returned - began <= budget) {
            return;
        }
        final Late late = new Late(step, "its " + callName(op) + " call took", returned - began, budget);
        if (worst == null || late.nanos() > worst.nanos()) {
            worst = late;
        }
    }

    /**
     * A frame from the device that step {@code step} waited for was captured at {@code frameAt}, while a control-plane
     * call the device acts on (a {@code post_send}, one of the several calls of a {@code post_send} with {@code count},
     * a {@code modify_qp}) was under way until {@code returned}: the device acted as soon as the call reached it, but
     * the harness could answer that frame, or judge what follows it, only once the call(s) returned. The part of the
     * calls' duration beyond the frame is the harness's lateness: a device timer the case means the harness to beat
     * may run out meanwhile, and a window that the calls ate then says nothing about the device.
     */
    void workPosted(final int step, final long frameAt, final long returned) {
        if (!measured || returned <= frameAt) {
            return;
        }
        if (noted(returned - frameAt, true)) {
            worst = new Late(step, "the device's frame came while a control-plane call was under way (the harness "
                + "could answer it only when the call returned), late by", returned - frameAt, budget);
        }
    }

    /**
     * An expectation of step {@code step} found nothing by its deadline while the receive path had not looked for
     * {@code pauseNanos} around that deadline: a frame stamped after the deadline may have arrived before it.
     */
    void blindAtDeadline(final int step, final long pauseNanos) {
        if (!measured || pauseNanos < PAUSE_FLOOR_NANOS) {
            return;
        }
        if (noted(pauseNanos, false)) {
            worst = new Late(step, "the receive path did not look across the deadline for", pauseNanos, budget);
        }
    }

    /**
     * A frame from the device of step {@code step} was stamped when the adapter's receive path looked again after not
     * looking for {@code pauseNanos}: it may have arrived up to that much earlier than its timestamp says, so a
     * judgement that it came late says nothing certain (a link that stamps frames when it reads them, as UDP does).
     */
    void stampedAfterPause(final int step, final long pauseNanos) {
        if (!measured || pauseNanos < PAUSE_FLOOR_NANOS) {
            return;
        }
        if (noted(pauseNanos, false)) {
            worst = new Late(step, "a frame from the device was stamped after the receive path had not looked for",
                pauseNanos, budget);
        }
    }

    /**
     * Counts {@code nanos} of lateness on the way to the device ({@code out}) or back; true when it is beyond the
     * tolerance and the worst so far, so that the caller records it as {@link #worst}. The description is built only
     * then, and worded only when asked ({@link Late}): on real time nearly every frame leaves a little late, and wording
     * each one's lateness took 14% of the harness's CPU in a burst of requests answered one by one (JFR, RTX-001 and
     * RTX-003 over UDP, 2026-12-03).
     */
    private boolean noted(final long nanos, final boolean out) {
        if (out) {
            worstOut = Math.max(worstOut, nanos);
        } else {
            worstIn = Math.max(worstIn, nanos);
        }
        return nanos > budget && (worst == null || nanos > worst.nanos());
    }

    /** The worst lateness beyond the run's tolerance so far, or null when the harness kept its timeline. */
    Late beyondBudget() {
        return worst;
    }

    /**
     * The harness's share of the tolerance, within it or not (0 on virtual time): the worst lateness on the way to the
     * device plus the worst on the way back, since a judgement of the device's answer to the harness's frame meets one
     * of each (a NAK sent late and the resend it asks for read late); what is left of the tolerance is the device's
     * ({@link DeviceLateness}). Until 2026-12-03 the larger of the two alone.
     */
    long worstNanos() {
        return worstOut + worstIn;
    }

    /** The tolerance the lateness is judged against. */
    long budget() {
        return budget;
    }
}

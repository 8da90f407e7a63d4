package org.metaroce.mrct.harness.engine;

/**
 * The harness's numbering of its own requests on one connection: the next PSN (relative to space A), the next MSN and
 * RSN, and where the message being sent packet by packet through raw sends stands. Whole messages take their numbers
 * at once; raw packets use them and move them past what was sent.
 */
final class HarnessNumbering {
    private int nextPsn;
    private int nextMsn;
    private int nextRsn;
    private int currentMsn;
    private int currentRsn;
    private long currentOffset;

    /** Next PSN the harness sends, relative to the connection's space A. */
    int nextPsn() {
        return nextPsn;
    }

    /** The MSN of a raw packet: the next one when it starts a message, else the current message's. */
    int msn(final boolean starts) {
        return starts ? nextMsn : currentMsn;
    }

    /** The RSN of a raw packet: the next one when it starts a message, else the current message's. */
    int rsn(final boolean starts) {
        return starts ? nextRsn : currentRsn;
    }

    /** The message offset of a raw packet: 0 when it starts a message, else where the previous packet ended. */
    long messageOffset(final boolean starts) {
        return starts ? 0 : currentOffset;
    }

    /**
     * A raw packet was built: a first (or only) packet makes its MSN and RSN current; the last packet of a request
     * moves the next MSN (and RSN, when it consumes a receive WQE) past its own; a request moves the next PSN past its
     * span.
     */
    void packetBuilt(final boolean starts, final boolean ends, final boolean request,
                     final boolean consumesWqe, final int msn, final int rsn, final long offsetAfter, final int psn,
                     final int span) {
        if (starts) {
            currentMsn = msn;
            currentRsn = rsn;
        }
        if (ends && request) {
            nextMsn = Math.max(nextMsn, msn + 1);
            if (consumesWqe) {
                nextRsn = Math.max(nextRsn, rsn + 1);
            }
        }
        currentOffset = offsetAfter;
        if (psn + span - nextPsn > 0 && request) {
            nextPsn = psn + span;
        }
    }

    /** A whole message takes the next MSN. */
    int takeMsn() {
        return nextMsn++;
    }

    /** A whole message that consumes a receive WQE takes the next RSN. */
    int takeRsn() {
        return nextRsn++;
    }

    /** A whole message takes {@code span} PSNs; returns its first. */
    int takePsns(final int span) {
        final int first = nextPsn;
        nextPsn += span;
        return first;
    }

    /** After a RESET: the next message has PSN 0, MSN 0 and RSN 0. */
    void restart() {
        nextPsn = 0;
        nextMsn = 0;
        nextRsn = 0;
        currentMsn = 0;
        currentRsn = 0;
        currentOffset = 0;
    }
}

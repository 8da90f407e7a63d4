package org.metaroce.mrct.oracle;

/**
 * MR-REQ-011 for one QP: a requester sets bth.ackreq at least once in every ack_req_interval consecutive first
 * transmissions. The caller gives it each first transmission in PSN order ({@link #onFirstTransmission}) and says
 * where the run breaks ({@link #breakRun}: a hole or a first transmission out of order, which a capture may show where
 * a live run never does); the run is judged against an interval the caller states, once for each threshold it asks.
 */
public final class RequesterAckReq {
    /** The rule. */
    public static final String RULE = "MR-REQ-011";

    private long run;

    /** Takes one first transmission; returns the number of first transmissions in a row without AckReq, this one's. */
    public long onFirstTransmission(final boolean ackReq) {
        run = ackReq ? 0 : run + 1;
        return run;
    }

    /** The run breaks here: what follows starts a new one. */
    public void breakRun() {
        run = 0;
    }

    /** The current run of first transmissions without AckReq. */
    public long run() {
        return run;
    }

    /**
     * The finding when the run has reached {@code interval} (exactly, so that it is found once per run and threshold),
     * or null.
     */
    public Finding reached(final long interval, final long frame, final Basis basis) {
        if (run != interval || interval <= 0) {
            return null;
        }
        return new Finding(RULE, "bth.ackreq", "1 at least once in " + interval + " first transmissions",
            "0 in " + run, frame, basis);
    }
}

package org.metaroce.mrct.oracle;

/**
 * MR-RTX-001: a requester never sends again a PSN it has learnt was delivered. It learns so from an answer; a
 * retransmission that leaves within the reaction time after that answer (the caller's slack: the live engine's
 * tolerance, the analyzer's reaction time for the flow) may have been on its way already and is no violation. The one
 * retransmission of a delivered PSN section 13.4 allows, the acknowledgement probe, the caller recognises first: it
 * depends on what the caller knows of the send queue.
 */
public final class RequesterResend {
    /** The rule. */
    public static final String RULE = "MR-RTX-001";
    /** A PSN not known delivered. */
    public static final long NOT_DELIVERED = Long.MIN_VALUE;

    private RequesterResend() {
    }

    /**
     * The finding on a retransmission of {@code psn} (as the caller names it: relative to sq_psn live, the wire's in a
     * capture) at {@code nowNs}, which the requester learnt delivered at {@code deliveredNs} ({@link #NOT_DELIVERED}
     * when it did not), or null.
     */
    public static Finding check(final String psn, final long deliveredNs, final long nowNs, final long slackNs,
                                final long frame, final Basis basis) {
        if (deliveredNs == NOT_DELIVERED || deliveredNs + slackNs >= nowNs) {
            return null;
        }
        return new Finding(RULE, "bth.psn", "a PSN not delivered", psn + " (delivered " + (nowNs - deliveredNs)
            + " ns before)", frame, basis);
    }
}

package org.metaroce.mrct.analyzer;

/**
 * What only two views of the same traffic show (captures taken at different points of its path, e.g. at the sender's
 * and at the receiver's host): a frame one capture saw and a capture further along its path did not.
 *
 * @param kind       {@link Kind#LOST}: seen upstream, not downstream; {@link Kind#NOT_SENT}: seen downstream, never
 *                   seen upstream
 * @param flow       the flow: {@code 10.0.0.1 -> 10.0.0.2 qp 0x000022}
 * @param psn        the frame's PSN
 * @param opcode     its opcode's name
 * @param seenIn     the capture that saw it (for LOST, the last one along the path that did)
 * @param frame      its 1-based record number in {@code seenIn}
 * @param tsNs       its timestamp there, nanoseconds since the epoch
 * @param missingIn  the capture that did not see it although it was capturing then
 */
public record ViewFinding(Kind kind, String flow, int psn, String opcode, String seenIn, long frame, long tsNs,
                          String missingIn) {
    /** The two findings two views allow. */
    public enum Kind {
        /** Seen by a capture upstream, missing from one downstream: lost between them (in the network). */
        LOST,
        /** Seen by a capture downstream, never by one upstream: the upstream capture missed it, or it was made on
         * the way (a copy, a forgery). */
        NOT_SENT
    }

    /** One line: {@code LOST 10.0.0.1 -> 10.0.0.2 qp 0x000022 PSN 123 (RDMA_WRITE_ONLY): frame 7 of a.pcap, ...}. */
    public String describe() {
        return kind + " " + flow + " PSN " + psn + " (" + opcode + "): frame " + frame + " of " + seenIn
            + (kind == Kind.LOST ? ", the last capture that saw it; not in " : "; never in ") + missingIn;
    }
}

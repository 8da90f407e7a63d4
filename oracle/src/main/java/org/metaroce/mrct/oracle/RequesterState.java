package org.metaroce.mrct.oracle;

/**
 * What a requester knows of its own PSN space when an answer reaches it: the view {@link RequesterAnswers} judges an
 * answer against (Table 11-4). PSNs are the wire's, 24 bits. The live engine builds it from the work requests it
 * posted and the answers it sent; {@code mrct analyze} from the requests and answers of the capture.
 */
public interface RequesterState {
    /** True for a TVer 0 QP (section 16): NAK 0x60 is its sequence NAK, and an ACK's point is bth.psn + 1. */
    boolean legacy();

    /** One past the highest PSN sent for the first time (the PSNs of a READ's span included). */
    int nextPsn();

    /** True when {@code psn} was sent (or lies in the span of a READ sent) and is not known delivered. */
    boolean outstanding(int psn);

    /**
     * True when {@code psn} lies in the span of a READ the requester sent, as it segments the read with its own PMTU:
     * an outstanding READ, or one among the last max_rd_atomic it completed (its responses are duplicates). A view
     * that cannot tell completed READs apart answers for every READ it remembers.
     */
    boolean inReadSpan(int psn);
}

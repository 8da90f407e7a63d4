package org.metaroce.mrct.spi;

/**
 * A send work request (the device as requester).
 *
 * @param wrId the caller's identifier, returned in the completion
 * @param opcode the operation
 * @param localVa address of the local buffer (source of sends and writes, destination of reads and atomics)
 * @param length bytes to transfer (8 for atomics)
 * @param lkey local key of the local buffer
 * @param remoteVa remote address (writes, reads, atomics)
 * @param rkey remote key (writes, reads, atomics)
 * @param immediate immediate data (WITH_IMM) or the R_Key to invalidate (SEND_WITH_INV)
 * @param compareAdd compare value (COMPARE_SWAP) or addend (FETCH_ADD)
 * @param swap swap value (COMPARE_SWAP)
 * @param signaled whether a successful completion is generated
 * @param fence whether the WQE waits for every earlier READ and atomic to complete (MetaRoCE v1 section 12.6)
 * @param solicited whether the last packet of a SEND or WRITE WITH IMMEDIATE asks for a solicited event
 */
public record SendWqe(long wrId, WorkOpcode opcode, long localVa, long length, int lkey, long remoteVa, int rkey,
                      int immediate, long compareAdd, long swap, boolean signaled, boolean fence, boolean solicited) {
    /** A WQE without fence and solicited event. */
    public SendWqe(final long wrId, final WorkOpcode opcode, final long localVa, final long length, final int lkey,
                   final long remoteVa, final int rkey, final int immediate, final long compareAdd, final long swap,
                   final boolean signaled) {
        this(wrId, opcode, localVa, length, lkey, remoteVa, rkey, immediate, compareAdd, swap, signaled, false, false);
    }
}

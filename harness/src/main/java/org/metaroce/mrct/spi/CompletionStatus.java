package org.metaroce.mrct.spi;

/** Completion status values (MetaRoCE v1 Table 7-3). */
public enum CompletionStatus {
    SUCCESS,
    /** The QP is in ERROR. */
    FLUSHED,
    /** A SEND did not fit the receive WQE's buffer. */
    LOCAL_LENGTH_ERROR,
    /** A SEND WITH INVALIDATE named a key that could not be invalidated. */
    LOCAL_ACCESS_ERROR,
    /** retry_cnt exhausted. */
    RETRY_EXCEEDED,
    /** rnr_retry exhausted. */
    RNR_RETRY_EXCEEDED,
    /** NAK 0x61 received. */
    REMOTE_INVALID_REQUEST,
    /** NAK 0x62 received. */
    REMOTE_ACCESS_ERROR,
    /** NAK 0x63 received. */
    REMOTE_OPERATIONAL_ERROR
}

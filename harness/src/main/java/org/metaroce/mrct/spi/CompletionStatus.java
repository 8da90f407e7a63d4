package org.metaroce.mrct.spi;

/** Completion status codes (verbs names). */
public enum CompletionStatus {
    SUCCESS,
    LOC_LEN_ERR,
    LOC_QP_OP_ERR,
    LOC_PROT_ERR,
    WR_FLUSH_ERR,
    REM_INV_REQ_ERR,
    REM_ACCESS_ERR,
    REM_OP_ERR,
    RETRY_EXC_ERR,
    RNR_RETRY_EXC_ERR,
    GENERAL_ERR
}

package org.metaroce.mrct.spi;

/** Operations of send work requests and of completions. */
public enum WorkOpcode {
    SEND,
    SEND_WITH_IMM,
    SEND_WITH_INV,
    RDMA_WRITE,
    RDMA_WRITE_WITH_IMM,
    RDMA_READ,
    COMPARE_SWAP,
    FETCH_ADD,
    /** Completion of a receive WQE by a SEND. */
    RECV,
    /** Completion of a receive WQE by an RDMA WRITE WITH IMMEDIATE. */
    RECV_RDMA_WITH_IMM
}

package org.metaroce.mrct.wire;

/** What an opcode does, independent of its transport and of its position in a message. */
public enum OpKind {
    SEND,
    RDMA_WRITE,
    RDMA_READ_REQUEST,
    RDMA_READ_RESPONSE,
    ACKNOWLEDGE,
    ATOMIC_ACKNOWLEDGE,
    COMPARE_SWAP,
    FETCH_ADD,
    FLUSH,
    ATOMIC_WRITE,
    CNP,
    /** A reserved, unsupported or manufacturer-specific opcode. */
    UNKNOWN;

    /** True for the kinds a requester sends (requests that consume PSNs at the responder). */
    public boolean isRequest() {
        return this == SEND || this == RDMA_WRITE || this == RDMA_READ_REQUEST || this == COMPARE_SWAP
            || this == FETCH_ADD || this == FLUSH || this == ATOMIC_WRITE;
    }

    /** True for atomic requests. */
    public boolean isAtomic() {
        return this == COMPARE_SWAP || this == FETCH_ADD;
    }
}

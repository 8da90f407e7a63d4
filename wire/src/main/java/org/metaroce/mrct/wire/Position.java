package org.metaroce.mrct.wire;

/** Position of a packet in its message, as the opcode states it. */
public enum Position {
    FIRST,
    MIDDLE,
    LAST,
    ONLY,
    /** Opcodes that are not part of a multi-packet message (ACKs, atomics, read requests, CNP). */
    NONE;

    /** True for FIRST and ONLY. */
    public boolean isFirst() {
        return this == FIRST || this == ONLY;
    }

    /** True for LAST and ONLY. */
    public boolean isLast() {
        return this == LAST || this == ONLY;
    }
}

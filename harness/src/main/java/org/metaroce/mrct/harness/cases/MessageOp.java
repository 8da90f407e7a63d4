package org.metaroce.mrct.harness.cases;

import java.util.Locale;

/** The kinds of message a {@code message}, {@code flow} or {@code post_send} step names with {@code op}. */
public enum MessageOp {
    SEND,
    SEND_IMM,
    SEND_INV,
    WRITE,
    WRITE_IMM,
    READ,
    CMP_SWAP,
    FETCH_ADD;

    /** The name case files use ({@code send_imm}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The operation with this label, or null. */
    public static MessageOp byLabel(final String text) {
        for (final MessageOp op : values()) {
            if (op.label().equals(text)) {
                return op;
            }
        }
        return null;
    }

    /** SEND, SEND with immediate or with invalidate: consumes a receive WQE at the responder. */
    public boolean isSend() {
        return this == SEND || this == SEND_IMM || this == SEND_INV;
    }

    /** RDMA WRITE, with or without immediate. */
    public boolean isWrite() {
        return this == WRITE || this == WRITE_IMM;
    }

    /** COMPARE SWAP or FETCH ADD. */
    public boolean isAtomic() {
        return this == CMP_SWAP || this == FETCH_ADD;
    }

    /** Carries immediate data. */
    public boolean hasImmediate() {
        return this == SEND_IMM || this == WRITE_IMM;
    }

    /** Needs a remote buffer (a region, or an address and R_Key). */
    public boolean needsRemote() {
        return isWrite() || this == READ || isAtomic();
    }

    @Override
    public String toString() {
        return label();
    }
}

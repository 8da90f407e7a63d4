package org.metaroce.mrct.reference.internal;

import java.util.Locale;

/** The counters of MetaRoCE v1 Appendix C, Table C-1. */
public enum Counter {
    DROP_TRUNCATED(false),
    DROP_LENGTH_MISMATCH(false),
    DROP_BAD_PAD(false),
    DROP_BAD_ICRC(false),
    DROP_BAD_UDP_CHECKSUM(false),
    DROP_BAD_IP_HEADER(false),
    DROP_UNKNOWN_TVER(false),
    DROP_LEGACY_DISABLED(true),
    DROP_TVER_MISMATCH(true),
    DROP_UNSUPPORTED_OPCODE(false),
    DROP_UNKNOWN_QP(false),
    DROP_PKEY_MISMATCH(true),
    DROP_WRONG_PEER(true),
    DROP_QP_STATE(true),
    DROP_INVALID_SEQUENCE(true),
    DROP_OUTSIDE_WINDOW(true),
    DROP_UNEXPECTED_RESPONSE(true),
    DROP_INVALID_REQUEST(true),
    DROP_ACCESS_ERROR(true),
    DROP_RNR(true),
    ACK_SENT(true),
    NAK_SENT(true),
    RNR_NAK_SENT(true),
    CNP_SENT(true),
    CNP_RECEIVED(true),
    CE_RECEIVED(true),
    DUPLICATE_RECEIVED(true),
    RETRANSMITTED(true),
    TIMEOUTS(true);

    private static final Counter[] VALUES = values();

    private final boolean perQp;
    private final String label;

    Counter(final boolean perQp) {
        this.perQp = perQp;
        this.label = name().toLowerCase(Locale.ROOT);
    }

    /** True when the counter is also kept per QP (Appendix C). */
    public boolean perQp() {
        return perQp;
    }

    /** The Appendix C name. */
    public String label() {
        return label;
    }

    /** All counters, shared array (do not modify). */
    static Counter[] all() {
        return VALUES;
    }
}

package org.metaroce.mrct.spi;

import java.util.Locale;

/**
 * The QP attributes the control plane sets (MetaRoCE v1 Appendix B, QP attribute table). Each has a value type;
 * {@link QpAttributes} checks values against it.
 */
public enum QpAttribute {
    PD(Type.INT),
    DEST_QPN(Type.INT),
    SQ_PSN(Type.INT),
    RQ_PSN(Type.INT),
    PMTU(Type.INT),
    RECV_WINDOW(Type.INT),
    SEND_WINDOW(Type.INT),
    ACK_REQ_INTERVAL(Type.INT),
    RTO_LOW_NS(Type.LONG),
    RTO_HIGH_NS(Type.LONG),
    N_LOW(Type.INT),
    REORDER_THRESHOLD(Type.INT),
    REORDER_TIME_NS(Type.LONG),
    RETRY_CNT(Type.INT),
    RNR_RETRY(Type.INT),
    MIN_RNR_TIMER(Type.INT),
    MAX_RD_ATOMIC(Type.INT),
    MAX_DEST_RD_ATOMIC(Type.INT),
    ACCESS(Type.ACCESS_SET),
    PKEY(Type.INT),
    TVER(Type.INT),
    SPRAY(Type.BOOL),
    DEST_IP(Type.STRING),
    DEST_MAC(Type.LONG),
    VLAN(Type.INT),
    DSCP(Type.INT),
    UDP_SPORT(Type.INT),
    LINE_RATE_MBPS(Type.LONG),
    DCQCN_G(Type.DOUBLE),
    DCQCN_ALPHA_INIT(Type.DOUBLE),
    DCQCN_ALPHA_TIMER_NS(Type.LONG),
    DCQCN_RATE_TIMER_NS(Type.LONG),
    DCQCN_BYTE_COUNTER(Type.LONG),
    DCQCN_F(Type.INT),
    DCQCN_RAI_MBPS(Type.LONG),
    DCQCN_RHAI_MBPS(Type.LONG),
    DCQCN_MIN_RATE_MBPS(Type.LONG);

    /** Value types. */
    public enum Type { INT, LONG, DOUBLE, BOOL, STRING, ACCESS_SET }

    private final Type type;
    /** Computed once: control-plane journals name attributes hundreds of thousands of times in a scale case. */
    private final String label = name().toLowerCase(Locale.ROOT);

    QpAttribute(final Type type) {
        this.type = type;
    }

    public Type type() {
        return type;
    }

    /** The snake_case name of the specification ({@code recv_window}). */
    public String label() {
        return label;
    }

    /** The attribute with this name, or null. */
    public static QpAttribute byLabel(final String text) {
        for (final QpAttribute attribute : values()) {
            if (attribute.label().equals(text)) {
                return attribute;
            }
        }
        return null;
    }
}

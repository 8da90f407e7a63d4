package org.metaroce.mrct.harness.engine;

import java.util.ArrayDeque;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;

/**
 * The udp.sport values of one connection's data packets from the device since its QP was last modified, beside the
 * QP's spray and udp_sport attributes (section 15.1; MR-MP-001, 002, 004). The rules themselves are checked by the
 * per-frame transmit checks; this holds what they remember.
 */
final class SourcePorts {
    /** How many consecutive data packets a sprayed QP must spread over at least 2 ports. */
    static final int SPRAY_RUN = 16;

    private boolean spray;
    private Integer fixed;
    private Integer first;
    private final ArrayDeque<Integer> recent = new ArrayDeque<>();

    /** Whether the QP sprays its packets over ports. */
    boolean spray() {
        return spray;
    }

    /** The QP's udp_sport attribute, or null when the device chooses. */
    Integer fixed() {
        return fixed;
    }

    /** Takes the spray and udp_sport attributes given at creation or in a modification (absent ones stay). */
    void configure(final QpAttributes attributes) {
        if (attributes.has(QpAttribute.SPRAY)) {
            spray = attributes.getBoolean(QpAttribute.SPRAY, spray);
        }
        if (attributes.has(QpAttribute.UDP_SPORT)) {
            fixed = attributes.getInt(QpAttribute.UDP_SPORT, 0);
        }
    }

    /**
     * Spray off: the port of the first data packet since the last modification; {@code port} becomes it when there is
     * none yet.
     */
    int firstDataPort(final int port) {
        if (first == null) {
            first = port;
        }
        return first;
    }

    /**
     * Spray on: remembers {@code port} among the last {@link #SPRAY_RUN} data packets' ports; true when those are
     * {@link #SPRAY_RUN} packets all on one port.
     */
    boolean sprayedOnOnePort(final int port) {
        recent.addLast(port);
        if (recent.size() > SPRAY_RUN) {
            recent.removeFirst();
        }
        return recent.size() == SPRAY_RUN && recent.stream().distinct().count() == 1;
    }

    /** Forgets the ports seen so far (the QP was modified). */
    void forget() {
        first = null;
        recent.clear();
    }
}

package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;

/**
 * The QP's spray and udp_sport attributes (section 15.1), as the case configured them: what the oracle is told
 * ({@link Connection#facts()}). The ports the device used are remembered by the oracle's {@code QpStream}.
 */
final class SourcePorts {
    private boolean spray;
    private Integer fixed;

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

}

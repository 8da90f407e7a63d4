package org.metaroce.mrct.harness.cases;

import java.util.Map;
import org.metaroce.mrct.spi.QpAttribute;

/**
 * A QP on the device and the harness's end of it.
 *
 * @param name the name steps use
 * @param network the IP version
 * @param vlan VLAN ID, or null for untagged
 * @param attributes QP attributes, typed by attribute
 * @param psn initial PSN of requests to the device (its rq_psn), or null for a seeded random one
 * @param devicePsn initial PSN of the device's requests (its sq_psn), or null for a seeded random one
 * @param count how many such QPs to create (scale cases), 1 by default; steps name them {@code name[i]}
 * @param pd the name of an earlier connection whose protection domain this one shares, or null for a PD of its own
 * @param peer whether the harness's end is a peer device (a conforming responder the engine runs, see
 *     {@code org.metaroce.mrct.spi.Peer}) rather than the case's own frames
 * @param peerAttributes QP attributes of the peer's QP beyond those it shares with the device's (PMTU, TVer, P_Key)
 * @param line line in the case file
 */
public record ConnectionDef(String name, IpVersion network, Expr vlan, Map<QpAttribute, AttributeValue> attributes,
                            Expr psn, Expr devicePsn, Expr count, String pd, boolean peer,
                            Map<QpAttribute, AttributeValue> peerAttributes, int line) {
    public ConnectionDef {
        attributes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(attributes));
        peerAttributes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(peerAttributes));
    }
}

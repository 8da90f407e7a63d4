package org.metaroce.mrct.oracle;

/**
 * What the caller knows of the QP that sent a frame, each item optional (null or -1 when unknown). The live engine
 * configured the QP and knows it all; {@code mrct analyze} infers the P_Key and the transport version from the
 * capture and knows neither the spray attribute nor the source port attribute.
 *
 * @param tver       the QP's tver attribute (0 or 1), or -1 when unknown (MR-WIRE-013)
 * @param pkey       the QP's pkey (MR-WIRE-013, MR-HDR-012), or null
 * @param pkeyBasis  where {@code pkey} comes from (configured, or inferred from an earlier frame); null with it
 * @param spray      the QP's spray attribute (MR-MP-001, MR-MP-002, MR-MP-004), or null when unknown
 * @param udpSport   the QP's udp_sport attribute (MR-MP-001), or null when the device chooses or it is unknown
 * @param psnOrigin  the initial PSN of the requests the QP acknowledges: PSNs of its acknowledgements are shown
 *                   relative to it (the script space of a case), absolute when null
 */
public record QpFacts(int tver, Integer pkey, Basis pkeyBasis, Boolean spray, Integer udpSport, Integer psnOrigin) {
    /** Nothing known about the QP. */
    public static final QpFacts UNKNOWN = new QpFacts(-1, null, null, null, null, null);

    public QpFacts {
        if (tver < -1 || tver > 15) {
            throw new IllegalArgumentException("tver " + tver + " is not 0 to 15 (or -1, unknown)");
        }
        if (pkey != null && pkeyBasis == null) {
            throw new IllegalArgumentException("a pkey needs its basis");
        }
    }
}

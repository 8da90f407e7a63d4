package org.metaroce.mrct.oracle;

/**
 * The rules the oracle judges, each checked in exactly one place: the per-frame rules ({@link FrameOracle}) and the
 * rules over one QP's stream of frames ({@link QpStream}). The order is the order the checks run in, so the first
 * finding of a frame is the most basic thing wrong with it.
 */
public enum FrameRule {
    /** Ethernet II, EtherType, the port's own eth.src, VLAN DEI 0; a frame that does not decode names it too. */
    WIRE_001("MR-WIRE-001", "Ethernet II from the port's own MAC, at most one 802.1Q tag, DEI 0"),
    /** eth.dst is the QP's configured peer. */
    MP_007("MR-MP-007", "addressed to the QP's configured peer (eth.dst)"),
    /** IPv4 header fields of the transmit column of Table 1-3. */
    WIRE_004("MR-WIRE-004", "IPv4 header fields"),
    /** IPv6 header fields of the transmit column of Table 1-4. */
    WIRE_007("MR-WIRE-007", "IPv6 header fields"),
    /** UDP checksum 0. */
    WIRE_009("MR-WIRE-009", "UDP length and zero checksum"),
    /** The UDP source port of a data packet in 0xC000-0xFFFF. */
    WIRE_010("MR-WIRE-010", "UDP source port of data packets in 0xC000-0xFFFF"),
    /** The ICRC. */
    WIRE_014("MR-WIRE-014", "ICRC of every frame sent"),
    /** BTH fixed values of every packet but a CNP (Table 1-6). */
    WIRE_013("MR-WIRE-013", "BTH fixed values: M, FECN, BECN, reserved bits, TVer, SE, AckReq, P_Key"),
    /** CNP field values (Table 2-11). */
    HDR_012("MR-HDR-012", "CNP layout and field values (Table 2-11)"),
    /** Pad count and zero pad bytes. */
    WIRE_019("MR-WIRE-019", "pad count and zero pad bytes"),
    /** A TVer 1 packet: an opcode of Table 2-1 and a payload only where it has one. */
    HDR_001("MR-HDR-001", "extension headers and payload of the opcode (Table 2-1)"),
    /** A TVer 0 packet: an RC opcode of Table D-4 and a payload only where it has one. */
    LEG_001("MR-LEG-001", "TVer 0 and the RoCEv2 headers of the opcode (Table D-4)"),
    /** pleth.first and pleth.last agree with the opcode. */
    HDR_002("MR-HDR-002", "pleth.first and pleth.last agree with the opcode"),
    /** PLETH reserved bits 0. */
    HDR_003("MR-HDR-003", "PLETH reserved bits zero"),
    /** pleth.rsn 0 in a read response (the per-frame part of the rule). */
    RD_004("MR-RD-004", "READ RESPONSE pleth.rsn 0"),
    /** AETH syndromes a device sends. */
    HDR_008("MR-HDR-008", "AETH syndromes a device may send"),
    /** AtomicETH: an 8-byte aligned address, compare 0 in a FETCH ADD. */
    HDR_009("MR-HDR-009", "AtomicETH: 8-byte aligned address, compare 0 in FETCH ADD"),
    /** No NAK 0x60 from a TVer 1 QP. */
    ACK_013("MR-ACK-013", "no NAK 0x60 from a TVer 1 QP"),
    /** SACKETH: reserved 0, bit 0 clear, a rejected PSN not recorded. */
    ACK_002("MR-ACK-002", "SACKETH: reserved 0, bit 0 clear, the rejected PSN not recorded"),
    /** An ACK carries bth.psn = sacketh.base - 1. */
    ACK_001("MR-ACK-001", "ACK: bth.psn = sacketh.base - 1"),
    /** No frame sent with CE. */
    CC_002("MR-CC-002", "no frame sent with ECN CE"),
    /** Data packets are ECN-capable. */
    CC_001("MR-CC-001", "data packets carry ECT(0) or ECT(1)"),
    /** Stream: the cumulative acknowledgement never moves back. */
    ACK_010("MR-ACK-010", "the cumulative acknowledgement never moves back"),
    /** Stream: one source port for the data packets of a QP that does not spray. */
    MP_001("MR-MP-001", "one UDP source port for all data packets of a QP that does not spray"),
    /** Stream: at least 2 source ports in any 16 requests of a spraying QP. */
    MP_002("MR-MP-002", "a spraying QP uses 2 or more source ports in any 16 data packets"),
    /** Stream: at least 2 source ports in any 16 read responses of a spraying QP. */
    MP_004("MR-MP-004", "a spraying QP varies the source port of its read responses");

    private final String rule;
    private final String title;

    FrameRule(final String rule, final String title) {
        this.rule = rule;
        this.title = title;
    }

    /** The rule ID ({@code MR-WIRE-014}). */
    public String rule() {
        return rule;
    }

    /** One line saying what is checked. */
    public String title() {
        return title;
    }
}

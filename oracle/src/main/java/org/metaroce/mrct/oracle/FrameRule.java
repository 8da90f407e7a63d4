package org.metaroce.mrct.oracle;

import java.util.Set;

/**
 * The rules the oracle judges, each checked in exactly one place: the per-frame rules ({@link FrameOracle}) and the
 * rules over one QP's stream of frames ({@link QpStream}). The order is the order the checks run in, so the first
 * finding of a frame is the most basic thing wrong with it.
 */
public enum FrameRule {
    /** Ethernet II, EtherType, the port's own eth.src, VLAN DEI 0; a frame that does not decode names it too. */
    WIRE_001("MR-WIRE-001", "Ethernet II from the port's own MAC, at most one 802.1Q tag, DEI 0",
        Tver0.BINDS, ""),
    /** eth.dst is the QP's configured peer. */
    MP_007("MR-MP-007", "addressed to the QP's configured peer (eth.dst)",
        Tver0.BINDS, ""),
    /** IPv4 header fields of the transmit column of Table 1-3. */
    WIRE_004("MR-WIRE-004", "IPv4 header fields",
        Tver0.BINDS, ""),
    /** IPv6 header fields of the transmit column of Table 1-4. */
    WIRE_007("MR-WIRE-007", "IPv6 header fields",
        Tver0.BINDS, ""),
    /** UDP checksum 0. */
    WIRE_009("MR-WIRE-009", "UDP length and zero checksum",
        Tver0.BINDS, ""),
    /** The UDP source port of a data packet in 0xC000-0xFFFF. */
    WIRE_010("MR-WIRE-010", "UDP source port of data packets in 0xC000-0xFFFF",
        Tver0.NONE, "RoCEv2 (IBTA Annex A17) leaves udp.sport to the sender as flow entropy: Linux rxe hashes the "
        + "QPN into 0xC000-0xFFFF, hardware NICs hash a flow label into any value"),
    /** The ICRC. */
    WIRE_014("MR-WIRE-014", "ICRC of every frame sent",
        Tver0.BINDS, ""),
    /** BTH fixed values of every packet but a CNP (Table 1-6). */
    WIRE_013("MR-WIRE-013", "BTH fixed values: M, FECN, BECN, reserved bits, TVer, SE, AckReq, P_Key",
        Tver0.EXCEPT, "bth.m is InfiniBand's MigReq: a QP whose path migration state is Migrated, the state every QP "
        + "starts in, sends 1 (hardware NICs do; Linux rxe sends 0)", "bth.m"),
    /** CNP field values (Table 2-11). */
    HDR_012("MR-HDR-012", "CNP layout and field values (Table 2-11)",
        Tver0.BINDS, ""),
    /** Pad count and zero pad bytes. */
    WIRE_019("MR-WIRE-019", "pad count and zero pad bytes",
        Tver0.BINDS, ""),
    /** A TVer 1 packet: an opcode of Table 2-1 and a payload only where it has one. */
    HDR_001("MR-HDR-001", "extension headers and payload of the opcode (Table 2-1)",
        Tver0.NONE, "Table 2-1 is the TVer 1 layout; a TVer 0 packet's layout is MR-LEG-001's (Table D-4)"),
    /** A TVer 0 packet: an RC opcode of Table D-4 and a payload only where it has one. */
    LEG_001("MR-LEG-001", "TVer 0 and the RoCEv2 headers of the opcode (Table D-4)",
        Tver0.BINDS, ""),
    /** pleth.first and pleth.last agree with the opcode. */
    HDR_002("MR-HDR-002", "pleth.first and pleth.last agree with the opcode",
        Tver0.NONE, "no PLETH in TVer 0 (Table 16-2)"),
    /** PLETH reserved bits 0. */
    HDR_003("MR-HDR-003", "PLETH reserved bits zero",
        Tver0.NONE, "no PLETH in TVer 0 (Table 16-2)"),
    /** pleth.rsn 0 in a read response (the per-frame part of the rule). */
    RD_004("MR-RD-004", "READ RESPONSE pleth.rsn 0",
        Tver0.NONE, "no PLETH in TVer 0 (Table 16-2)"),
    /** AETH syndromes a device sends. */
    HDR_008("MR-HDR-008", "AETH syndromes a device may send",
        Tver0.ROCEV2_VALUES, "an InfiniBand ACK syndrome carries an end-to-end credit count in bits 4-0, so a "
        + "TVer 0 ACKNOWLEDGE, read response or atomic acknowledgement may carry any of 0x00-0x1F"),
    /** AtomicETH: an 8-byte aligned address, compare 0 in a FETCH ADD. */
    HDR_009("MR-HDR-009", "AtomicETH: 8-byte aligned address, compare 0 in FETCH ADD",
        Tver0.EXCEPT, "InfiniBand does not use the compare field of a FETCH ADD", "atomiceth.compare"),
    /** No NAK 0x60 from a TVer 1 QP. */
    ACK_013("MR-ACK-013", "no NAK 0x60 from a TVer 1 QP",
        Tver0.NONE, "NAK 0x60 is RoCEv2's go-back-N (Table 16-1)"),
    /** SACKETH: reserved 0, bit 0 clear, a rejected PSN not recorded. */
    ACK_002("MR-ACK-002", "SACKETH: reserved 0, bit 0 clear, the rejected PSN not recorded",
        Tver0.NONE, "no SACKETH in TVer 0 (Table 16-2)"),
    /** An ACK carries bth.psn = sacketh.base - 1. */
    ACK_001("MR-ACK-001", "ACK: bth.psn = sacketh.base - 1",
        Tver0.NONE, "no SACKETH in TVer 0 (Table 16-2)"),
    /** No frame sent with CE. */
    CC_002("MR-CC-002", "no frame sent with ECN CE",
        Tver0.BINDS, ""),
    /** Data packets are ECN-capable. */
    CC_001("MR-CC-001", "data packets carry ECT(0) or ECT(1)",
        Tver0.METAROCE_DEVICE, "ECN capability is optional in RoCEv2; section 14 binds a MetaRoCE device's TVer 0 QPs "
        + "(it is not in Table 16-2), not plain RoCEv2 traffic of other devices"),
    /** Stream: the cumulative acknowledgement never moves back. */
    ACK_010("MR-ACK-010", "the cumulative acknowledgement never moves back",
        Tver0.BINDS, ""),
    /** Stream: one source port for the data packets of a QP that does not spray. */
    MP_001("MR-MP-001", "one UDP source port for all data packets of a QP that does not spray",
        Tver0.METAROCE_DEVICE, "the spray attribute exists on a MetaRoCE device's QPs only"),
    /** Stream: at least 2 source ports in any 16 requests of a spraying QP. */
    MP_002("MR-MP-002", "a spraying QP uses 2 or more source ports in any 16 data packets",
        Tver0.METAROCE_DEVICE, "the spray attribute exists on a MetaRoCE device's QPs only"),
    /** Stream: at least 2 source ports in any 16 read responses of a spraying QP. */
    MP_004("MR-MP-004", "a spraying QP varies the source port of its read responses",
        Tver0.METAROCE_DEVICE, "the spray attribute exists on a MetaRoCE device's QPs only");

    /**
     * Whether a rule binds TVer 0 frames (Appendix F.2): a TVer 0 frame is plain RoCEv2 framing, judged only by what
     * RoCEv2 itself (IBTA Annex A17, as Linux rxe and hardware NICs implement it) requires.
     */
    public enum Tver0 {
        /** Every TVer 0 frame, as a TVer 1 frame. */
        BINDS,
        /** Every TVer 0 frame but for the fields {@link #tver0Exempt()} names, which RoCEv2 leaves free. */
        EXCEPT,
        /** Every TVer 0 frame, with the values RoCEv2 allows where they are wider than MetaRoCE's. */
        ROCEV2_VALUES,
        /** The TVer 0 frames of a device known to be a MetaRoCE device (its legacy QPs), not plain RoCEv2 traffic. */
        METAROCE_DEVICE,
        /** No TVer 0 frame. */
        NONE
    }

    private final String rule;
    private final String title;
    private final Tver0 tver0;
    private final String tver0Reason;
    private final Set<String> tver0Exempt;

    FrameRule(final String rule, final String title, final Tver0 tver0, final String tver0Reason,
              final String... tver0Exempt) {
        this.rule = rule;
        this.title = title;
        this.tver0 = tver0;
        this.tver0Reason = tver0Reason;
        this.tver0Exempt = Set.of(tver0Exempt);
    }

    /** Whether the rule binds TVer 0 frames (Appendix F.2). */
    public Tver0 tver0() {
        return tver0;
    }

    /** Why the rule binds TVer 0 frames less than TVer 1 frames, with its RoCEv2 source; empty when it binds both. */
    public String tver0Reason() {
        return tver0Reason;
    }

    /** The fields RoCEv2 leaves free in a TVer 0 frame ({@link Tver0#EXCEPT}); empty otherwise. */
    public Set<String> tver0Exempt() {
        return tver0Exempt;
    }

    /**
     * True when a finding of this rule on {@code field} of a frame of transport version {@code tver} stands: always
     * for TVer 1; for TVer 0 as {@link #tver0()} says, {@code metaroceSender} telling whether the sender is known to
     * be a MetaRoCE device (a {@link Tver0#METAROCE_DEVICE} rule binds a frame of an unknown TVer only then too).
     */
    public boolean binds(final int tver, final String field, final boolean metaroceSender) {
        if (tver0 == Tver0.METAROCE_DEVICE && tver != 1) {
            return metaroceSender; // a frame of no known TVer either: only a MetaRoCE device's is bound
        }
        if (tver != 0) {
            return true;
        }
        switch (tver0) {
            case NONE:
                return false;
            case EXCEPT:
                return field == null || !tver0Exempt.contains(field);
            default:
                return true;
        }
    }

    /** The rule's bit in {@link FrameOracle.Checker#examined()}: {@code 1L << ordinal()}. */
    public long bit() {
        return 1L << ordinal();
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

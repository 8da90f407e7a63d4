package org.metaroce.mrct.analyzer.internal;

/**
 * Every check {@code mrct analyze} makes, each tied to the rule of the MetaRoCE v1 specification it judges. A check
 * is made per connection; the report holds one case per (connection, check) that saw something to judge.
 *
 * <p>{@link #versions} says which connections the check applies to: TVer 1 (MetaRoCE v1), TVer 0 (plain RoCEv2,
 * judged by the legacy rules of section 16 and the common framing rules), or both. {@link #unit} names what
 * {@code observed} counts in a PASS reason.
 */
enum Check {
    // --- every frame a device sends (sections 1 and 2) ---
    ICRC("MR-WIRE-014", "ICRC of every frame sent", "frames", Versions.BOTH),
    ETHERNET("MR-WIRE-001", "Ethernet II with at most one 802.1Q tag, DEI 0", "frames", Versions.BOTH),
    IPV4("MR-WIRE-004", "IPv4 header fields", "IPv4 frames", Versions.BOTH),
    IPV6("MR-WIRE-007", "IPv6 header fields", "IPv6 frames", Versions.BOTH),
    UDP("MR-WIRE-009", "UDP length and zero checksum", "frames", Versions.BOTH),
    // judged on TVer 1 frames only, whatever the connection's mode: the oracle's FrameRule.WIRE_010.tver0()
    SOURCE_PORT("MR-WIRE-010", "UDP source port of data packets in 0xC000-0xFFFF", "data packets", Versions.BOTH),
    BTH("MR-WIRE-013", "BTH fixed values: M, FECN, BECN, reserved bits, TVer, P_Key", "frames", Versions.BOTH),
    PAD("MR-WIRE-019", "pad count and zero pad bytes", "frames", Versions.BOTH),
    HEADERS("MR-HDR-001", "extension headers and payload of the opcode (Table 2-1)", "frames", Versions.TVER1),
    LEGACY_HEADERS("MR-LEG-001", "TVer 0 and the RoCEv2 headers of the opcode (Table D-4)", "frames",
        Versions.TVER0),
    PLETH_FLAGS("MR-HDR-002", "pleth.first and pleth.last agree with the opcode", "packets", Versions.TVER1),
    PLETH_RESERVED("MR-HDR-003", "PLETH reserved bits zero", "packets", Versions.TVER1),
    AETH("MR-HDR-008", "AETH syndromes a device may send", "AETHs", Versions.BOTH),
    ATOMIC_ETH("MR-HDR-009", "AtomicETH: 8-byte aligned address, compare 0 in FETCH ADD", "atomic requests",
        Versions.BOTH),
    CNP_FORMAT("MR-HDR-012", "CNP layout and field values (Table 2-11)", "CNPs", Versions.BOTH),
    ACK_FIELDS("MR-ACK-001", "ACK: syndrome 0x1F, bth.psn = sacketh.base - 1", "ACKs", Versions.TVER1),
    SACK("MR-ACK-002", "SACKETH: reserved 0, bit 0 clear, only PSNs that were sent", "ACKNOWLEDGE frames",
        Versions.TVER1),
    NO_NAK_60("MR-ACK-013", "no NAK 0x60 from a TVer 1 QP", "ACKNOWLEDGE frames", Versions.TVER1),
    ECT("MR-CC-001", "data packets carry ECT(0) or ECT(1)", "data packets", Versions.TVER1),
    NO_CE("MR-CC-002", "no frame sent with CE (judged where the capture is the device's own)", "frames",
        Versions.BOTH),

    // --- the requester (sections 12, 13, 15 and 16) ---
    PSN_CONSECUTIVE("MR-REQ-002", "consecutive PSNs within a message, the next message right after the span",
        "request packets", Versions.BOTH),
    PSN_ORDER("MR-REQ-003", "first transmissions in increasing PSN order", "first transmissions", Versions.BOTH),
    SEGMENT_SIZE("MR-REQ-004", "PMTU bytes in every SEND and WRITE packet but the last", "packets", Versions.BOTH),
    MESSAGE_LENGTH("MR-REQ-005", "the last packet carries the rest of the message", "messages", Versions.BOTH),
    OPCODE_SEQUENCE("MR-REQ-006", "opcodes FIRST, MIDDLE, LAST, ONLY in message order", "request packets",
        Versions.BOTH),
    MSN("MR-REQ-007", "pleth.msn numbers messages one by one, the same in every packet", "messages", Versions.TVER1),
    RSN("MR-REQ-008", "pleth.rsn numbers the receive-consuming messages one by one", "receive-consuming messages",
        Versions.TVER1),
    RSN_ZERO("MR-HDR-005", "pleth.rsn: the message's RSN, or 0 when it consumes no receive WQE", "request packets",
        Versions.TVER1),
    OFFSET("MR-HDR-004", "pleth.offset = (PSN - first PSN of the message) x PMTU", "packets", Versions.TVER1),
    RETH_SAME("MR-HDR-007", "the same RETH in every packet of an RDMA WRITE", "RDMA WRITE packets", Versions.TVER1),
    READ_REQUEST("MR-REQ-009", "first READ REQUEST: offset 0 and a RETH for the whole read", "READ REQUESTs",
        Versions.TVER1),
    ACKREQ_LAST("MR-REQ-010", "AckReq on the last packet of every message", "last packets", Versions.BOTH),
    ACKREQ_INTERVAL("MR-REQ-011", "AckReq at least once in every ack_req_interval first transmissions",
        "first transmissions", Versions.BOTH),
    WINDOW("MR-REQ-012", "no PSN sent at or beyond una + send_window", "first transmissions", Versions.BOTH),
    NO_RESEND_DELIVERED("MR-RTX-001", "no retransmission of a delivered PSN", "retransmissions", Versions.BOTH),
    RESEND_IDENTICAL("MR-RTX-006", "a retransmission repeats the original packet", "retransmissions",
        Versions.BOTH),
    RESEND_READ("MR-RTX-017", "a READ REQUEST resent at its first PSN repeats the original", "READ REQUESTs resent",
        Versions.TVER1),
    RESEND_ATOMIC("MR-RTX-018", "an atomic request resent repeats the original, AtomicETH included",
        "atomic requests resent", Versions.BOTH),
    REREQUEST("MR-RTX-016", "a READ re-request names the missing PSN, its offset, the original MSN and RETH",
        "READ re-requests", Versions.TVER1),
    RNR_WAIT("MR-RTX-012", "no request during an RNR wait, the next at its end", "requests after an RNR NAK",
        Versions.TVER1),
    RNR_RESUME("MR-RTX-013", "after an RNR wait, the in-flight PSNs from the resume PSN resent in order, before any new "
        + "PSN", "requests after an RNR wait", Versions.TVER1),
    RNR_RETRY("MR-RTX-014", "no request after an RNR NAK that exhausted rnr_retry (when the evidence gives it)",
        "requests after exhaustion", Versions.TVER1),
    RNR_DURING("MR-RTX-015", "an RNR NAK during a wait neither restarts it nor counts as an RNR retry",
        "late resumes", Versions.TVER1),
    GO_BACK_N("MR-LEG-008", "after NAK 0x60, every sent PSN from its PSN is sent again, in order, first",
        "NAK 0x60 recoveries", Versions.TVER0),
    LEGACY_TIMEOUT("MR-LEG-009", "a retransmission without NAK 0x60 resends from una, in order", "retransmissions",
        Versions.TVER0),
    SPRAY_OFF("MR-MP-001", "one UDP source port for all data packets of a QP that does not spray", "data packets",
        Versions.BOTH),
    SPRAY_ON("MR-MP-002", "a spraying QP uses 2 or more source ports in any 16 data packets", "data packets",
        Versions.BOTH),

    // --- the responder (sections 4, 5, 8 and 16) ---
    CUMULATIVE("MR-ACK-010", "the cumulative acknowledgement never moves back", "acknowledgements", Versions.BOTH),
    AETH_MSN("MR-ACK-003", "aeth.msn counts the messages completed", "AETHs", Versions.BOTH),
    LEGACY_IN_ORDER("MR-LEG-002", "a TVer 0 responder accepts only the packet at ePSN", "acknowledgements",
        Versions.TVER0),
    LEGACY_NAK("MR-LEG-003", "one NAK 0x60, with bth.psn = ePSN, until the next in-order packet", "NAK 0x60 frames",
        Versions.TVER0),
    BAD_ICRC_DROPPED("MR-WIRE-015", "a frame with a wrong ICRC is dropped, never acknowledged",
        "frames with a wrong ICRC", Versions.BOTH),
    READ_COUNT("MR-RD-002", "one READ RESPONSE on each PSN of the read's span", "READ RESPONSE packets",
        Versions.BOTH),
    READ_OPCODE("MR-RD-003", "READ RESPONSE opcodes FIRST, MIDDLE, LAST, ONLY by position", "READ RESPONSE packets",
        Versions.BOTH),
    READ_PLETH("MR-RD-004", "READ RESPONSE PLETH: the request's MSN, offset k x PMTU, RSN 0",
        "READ RESPONSE packets", Versions.TVER1),
    READ_LENGTH("MR-RD-005", "READ RESPONSE payload: PMTU, the rest in the last", "READ RESPONSE packets",
        Versions.BOTH),
    READ_ORDER("MR-RD-006", "READ RESPONSEs in increasing PSN order", "READ RESPONSE packets", Versions.BOTH),

    // --- congestion control (section 14) ---
    CNP_AFTER_CE_REQUEST("MR-CC-003", "a CNP follows a CE-marked request, unless one was sent within the interval",
        "CE-marked requests", Versions.BOTH),
    CNP_AFTER_CE_RESPONSE("MR-CC-004", "a CNP follows a CE-marked read response, unless one was sent within the "
        + "interval", "CE-marked read responses", Versions.BOTH),
    CNP_SPACING("MR-CC-005", "CNPs of one scope at least cnp_interval_ns apart", "CNPs", Versions.BOTH),
    CNP_UNOWED("MR-CC-006", "no CNP that no congestion indication owed (judged where the capture is the device's own)",
        "CNPs", Versions.BOTH),
    RATE_CUT("MR-CC-010", "the sending rate drops after a CNP (measured over 16-packet windows)", "CNPs received",
        Versions.BOTH);

    /** Which transport versions a check applies to. */
    enum Versions {
        /** TVer 0 connections only (legacy RoCEv2). */
        TVER0,
        /** TVer 1 connections only (MetaRoCE v1). */
        TVER1,
        /** Every connection. */
        BOTH;

        /** True when a connection of transport version {@code tver} (0 or 1) is judged by the check. */
        boolean includes(final int tver) {
            return this == BOTH || (this == TVER0 ? tver == 0 : tver == 1);
        }
    }

    /** Number of checks. */
    static final int COUNT = values().length;

    private final String rule;
    private final String title;
    private final String unit;
    private final Versions versions;

    Check(final String rule, final String title, final String unit, final Versions versions) {
        this.rule = rule;
        this.title = title;
        this.unit = unit;
        this.versions = versions;
    }

    /** The rule ID ({@code MR-REQ-003}). */
    String rule() {
        return rule;
    }

    /** One line saying what is checked. */
    String title() {
        return title;
    }

    /** What the observation count counts ("retransmissions"). */
    String unit() {
        return unit;
    }

    /** The connections the check applies to. */
    Versions versions() {
        return versions;
    }
}

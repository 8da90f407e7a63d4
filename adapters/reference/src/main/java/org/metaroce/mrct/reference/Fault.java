package org.metaroce.mrct.reference;

import java.util.Locale;

/**
 * A named, documented deviation of the reference NIC from one rule of the specification. {@code --fault NAME} turns
 * one on; the conformance suite must then fail at least one MUST case and name the broken rule. Faults exist to prove
 * that the suite catches each kind of broken device.
 */
public enum Fault {
    GO_BACK_N("MR-ORD-002", "discards every request after ePSN instead of accepting it out of order (go-back-N)"),
    COMPLETIONS_OUT_OF_ORDER("MR-CMP-003",
        "completes a receive message as soon as its own packets are in, without waiting for earlier messages"),
    NO_SACK("MR-ACK-002", "sends every ACKNOWLEDGE with an empty SACK bitmap"),
    STALE_SACK_BASE("MR-ACK-002", "puts the ePSN of the previous acknowledgement frame in sacketh.base"),
    DUPLICATE_ATOMIC_EXECUTED("MR-ATM-003", "executes a duplicate atomic request again instead of replaying it"),
    NO_CNP("MR-CC-003", "never sends a CNP"),
    UNPACED_CNP("MR-CC-005", "sends a CNP for every CE-marked packet, ignoring cnp_interval_ns"),
    RKEY_NOT_CHECKED("MR-SEC-001", "accepts a write whose R_Key is unknown or invalidated when the address is mapped"),
    BOUNDS_NOT_CHECKED("MR-SEC-005", "places the part of a write that falls inside the region instead of rejecting it"),
    ICRC_NOT_CHECKED("MR-WIRE-015", "accepts frames whose ICRC is wrong"),
    PSN_WRAP_BROKEN("MR-ORD-001", "compares PSNs as plain integers, so the 2^24 wrap looks like a huge jump back"),
    READ_BEFORE_LOWER_PSNS("MR-ORD-008", "executes an RDMA READ on arrival, before every lower PSN has arrived"),
    IMMEDIATE_BEFORE_DATA("MR-CMP-005",
        "completes an RDMA WRITE WITH IMMEDIATE when its last packet arrives, before the write's other packets"),
    PARTIAL_PLACEMENT("MR-PLC-016", "places the part of a SEND that fits its receive buffer before rejecting it"),
    ERROR_LEAKS_TO_OTHER_QP("MR-QP-008", "moves every QP of the same protection domain to ERROR with the failing one"),
    MSN_OFF_BY_ONE("MR-ACK-003", "reports aeth.msn one higher than the number of completed messages"),
    DUPLICATE_SEND_COMPLETED("MR-ORD-009", "completes a duplicate SEND packet's message a second time"),
    NO_ACK_ON_ACKREQ("MR-ACK-005", "does not acknowledge in-order packets that carry AckReq"),
    WINDOW_EDGE_OFF_BY_ONE("MR-ORD-012", "accepts the PSN ePSN + W, one past the end of the window"),
    PKEY_NOT_CHECKED("MR-SEC-009", "accepts frames whose P_Key does not match the QP's"),

    // requester faults
    GO_BACK_N_RETRANSMIT("MR-RTX-001", "resends every PSN from a lost one on (go-back-N), SACKed ones included"),
    EAGER_RETRANSMIT("MR-RTX-002",
        "infers a PSN lost as soon as any later PSN is acknowledged, so pure reordering causes retransmissions"),
    IGNORE_WINDOW("MR-REQ-012", "sends new PSNs beyond una + send_window"),
    NO_ACKREQ("MR-REQ-010", "never sets AckReq, not even on the last packet of a message"),
    COMPLETE_BEFORE_ACK("MR-CMP-012", "completes SEND and WRITE work requests when their last packet is sent"),
    RETRY_INFINITE("MR-RTX-010", "treats retry_cnt 7 as infinite and never gives up"),
    RTO_HIGH_ALWAYS("MR-RTX-007", "uses rto_high_ns even when at most n_low PSNs are in flight"),
    NO_RATE_CUT("MR-CC-010", "ignores CNPs: its rate never drops"),
    WRONG_CUT_FACTOR("MR-CC-010", "cuts its rate by alpha instead of alpha / 2 on a CNP"),
    NO_ALPHA_DECAY("MR-CC-012", "never decays alpha when no CNP comes"),
    RATE_ABOVE_LINE("MR-CC-015", "lets its rate recover above line_rate_mbps"),
    CONSTANT_SPORT_WITH_SPRAY("MR-MP-002", "keeps one UDP source port although spraying is on"),
    NO_ACK_PROBE("MR-RTX-020", "sends no acknowledgement probe, so a WRITE whose cumulative ACK was lost never completes"),

    // receive checks (Table 11-1): a field taken from the wrong header or width, a check on one path only
    UDP_CHECKSUM_IPV6_ONLY("MR-WIRE-012", "verifies a non-zero udp.checksum on IPv6 frames only, so IPv4 frames with a "
        + "wrong one are taken"),
    TVER_LOW_BIT_ONLY("MR-WIRE-017", "reads bth.tver as one bit, so TVer 2 and 3 pass as 0 and 1"),
    PAD_REGION_UNCHECKED("MR-WIRE-021", "does not check that the data region is a multiple of 4 bytes long"),
    NONZERO_PAD_DROPPED("MR-WIRE-020", "drops packets whose pad bytes are not zero as badly padded"),
    QPN_LOW_16_BITS("MR-SEC-010", "looks the QP up by the low 16 bits of bth.dqpn, so an unknown QPN can alias a QP"),
    TVER_MISMATCH_ONE_WAY("MR-ROB-008", "checks a frame's bth.tver against its QP's only for TVer 0 frames"),
    PLETH_LAST_UNCHECKED("MR-ROB-007", "checks pleth.first against the opcode but not pleth.last"),
    LOW_SPORT_DROPPED("MR-MP-005", "drops requests whose udp.sport is below 0xC000, applying a transmit rule on receive"),
    CE_ACK_TRIGGERS_CNP("MR-CC-008", "takes a CE mark on a received acknowledgement as a congestion indication"),
    CE_ON_CNP_NOT_COUNTED("MR-CC-009", "does not count a CE-marked CNP in ce_received"),
    CNP_APPLIED_TO_PEER_QPS("MR-CC-016", "applies a CNP to every QP in RTS with the same peer address, matching on the "
        + "wrong key"),
    ACK_FOR_READ_RESPONSE("MR-ACK-014", "acknowledges each READ RESPONSE it accepts, as a responder does a request"),
    ZERO_LENGTH_ONLY_DROPPED("MR-CMP-007", "drops a SEND or RDMA WRITE ONLY packet with an empty payload as truncated"),
    ERROR_QP_STILL_PLACES("MR-QP-006", "lets frames reach a QP in ERROR, which places their payload (and stays silent)"),

    // responder: classification, acknowledgement and counters (sections 4, 5)
    NO_ACK_BEYOND_WINDOW("MR-ACK-007", "drops a packet beyond the window without sending the current ACK"),
    NO_ACK_FOR_DUPLICATE_IN_WINDOW("MR-ACK-006", "counts a duplicate of a recorded packet but does not answer it"),
    DUPLICATE_COUNTED_AS_DROP("MR-ORD-011",
        "counts a duplicate SEND or WRITE packet before ePSN in drop_outside_window as well as duplicate_received"),
    OOO_ACK_ONLY_ON_ACKREQ("MR-ACK-004", "acknowledges a packet recorded out of order only when it carries AckReq"),
    OOO_SEQUENCE_UNCHECKED("MR-ORD-007", "skips the sequence check for packets that were recorded out of order"),
    HOLE_CLOSE_ADVANCES_ONE("MR-ORD-005", "when a hole closes, moves ePSN past the arriving packet only, not past the "
        + "recorded packets after it"),
    BITMAP_CLEARED_BEYOND_WINDOW("MR-ORD-006", "clears its receive bitmap when a packet beyond the window arrives"),
    NAK_SEQ_ERR_BEYOND_WINDOW("MR-ACK-013",
        "answers a packet beyond the window with NAK 0x60, the TVer 0 sequence error, on a TVer 1 QP"),
    ACK_PSN_EPSN("MR-ACK-001", "puts ePSN in an ACK's bth.psn instead of ePSN - 1"),
    NAK_PSN_EPSN("MR-ACK-011", "puts ePSN - 1 in a NAK's bth.psn instead of the rejected packet's PSN"),
    RNR_TIMER_DEVICE_DEFAULT("MR-ACK-012", "puts the device's default min_rnr_timer in RNR NAKs, not the QP's attribute"),
    RNR_NAK_COUNTED_AS_NAK("MR-ACK-015", "counts RNR NAKs in nak_sent instead of rnr_nak_sent"),

    // responder: validity and protection checks (Tables 6-2, 10-1), off by one or on one path only
    V1_FIRST_ONLY("MR-PLC-007", "checks the payload length of FIRST packets against PMTU but not that of MIDDLE ones"),
    V2_AGAINST_MAX_PMTU("MR-PLC-008", "checks a LAST or ONLY packet's payload against max_pmtu instead of the QP's pmtu"),
    V3_WRITE_ONLY("MR-PLC-009", "checks pleth.offset 0 on the first packets of RDMA WRITEs only"),
    V4_ZERO_OFFSET_ALLOWED("MR-PLC-010", "accepts a MIDDLE or LAST packet with pleth.offset 0"),
    V5_LAST_ONLY("MR-PLC-011", "checks that a WRITE packet ends inside reth.dmalen only on LAST and ONLY packets"),
    V6_WRITE_ONLY("MR-PLC-012", "checks reth.dmalen against max_msg_size on RDMA WRITEs but not on READ REQUESTs"),
    RSN_COMPARED_UNSIGNED("MR-PLC-013",
        "compares pleth.rsn with the expected RSN unsigned, so an RSN before it looks far ahead"),
    RNR_CHECK_OFF_BY_ONE("MR-PLC-014", "tests for a posted receive WQE with > instead of >=, so a packet for the first "
        + "unposted WQE passes"),
    V13_PACKET_LENGTH_ONLY("MR-PLC-015",
        "compares only the packet's payload length, not pleth.offset plus it, with the receive buffer"),
    READ_SPAN_FIRST_PSN_ONLY("MR-ORD-004", "checks V10 on the first PSN of a new READ's span only"),
    RD_ATOMIC_LIMIT_OFF_BY_ONE("MR-RD-008", "admits max_dest_rd_atomic + 1 outstanding READ and atomic requests"),
    ATOMIC_ALIGN_4("MR-ATM-007", "checks atomiceth.va for 4-byte alignment instead of 8"),
    ZERO_LENGTH_KEY_CHECKED("MR-SEC-008", "checks the R_Key of RDMA WRITE and READ requests with reth.dmalen 0"),
    QP_ACCESS_UNCHECKED("MR-SEC-003", "checks the region's rights but not the QP's access attribute"),
    PD_CHECKED_ON_WRITE_ONLY("MR-SEC-002", "compares the region's protection domain with the QP's for RDMA WRITEs only"),
    ATOMIC_NEEDS_READ_RIGHT("MR-SEC-004", "checks the region's remote-read right for atomics instead of remote-atomic"),

    // responder: execution and completion (sections 7 to 9)
    INVALIDATE_ON_ARRIVAL("MR-CMP-009",
        "invalidates the R_Key of a SEND WITH INVALIDATE when its last packet arrives, not when it completes"),
    INVALIDATE_OTHER_PD("MR-CMP-010", "invalidates an R_Key of another protection domain"),
    PLAIN_WRITE_CONSUMES_WQE("MR-CMP-006", "treats a plain RDMA WRITE's last packet as one with immediate: it consumes "
        + "a receive WQE and completes it"),
    COMPLETION_LENGTH_LAST_PACKET("MR-CMP-004",
        "reports the byte length of a SEND's last packet, not the message's, in the receive completion"),
    REEXECUTED_READ_COUNTS_MSN("MR-RD-011", "increments the responder MSN when it re-executes a duplicate READ"),
    REEXECUTE_FROM_START("MR-RD-009", "re-executes a duplicate READ from its first byte, ignoring pleth.offset"),
    DUPLICATE_READ_OFFSET_UNCHECKED("MR-RD-010", "re-executes a duplicate READ without checking its pleth.offset"),
    READ_RESPONSE_MSN_CURRENT("MR-RD-004",
        "puts the responder's current MSN in a read response's pleth.msn instead of the READ REQUEST's"),
    READ_LAST_OFF_BY_ONE("MR-RD-003", "tests for the last response with k == n instead of k == n - 1, so a "
        + "multi-packet read ends with a MIDDLE"),
    READ_COUNT_FLOOR_PLUS_ONE("MR-RD-002",
        "computes the number of read responses as L / PMTU + 1, one too many when L is a multiple of PMTU"),
    ATOMIC_ORIG_MEMORY_ORDER("MR-ATM-008", "sends atomicacketh.orig in memory byte order instead of big-endian"),
    REPLAY_CACHE_ONE_ENTRY("MR-ATM-005", "keeps only the latest atomic in its replay cache, not max_dest_rd_atomic"),
    COMPARE_LOW_32_BITS("MR-ATM-001", "compares only the low 32 bits of the word with atomiceth.compare"),
    FETCH_ADD_32_BIT("MR-ATM-002", "adds in 32-bit arithmetic, losing the carry into the upper half of the word"),

    // control plane and QP state (section 3)
    RTR_EPSN_FROM_SQ_PSN("MR-QP-004", "takes ePSN from sq_psn instead of rq_psn on entering RTR"),
    RECEIVE_QUEUED_IN_ERROR("MR-QP-007", "queues a receive WQE posted to a QP in ERROR instead of completing it FLUSHED"),
    MODIFY_APPLIED_BEFORE_CHECK("MR-QP-009",
        "applies each attribute as it checks it, so a rejected modification leaves the earlier ones changed"),
    READ_RESPONSE_FIXED_SPORT("MR-MP-004", "sends read responses from the QP's fixed UDP source port although "
        + "spraying is on"),
    CNP_PSN_FROM_QP("MR-HDR-012", "puts the QP's ePSN in a CNP's bth.psn instead of 0");

    private final String rule;
    private final String description;

    Fault(final String rule, final String description) {
        this.rule = rule;
        this.description = description;
    }

    /** The rule the fault breaks. */
    public String rule() {
        return rule;
    }

    /** One sentence on what the faulty device does. */
    public String description() {
        return description;
    }

    /** The kebab-case name used on the command line ({@code go-back-n}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The fault with this label or constant name, or null. */
    public static Fault byLabel(final String text) {
        for (final Fault fault : values()) {
            if (fault.label().equalsIgnoreCase(text) || fault.name().equalsIgnoreCase(text)) {
                return fault;
            }
        }
        return null;
    }
}

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
    ACK_WITHOUT_SACKETH("MR-HDR-001", "leaves the SACKETH out of a TVer 1 acknowledgement whose SACK bitmap is empty, "
        + "as in the TVer 0 layout"),
    STALE_SACK_BASE("MR-ACK-002", "puts the ePSN of the previous acknowledgement frame in sacketh.base"),
    DUPLICATE_ATOMIC_EXECUTED("MR-ATM-003", "executes a duplicate atomic request again instead of replaying it"),
    RSN_CHECKED_ON_EVERY_OPCODE("MR-HDR-006", "applies the V11 check (pleth.rsn not before the expected RSN) to every "
        + "packet with a PLETH, not only to those consuming a receive WQE, so a WRITE with a high pleth.rsn is rejected"),
    UNCACHED_DUPLICATE_EXECUTED("MR-ATM-006", "executes a duplicate atomic request before ePSN that is not in its "
        + "replay cache as a new one, instead of answering it with the current ACK"),
    NO_CNP("MR-CC-003", "never sends a CNP"),
    UNPACED_CNP("MR-CC-005", "sends a CNP for every CE-marked packet, ignoring cnp_interval_ns"),
    CNP_SENT_WHEN_HOLD_ENDS("MR-CC-006", "keeps a congestion indication that arrives while its scope is holding and "
        + "sends its CNP when the holding time ends, instead of forgetting it"),
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
    NO_ACKREQ("MR-REQ-010",
        "sets AckReq only from its ack_req_interval counter, not on the last packet of a message"),
    COMPLETE_BEFORE_ACK("MR-CMP-012", "completes SEND and WRITE work requests when their last packet is sent "
        + "(in posting order), not when acknowledged"),
    RETRY_INFINITE("MR-RTX-010", "treats retry_cnt 7 as infinite and never gives up"),
    RTO_HIGH_ALWAYS("MR-RTX-007", "uses rto_high_ns even when at most n_low PSNs are in flight"),
    NO_RATE_CUT("MR-CC-010", "ignores CNPs: its rate never drops"),
    WRONG_CUT_FACTOR("MR-CC-010", "cuts its rate by alpha instead of alpha / 2 on a CNP"),
    ALPHA_RAISED_BEFORE_CUT("MR-CC-010", "raises alpha before cutting its rate on a CNP, so the cut uses the new alpha "
        + "instead of the one it found"),
    NO_ALPHA_DECAY("MR-CC-012", "never decays alpha when no CNP comes"),
    RATE_ABOVE_LINE("MR-CC-015", "lets its rate recover above line_rate_mbps"),
    CONSTANT_SPORT_WITH_SPRAY("MR-MP-002", "keeps one UDP source port although spraying is on"),
    NO_ACK_PROBE("MR-RTX-020",
        "sends no acknowledgement probe, so a WRITE whose cumulative ACK was lost never completes"),

    // receive checks (Table 11-1): a field taken from the wrong header or width, a check on one path only
    UDP_CHECKSUM_IPV6_ONLY("MR-WIRE-012", "verifies a non-zero udp.checksum on IPv6 frames only, so IPv4 frames with a "
        + "wrong one are taken"),
    NONZERO_UDP_CHECKSUM_DROPPED("MR-WIRE-011", "drops every frame with a non-zero udp.checksum as bad, without "
        + "verifying it (an offload that accepts only the RoCEv2 zero)"),
    TVER_LOW_BIT_ONLY("MR-WIRE-017", "reads bth.tver as one bit, so TVer 2 and 3 pass as 0 and 1"),
    PAD_REGION_UNCHECKED("MR-WIRE-021", "does not check that the data region is a multiple of 4 bytes long"),
    TAGGED_FRAGMENT_UNCOUNTED("MR-WIRE-006",
        "recognises a later IPv4 fragment only in an untagged frame, so a tagged one goes uncounted"),
    QPN_LOW_16_BITS("MR-SEC-010", "looks the QP up by the low 16 bits of bth.dqpn, so an unknown QPN can alias a QP"),
    TVER_MISMATCH_ONE_WAY("MR-ROB-008", "checks a frame's bth.tver against its QP's only for TVer 0 frames"),
    PLETH_LAST_UNCHECKED("MR-ROB-007", "checks pleth.first against the opcode but not pleth.last"),
    CE_ACK_TRIGGERS_CNP("MR-CC-008", "takes a CE mark on a received acknowledgement as a congestion indication"),
    CE_ON_CNP_NOT_COUNTED("MR-CC-009", "does not count a CE-marked CNP in ce_received"),
    ACK_FOR_READ_RESPONSE("MR-ACK-014", "acknowledges each READ RESPONSE it accepts, as a responder does a request"),
    NONZERO_PAD_DROPPED("MR-WIRE-020", "drops packets whose pad bytes are not zero as badly padded"),
    ZERO_LENGTH_ONLY_DROPPED("MR-CMP-007", "drops a SEND or RDMA WRITE ONLY packet with an empty payload as truncated"),
    ERROR_QP_STILL_PLACES("MR-QP-006",
        "places the payload of an RDMA WRITE for a QP in ERROR before its state check drops the frame"),
    CNP_FROM_ERROR_QP("MR-QP-005", "sends a CNP for a CE-marked request to a QP in ERROR: the congestion indication "
        + "is taken before the QP state check drops the frame"),
    LOW_SPORT_DROPPED("MR-MP-005", "drops requests whose udp.sport is below 0xC000 (in drop_wrong_peer), applying a "
        + "rule on sending on receive"),

    // responder: classification, acknowledgement and counters (sections 4, 5)
    NO_ACK_BEYOND_WINDOW("MR-ACK-007", "drops a packet beyond the window without sending the current ACK"),
    NO_ACK_FOR_DUPLICATE_IN_WINDOW("MR-ACK-006", "counts a duplicate of a recorded packet but does not answer it"),
    OOO_ACK_ONLY_ON_ACKREQ("MR-ACK-004", "acknowledges a packet recorded out of order only when it carries AckReq"),
    OOO_SEQUENCE_UNCHECKED("MR-ORD-007", "skips the sequence check for packets that were recorded out of order"),
    HOLE_CLOSE_ADVANCES_ONE("MR-ORD-005", "when a hole closes, moves ePSN past the arriving packet only, not past the "
        + "recorded packets after it"),
    ACK_PSN_EPSN("MR-ACK-001", "puts ePSN in an ACK's bth.psn instead of ePSN - 1"),
    NAK_PSN_EPSN("MR-ACK-011", "puts ePSN - 1 in a NAK's bth.psn instead of the rejected packet's PSN"),
    RNR_NAK_COUNTED_AS_NAK("MR-ACK-015", "counts RNR NAKs in nak_sent instead of rnr_nak_sent"),
    RNR_TIMER_DEVICE_DEFAULT("MR-ACK-012", "puts the device's default min_rnr_timer in RNR NAKs, not the QP's "
        + "attribute"),
    NAK_SEQ_ERR_BEYOND_WINDOW("MR-ACK-013",
        "answers a packet beyond the window with NAK 0x60, the TVer 0 sequence error, on a TVer 1 QP"),
    DUPLICATE_ACKED_AT_ITS_PSN("MR-ACK-010", "answers a duplicate SEND or WRITE packet before ePSN with an ACK whose "
        + "cumulative point is the duplicate's PSN + 1, so the acknowledged point moves back"),
    DUPLICATE_COUNTED_AS_DROP("MR-ORD-011",
        "counts a duplicate SEND or WRITE packet before ePSN in drop_outside_window as well as duplicate_received"),
    BITMAP_CLEARED_BEYOND_WINDOW("MR-ORD-006", "clears its receive bitmap when a packet beyond the window arrives"),

    // responder: validity and protection checks (Tables 6-2, 10-1), off by one or on one path only
    V1_FIRST_ONLY("MR-PLC-007", "checks the payload length of FIRST packets against PMTU but not that of MIDDLE ones"),
    V2_AGAINST_MAX_PMTU("MR-PLC-008",
        "checks a LAST or ONLY packet's payload against max_pmtu instead of the QP's pmtu"),
    V3_WRITE_ONLY("MR-PLC-009", "checks pleth.offset 0 on the first packets of RDMA WRITEs only"),
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
    ATOMIC_SLOT_NOT_FREED("MR-RD-008", "does not free an atomic's max_dest_rd_atomic slot when it answers it, so "
        + "later READ and atomic requests are rejected once max_dest_rd_atomic atomics were executed"),
    ATOMIC_ALIGN_4("MR-ATM-007", "checks atomiceth.va for 4-byte alignment instead of 8"),
    ZERO_LENGTH_KEY_CHECKED("MR-SEC-008", "checks the R_Key of RDMA WRITE and READ requests with reth.dmalen 0"),
    QP_ACCESS_UNCHECKED("MR-SEC-003", "checks the region's rights but not the QP's access attribute"),
    PD_CHECKED_ON_WRITE_ONLY("MR-SEC-002",
        "compares the region's protection domain with the QP's for RDMA WRITEs only"),
    V4_IN_ORDER_ONLY("MR-PLC-010", "checks V4 only on packets at ePSN, leaving the offset of a MIDDLE or LAST packet "
        + "that arrives out of order to the sequence check"),
    V4_ZERO_OFFSET_ALLOWED("MR-PLC-010", "accepts a MIDDLE or LAST packet with pleth.offset 0 (V4 tests only for a "
        + "multiple of PMTU), leaving it to the sequence check"),
    ATOMIC_NEEDS_READ_RIGHT("MR-SEC-004", "checks the region's remote-read right for atomics instead of "
        + "remote-atomic"),

    // responder: execution and completion (sections 7 to 9)
    INVALIDATE_OTHER_PD("MR-CMP-010", "invalidates an R_Key of another protection domain"),
    PLAIN_WRITE_CONSUMES_WQE("MR-CMP-006", "treats a plain RDMA WRITE's last packet as one with immediate: it consumes "
        + "a receive WQE and completes it"),
    COMPLETION_LENGTH_LAST_PACKET("MR-CMP-004",
        "reports the byte length of a SEND's last packet, not the message's, in the receive completion"),
    REEXECUTE_FROM_START("MR-RD-009", "re-executes a duplicate READ from its first byte, ignoring pleth.offset"),
    DUPLICATE_READ_OFFSET_UNCHECKED("MR-RD-010", "re-executes a duplicate READ without checking its pleth.offset"),
    READ_RESPONSE_MSN_CURRENT("MR-RD-004",
        "puts the responder's current MSN in a read response's pleth.msn instead of the READ REQUEST's"),
    READ_COUNT_FLOOR_PLUS_ONE("MR-RD-002",
        "computes the number of read responses as L / PMTU + 1, one too many when L is a multiple of PMTU"),
    ATOMIC_ORIG_MEMORY_ORDER("MR-ATM-008", "sends atomicacketh.orig in memory byte order instead of big-endian"),
    REPLAY_CACHE_ONE_ENTRY("MR-ATM-005", "keeps only the latest atomic in its replay cache, not max_dest_rd_atomic"),
    COMPARE_LOW_32_BITS("MR-ATM-001", "compares only the low 32 bits of the word with atomiceth.compare"),
    FETCH_ADD_32_BIT("MR-ATM-002", "adds in 32-bit arithmetic, losing the carry into the upper half of the word"),
    INVALIDATE_ON_ARRIVAL("MR-CMP-009",
        "invalidates the R_Key of a SEND WITH INVALIDATE when its last packet arrives, not when it completes"),
    REEXECUTED_READ_COUNTS_MSN("MR-RD-011", "increments the responder MSN when it re-executes a duplicate READ"),
    READ_LAST_RESPONSE_FIRST("MR-RD-006", "sends the last response of a multi-packet read before the others (the end "
        + "of the buffer fetched first)"),
    READ_LAST_OFF_BY_ONE("MR-RD-003", "tests for the last response with k == n instead of k == n - 1, so a "
        + "multi-packet read ends with a MIDDLE"),

    // control plane and QP state (section 3)
    READ_RESPONSE_CREDIT_SYNDROME("MR-HDR-008", "puts an InfiniBand credit count (syndrome 0x00) in the AETH of "
        + "read responses instead of 0x1F"),
    READ_RESPONSE_FIXED_SPORT("MR-MP-004", "sends read responses from the QP's fixed UDP source port although "
        + "spraying is on"),
    CNP_PSN_FROM_QP("MR-HDR-012", "puts the QP's ePSN in a CNP's bth.psn instead of 0"),
    RTR_EPSN_FROM_SQ_PSN("MR-QP-004", "takes ePSN from sq_psn instead of rq_psn on entering RTR"),
    RECEIVE_QUEUED_IN_ERROR("MR-QP-007",
        "queues a receive WQE posted to a QP in ERROR instead of completing it FLUSHED"),
    MODIFY_APPLIED_BEFORE_CHECK("MR-QP-009",
        "applies each attribute as it checks it, so a rejected modification leaves the earlier ones changed"),
    INIT_TO_RTS_ACCEPTED("MR-QP-009", "accepts a modification from INIT straight to RTS, skipping RTR (a transition "
        + "Table 3-2 does not list)"),

    // TVer 0 responder (appendix D)
    LEGACY_ACK_WITH_SACKETH("MR-LEG-001", "sends TVer 0 acknowledgements in the TVer 1 layout, with a SACKETH after "
        + "the AETH"),
    LEGACY_GAP_COUNTED_AS_DUPLICATE("MR-LEG-002",
        "counts a TVer 0 request after ePSN in duplicate_received instead of drop_outside_window"),
    LEGACY_DUPLICATE_ACK_ONLY_ON_ACKREQ("MR-LEG-004", "answers a TVer 0 duplicate only when it carries AckReq"),
    LEGACY_ACK_LAST_ONLY("MR-LEG-005", "acknowledges TVer 0 packets with AckReq only when they end a message"),
    LEGACY_MIDDLE_WITHOUT_FIRST("MR-LEG-006", "accepts a TVer 0 MIDDLE or LAST packet when no message is open"),
    LEGACY_NAK_FLAG_NOT_RESET("MR-LEG-003",
        "does not re-arm its NAK 0x60 after an in-order acceptance, so a second gap gets no NAK"),
    LEGACY_NAK_PSN_RECEIVED("MR-LEG-003",
        "puts the received packet's PSN in a TVer 0 NAK 0x60's bth.psn instead of ePSN"),
    LEGACY_ACCEPTS_AFTER_HOLE("MR-LEG-002", "tests a TVer 0 request's PSN for at or after ePSN instead of equal to it, "
        + "so a packet after a hole is accepted and placed as if in order"),

    // requester: packet building (section 12), a field from the wrong source, a header bit set after the ICRC
    UDP_LENGTH_WITHOUT_ICRC("MR-WIRE-009", "sets udp.length of its requests without the 4 ICRC bytes"),
    LAST_PACKET_OFF_BY_ONE("MR-REQ-006",
        "tests for a message's last packet with index == packets, so multi-packet messages end with a MIDDLE"),
    PACKET_COUNT_FLOOR_PLUS_ONE("MR-REQ-005", "counts a SEND's or RDMA WRITE's packets as length / pmtu + 1, so a "
        + "message of a multiple of pmtu bytes ends with an empty LAST packet after a full MIDDLE"),
    IMMEDIATE_BYTE_SWAPPED("MR-HDR-010", "writes the immediate data in host (little-endian) byte order"),
    IETH_FROM_RKEY_FIELD("MR-HDR-011", "puts the WQE's remote R_Key in ieth.rkey instead of the key to invalidate"),
    ATOMIC_OPERANDS_SWAPPED("MR-HDR-009", "puts the compare operand of a COMPARE SWAP in atomiceth.swap and the swap "
        + "operand in atomiceth.compare"),
    RETH_VA_PER_PACKET("MR-HDR-007", "puts the packet's own address in the RETH of later WRITE packets, not the "
        + "message's"),
    RSN_ON_FIRST_PACKET_ONLY("MR-HDR-005", "puts the RSN in the first packet of a message only, 0 in the others"),
    READ_VA_LOCAL("MR-REQ-009", "puts the WQE's local address in a READ REQUEST's reth.va"),
    READ_PLETH_FLAGS_FROM_POSITION("MR-HDR-002",
        "takes pleth.first and pleth.last of READ and atomic requests from the opcode position, leaving them 0"),
    ACKREQ_AFTER_ICRC("MR-WIRE-014", "sets bth.ackreq after sealing the ICRC, so those packets carry a wrong ICRC"),
    MIGREQ_SET("MR-WIRE-013", "sends every request with bth.m 1, copied from a template"),
    SPORT_WITHOUT_HIGH_BITS("MR-WIRE-010", "derives udp.sport from the QPN without setting bits 15 and 14"),
    CNP_TO_OWN_QPN("MR-MP-007", "addresses CNPs to its own QPN instead of the QP's dest_qpn"),
    ETH_SRC_FROM_DEST("MR-WIRE-001", "writes the destination MAC address in eth.src of its requests as well, both "
        + "taken from the QP's address entry"),
    IPV6_LENGTH_WITH_HEADER("MR-WIRE-007", "counts the 40-byte IPv6 header in ip6.payload_length of its requests"),
    PLETH_OFFSET_IN_PACKETS("MR-HDR-004", "writes a request's pleth.offset in PMTU units (the packet's index in its "
        + "message) instead of bytes"),
    IPV4_DF_CLEARED("MR-WIRE-004", "sends its IPv4 requests with ip.df 0, the default of a UDP stack"),
    PLETH_FLAG_BIT_SET("MR-HDR-003", "leaves bit 0 of pleth.flags set in the requests it sends, a reserved bit copied "
        + "from the descriptor"),
    PAD_FROM_MEMORY("MR-WIRE-019", "copies a request's payload from memory in 4-byte words, so its pad bytes hold the "
        + "bytes that follow the message instead of 0"),
    SPORT_SPRAYED_WITHOUT_SPRAY("MR-MP-001", "varies udp.sport packet by packet on a QP whose spray attribute is "
        + "false, following the device's multipath-spraying claim instead of the QP's attribute"),

    // requester: sequencing, limits and retransmission (sections 12, 13)
    FIRST_PSN_AFTER_SQ_PSN("MR-REQ-001", "starts its send queue at sq_psn + 1 (the attribute taken as the last PSN "
        + "used rather than the next one)"),
    MSN_ONLY_FOR_WQE_MESSAGES("MR-REQ-007", "increments pleth.msn only for messages that consume a receive WQE"),
    ACKREQ_INTERVAL_PLUS_ONE("MR-REQ-011", "sets AckReq after ack_req_interval + 1 packets instead of "
        + "ack_req_interval"),
    MAX_RD_ATOMIC_OFF_BY_ONE("MR-REQ-013", "lets max_rd_atomic + 1 READ and atomic WQEs be outstanding"),
    FENCE_IGNORES_ATOMICS("MR-REQ-014", "holds a fenced WQE behind earlier READs but not behind earlier atomics"),
    RETRIES_NOT_RESET_ON_PROGRESS("MR-RTX-011", "does not reset the retry counter when una moves"),
    RNR_WAIT_OWN_TIMER("MR-RTX-012", "waits its own min_rnr_timer after an RNR NAK instead of the NAK's timer code"),
    RNR_RETRY_OFF_BY_ONE("MR-RTX-014", "allows rnr_retry + 1 RNR waits without progress before giving up"),
    RNR_RETRIES_NOT_RESET_ON_PROGRESS("MR-RTX-014", "does not reset the RNR retry counter when una moves, so RNR "
        + "waits separated by progress add up to rnr_retry"),
    RNR_NAK_RESTARTS_WAIT("MR-RTX-015", "restarts the RNR wait, and counts an RNR retry, on an RNR NAK received "
        + "during the wait"),
    RNR_RESUME_NOT_LOWERED("MR-RTX-013", "keeps the first RNR NAK's resume PSN when a later one during the wait "
        + "names an earlier PSN"),
    READ_RETRY_COUNTED_AS_TIMEOUT("MR-RTX-019", "counts a READ re-request in timeouts instead of retransmitted"),
    THRESHOLD_OFF_BY_ONE("MR-RTX-003", "infers a loss after reorder_threshold + 1 later deliveries"),
    TIMEOUT_RESENDS_ALL("MR-RTX-009", "on a timeout of a TVer 1 QP resends every in-flight PSN from una, go-back-N"),
    TIMER_NOT_RESTARTED_ON_PROGRESS("MR-RTX-008", "keeps the retransmission timer of the old una running after "
        + "progress"),
    RNR_END_TIMER_NOT_STARTED("MR-RTX-008", "does not start the retransmission timer again at the end of an RNR "
        + "wait, so a lost resend is never retransmitted"),
    READ_RECOVERY_FROM_START("MR-RTX-016",
        "recovers a READ from its first PSN even when a response or SACK bit shows its request arrived"),
    REORDER_TIMER_RESTARTED("MR-RTX-004",
        "restarts a PSN's reorder timer at every later delivery instead of starting it at the first"),
    RETRANSMISSION_KEEPS_TX_ORDER("MR-RTX-005", "keeps a retransmitted PSN's original send order, so deliveries "
        + "seen before the retransmission infer it lost again"),
    READ_TAKES_ONE_PSN("MR-REQ-002", "gives a READ REQUEST one PSN, not the span of its responses"),
    RSN_COUNTS_EVERY_MESSAGE("MR-REQ-008", "increments pleth.rsn for every message, not only those that consume a "
        + "receive WQE"),
    LEGACY_TIMEOUT_UNA_ONLY("MR-LEG-009",
        "on a timeout of a TVer 0 QP resends una only instead of every in-flight PSN"),
    LEGACY_READ_GAP_ACCEPTED("MR-LEG-010", "places a TVer 0 read response that follows a missing one"),
    LEGACY_NAK_SEQ_ERR_AS_ERROR("MR-LEG-008", "takes NAK 0x60 for a fatal NAK instead of resending from its PSN"),
    READ_RESPONSE_PLACED_IN_ARRIVAL_ORDER("MR-PLC-003", "places each read response after the bytes of its READ "
        + "received so far (a write pointer), not at its pleth.offset"),
    ATOMIC_RESULT_WIRE_ORDER("MR-CMP-014", "writes an atomic's original value to its local buffer in wire (big-endian) "
        + "order, whatever atomic_memory_order"),
    DUPLICATE_READ_RESPONSE_PLACED("MR-ROB-010", "places a read response for an already delivered PSN again"),
    READ_RESPONSE_OPCODE_UNCHECKED("MR-ROB-009", "accepts a read response whose opcode does not fit its place in the "
        + "read (a FIRST, MIDDLE, LAST or ONLY where another is due)"),

    // congestion control (section 14)
    CE_READ_RESPONSE_IGNORED("MR-CC-004", "takes no congestion indication from a CE-marked read response"),
    RATE_TIMER_RESTARTED_ON_SEND("MR-CC-013", "restarts the rate increase timer at every packet sent"),
    CNP_APPLIED_TO_PEER_QPS("MR-CC-016", "applies a CNP to every QP in RTS with the same peer address, matching on "
        + "the wrong key"),
    FAST_RECOVERY_OFF_BY_ONE("MR-CC-014", "stays in fast recovery while T or BC equals F, one step too long"),
    RT_LIMITED_BEFORE_RC("MR-CC-014", "limits the raised Rt to the line rate before an increase step computes Rc from "
        + "it, so Rc approaches the line rate more slowly than Table 14-3 says"),
    PACED_AT_TARGET_RATE("MR-CC-017", "paces its packets at the target rate Rt instead of the current rate Rc"),
    READ_RESPONSES_UNPACED("MR-CC-018", "sends read responses at once, outside the QP's pacer"),
    READ_RESPONSES_NOT_ECT("MR-CC-001", "sends read responses with ip.ecn Not-ECT, built from the acknowledgement "
        + "template"),
    CNP_MARKED_CE("MR-CC-002", "sends its CNPs with ip.ecn CE");

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

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
    NO_ACK_PROBE("MR-RTX-020", "sends no acknowledgement probe, so a WRITE whose cumulative ACK was lost never completes");

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

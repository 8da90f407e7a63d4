package org.metaroce.mrct.wire;

/**
 * Why a RoCE frame could not be decoded. Which drop counter a receiver increments for it is the receiver's policy
 * (MetaRoCE v1 Table 11-1 orders the checks), not the codec's.
 */
public enum DecodeError {
    /** The frame ends before a header, the payload or the ICRC it announces. */
    TRUNCATED,
    /** Length fields disagree with each other (IP total or payload length, UDP length). */
    LENGTH_MISMATCH,
    /** IPv4 or IPv6 header not well formed (version, IHL) or GRH not followed by a BTH. */
    BAD_IP_HEADER,
    /** An IPv4 fragment of a RoCE packet: MetaRoCE never fragments. */
    IP_FRAGMENT,
    /** More than one VLAN tag, or an 802.1ad tag. */
    STACKED_VLAN,
    /** BTH.PadCnt larger than the bytes between the last header and the ICRC. */
    PAD_EXCEEDS_PAYLOAD
}

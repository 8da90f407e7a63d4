package org.metaroce.mrct.wire;

/** Why a RoCE frame could not be decoded (MetaRoCE v1 sections WIRE and ROB name the drop counter of each). */
public enum DecodeError {
    /** The frame ends before a header, the payload or the ICRC it announces. */
    TRUNCATED("drop_truncated"),
    /** Length fields disagree with each other (IP total or payload length, UDP length). */
    LENGTH_MISMATCH("drop_length_mismatch"),
    /** IPv4 or IPv6 header not well formed (version, IHL) or GRH not followed by a BTH. */
    BAD_IP_HEADER("drop_bad_ip_header"),
    /** An IPv4 fragment of a RoCE packet: MetaRoCE never fragments. */
    IP_FRAGMENT("drop_bad_ip_header"),
    /** More than one VLAN tag, or an 802.1ad tag. */
    STACKED_VLAN("drop_bad_encapsulation"),
    /** BTH.PadCnt larger than the bytes between the last header and the ICRC. */
    PAD_EXCEEDS_PAYLOAD("drop_bad_pad");

    private final String counter;

    DecodeError(final String counter) {
        this.counter = counter;
    }

    /** The MetaRoCE v1 drop counter (Appendix C) a receiver increments for this error. */
    public String counter() {
        return counter;
    }
}

package org.metaroce.mrct.wire;

/** Outcome of decoding one frame. */
public enum DecodeStatus {
    /** A RoCE frame (v1 or v2) whose structure decoded; semantic checks (ICRC, opcode support) are separate. */
    ROCE,
    /** Not a RoCE frame (ARP, TCP, another UDP port, ...); nothing more is decoded. */
    NOT_ROCE,
    /** A RoCE frame whose structure is damaged; see {@link DecodedFrame#failure()}. */
    MALFORMED
}

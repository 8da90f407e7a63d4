package org.metaroce.mrct.harness.blame;

import org.metaroce.mrct.wire.Opcode;

/**
 * A frame the harness sent to the device on the failing connection, as blame needs it.
 *
 * @param psn the PSN relative to the connection's initial PSN in the direction of the frame (script space)
 * @param opcode the opcode
 * @param ackReq bth.ackreq
 * @param ce whether the frame was CE-marked (ip.ecn 3)
 * @param span PSNs the request covers: the packets of a READ's response, 1 otherwise
 * @param dropRule null for a frame a conforming device processes; else the rule that makes it drop the frame
 *     silently, as far as blame can tell from the frame (bad IPv4 header, UDP checksum, ICRC, transport version, P_Key)
 * @param length reth.dmalen of a request with a RETH, -1 for a frame without one
 * @param rejected whether the device answered the request with a NAK or RNR NAK naming its PSN (nothing of it is
 *     recorded, so it does not move a responder's ePSN)
 * @param payload the payload length in bytes, -1 when not known
 * @param padNonZero whether a pad byte is not zero (a device ignores their value, MR-WIRE-020)
 * @param sport udp.sport, -1 when not known
 * @param arrivalRule the rule of a check of Table 6-2 the harness sees the request fail on arrival that the sequence
 *     check of Table 4-2 rejects with the same NAK 0x61 when ePSN reaches it (V4: a MIDDLE or LAST whose pleth.offset
 *     is 0 or not a multiple of PMTU never follows its predecessor), or null
 * @param wrongRightRule the rule of the rights check P4 (MR-SEC-004) when the request passes Table 10-1 by the
 *     harness's own records (its key names a region it registered in the QP's protection domain and has not
 *     invalidated, through the control plane or a SEND WITH INVALIDATE, with the right the request needs, its bytes
 *     inside) and that region lacks a remote right the request does not need: only a rights
 *     check reading the wrong right rejects it; null otherwise
 */
public record SentPacket(int psn, Opcode opcode, boolean ackReq, boolean ce, int span, String dropRule, long length,
                         boolean rejected, int payload, boolean padNonZero, int sport, String arrivalRule,
                         String wrongRightRule) {
    public SentPacket {
        span = Math.max(1, span);
    }

    /** A frame whose source port, offset and protection blame does not need. */
    public SentPacket(final int psn, final Opcode opcode, final boolean ackReq, final boolean ce, final int span,
                      final String dropRule, final long length, final boolean rejected, final int payload,
                      final boolean padNonZero) {
        this(psn, opcode, ackReq, ce, span, dropRule, length, rejected, payload, padNonZero, -1, null, null);
    }

    /** A frame whose payload blame does not need. */
    public SentPacket(final int psn, final Opcode opcode, final boolean ackReq, final boolean ce, final int span,
                      final String dropRule, final long length, final boolean rejected) {
        this(psn, opcode, ackReq, ce, span, dropRule, length, rejected, -1, false);
    }

    /** A frame without a RETH (or whose length blame does not need). */
    public SentPacket(final int psn, final Opcode opcode, final boolean ackReq, final boolean ce, final int span,
                      final String dropRule) {
        this(psn, opcode, ackReq, ce, span, dropRule, -1, false);
    }

    /** A frame a conforming device processes. */
    public SentPacket(final int psn, final Opcode opcode, final boolean ackReq, final boolean ce, final int span,
                      final boolean valid) {
        this(psn, opcode, ackReq, ce, span, valid ? null : "MR-WIRE-015");
    }

    /** True when a conforming device processes the frame (it breaks no receive check blame can see). */
    public boolean valid() {
        return dropRule == null;
    }

    /** True for a request a conforming responder classes and records (Table 4-1): valid and not rejected. */
    public boolean recordable() {
        return isRequest() && valid() && !rejected;
    }

    /** The same packet, marked as rejected by the device with a NAK or RNR NAK. */
    public SentPacket asRejected() {
        return new SentPacket(psn, opcode, ackReq, ce, span, dropRule, length, true, payload, padNonZero, sport,
            arrivalRule, wrongRightRule);
    }

    /** True for a READ REQUEST or an atomic request (executed in PSN order, MR-ORD-008). */
    public boolean executes() {
        return opcode.kind() == org.metaroce.mrct.wire.OpKind.RDMA_READ_REQUEST
            || opcode.kind() == org.metaroce.mrct.wire.OpKind.COMPARE_SWAP
            || opcode.kind() == org.metaroce.mrct.wire.OpKind.FETCH_ADD;
    }

    /** True when udp.sport is known and outside 0xC000-0xFFFF, the range a device sends from (MR-WIRE-010). */
    public boolean lowSport() {
        return sport >= 0 && sport < 0xC000;
    }

    /** True for request packets (SEND, WRITE, READ REQUEST, atomics). */
    public boolean isRequest() {
        return opcode.kind().isRequest();
    }
}

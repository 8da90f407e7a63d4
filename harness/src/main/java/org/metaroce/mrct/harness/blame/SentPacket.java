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
 * @param valid whether the frame passes the receive checks a conforming device applies before recording it, as far
 *     as blame can tell (ICRC, transport version)
 */
public record SentPacket(int psn, Opcode opcode, boolean ackReq, boolean ce, int span, boolean valid) {
    public SentPacket {
        span = Math.max(1, span);
    }

    /** True for request packets (SEND, WRITE, READ REQUEST, atomics). */
    public boolean isRequest() {
        return opcode.kind().isRequest();
    }
}

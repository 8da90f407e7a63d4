package org.metaroce.mrct.harness.blame;

import java.util.List;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/**
 * Blames what the requester sent for a message, where the frame the check judged does not decide the rule alone.
 *
 * <p>A MIDDLE where the message's LAST was due, or a FIRST where its ONLY was (the requester model's MR-REQ-006), is
 * either a wrong opcode on the right number of packets, or one packet too many: a device that counts a message of a
 * multiple of pmtu bytes as length / pmtu + 1 packets sends its last full packet as a MIDDLE (a FIRST for a message of
 * exactly pmtu bytes) and then an empty LAST (section 12, MR-REQ-005).
 * Only the next request tells them apart, so the engine lets the device run on after such a failure; an empty LAST of
 * the same message kind at the next PSN makes it MR-REQ-005, anything else (the next message's first packet, or
 * nothing) leaves the check's MR-REQ-006.
 */
final class Requests {
    private Requests() {
    }

    static Cause extraPacket(final FailureContext c, final Blame.Choice choice) {
        final DecodedFrame actual = c.actual();
        final DecodedFrame next = c.next();
        if (actual == null || next == null || !actual.isRoce() || !next.isRoce()
            || actual.opcode().position() != Position.MIDDLE && actual.opcode().position() != Position.FIRST || next.opcode().position() != Position.LAST
            || next.opcode().kind() != actual.opcode().kind() || next.payloadLength() != 0
            || Psn.diff(next.bth().psn(), actual.bth().psn()) != 1) {
            return null;
        }
        return choice.cause(List.of("MR-REQ-005"), "payload_len", "a full packet where the LAST (or ONLY) was due, then "
            + "an empty LAST: one packet more than ceil(length / pmtu)", Cause.Basis.MODEL);
    }
}

package org.metaroce.mrct.harness.engine;

import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.NotificationPoint;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The invariants every frame from the device must meet while a flow runs (the properties of generated cases):
 * acknowledgements agree with the responder model (the cumulative ACK never goes back and never passes an unrecorded
 * PSN, the SACK bitmap shows only PSNs that were delivered, the MSN never exceeds the completed messages), a valid
 * flow is never rejected, and CNPs come when congestion indications require one and never closer than
 * cnp_interval_ns.
 */
final class FlowChecker {
    private final Connection connection;
    private final long cnpDelay;
    /** The connection's CNP scope: the oracle's notification point (MR-CC-003, MR-CC-005, MR-CC-006). */
    private final NotificationPoint cnps;
    private int highestBase = Integer.MIN_VALUE;
    private int lastAckBase = Integer.MIN_VALUE;
    private int lastAckMsn = -1;

    FlowChecker(final Connection connection, final long cnpInterval, final long cnpDelay) {
        this(connection, cnpInterval, cnpDelay, 0);
    }

    /**
     * With a timing {@code tolerance} (real time; 0 on virtual time): a CNP may come that much later than
     * cnp_delay_max_ns and that much closer to the previous one than cnp_interval_ns, and a CE-marked packet sent
     * within the tolerance of the end of an interval may or may not be answered with a CNP (the device's clock and the
     * harness's cannot tell which side of the boundary it fell on).
     */
    FlowChecker(final Connection connection, final long cnpInterval, final long cnpDelay, final long tolerance) {
        this.connection = connection;
        this.cnpDelay = cnpDelay;
        this.cnps = new NotificationPoint(cnpInterval, cnpDelay, tolerance);
    }

    /** A CE-marked request was sent at {@code time}: a CNP is owed unless the scope is holding. */
    void ceSent(final long time) {
        cnps.onCongestionIndication(time, -1, false);
    }

    /** Checks a frame received at {@code time}; returns a failure, or null. */
    StepFailure check(final DecodedFrame f, final long time, final int evidence) {
        if (!f.isRoce() || f.bth().destQp() != connection.peerQpn) {
            return null;
        }
        final Opcode opcode = f.opcode();
        if (opcode == Opcode.CNP) {
            final List<Finding> found = cnps.onCnpSent(time, evidence);
            if (found.isEmpty()) {
                return null;
            }
            final Finding first = found.get(0);
            return failure(first.rule(), first.rule().equals("MR-CC-005") ? "CNP frame #" + evidence + " came "
                + first.actual() + " after the previous one, inside cnp_interval_ns " + first.expected()
                .replace("at least ", "") : "CNP frame #" + evidence + " was not owed to any congestion indication",
                evidence, new FieldDiff(first.field(), first.expected(), first.actual()));
        }
        if (opcode != Opcode.ACKNOWLEDGE) {
            return failure("MR-ORD-002", "frame #" + evidence + " (" + opcode.name() + ") is not an acknowledgement "
                + "of the flow's valid requests", evidence, new FieldDiff("bth.opcode", "ACKNOWLEDGE", opcode.name()));
        }
        final AethSyndrome syndrome = f.aeth().syndrome();
        if (syndrome.type() != AethSyndrome.Type.ACK) {
            return failure("MR-ORD-002", "frame #" + evidence + " rejects a valid request: " + syndrome.name(),
                evidence, new FieldDiff("aeth.syndrome", "ACK (0x1f)", syndrome.name()));
        }
        final ResponderModel model = connection.model();
        final int base = Psn.diff(f.sacketh().basePsn(), connection.psnBase());
        if (base < highestBase) {
            return failure("MR-ACK-010", "the cumulative ACK moved back to " + base + " after " + highestBase,
                evidence, new FieldDiff("sacketh.base", "at least " + highestBase, Integer.toString(base)));
        }
        if (base > model.expectedPsn()) {
            return failure("MR-ORD-005", "sacketh.base " + base + " passes PSNs the harness never delivered (ePSN of "
                + "a conforming responder: " + model.expectedPsn() + ")", evidence,
                new FieldDiff("sacketh.base", "at most " + model.expectedPsn(), Integer.toString(base)));
        }
        final long bitmap = f.sacketh().bitmap();
        for (int i = 0; i < 64; i++) {
            if ((bitmap & (Long.MIN_VALUE >>> i)) != 0 && !model.delivered(base + i)) {
                return failure("MR-ACK-002", "sacketh.bitmap reports PSN " + (base + i) + " (bit " + i
                    + ") that was never delivered", evidence, new FieldDiff("sacketh.bitmap bit " + i, "0", "1"));
            }
        }
        final int msn = f.aeth().msn();
        if (msn > model.msn()) {
            return failure("MR-ACK-003", "aeth.msn " + msn + " exceeds the " + model.msn() + " completed messages",
                evidence, new FieldDiff("aeth.msn", "at most " + model.msn(), Integer.toString(msn)));
        }
        highestBase = base;
        lastAckBase = base;
        lastAckMsn = msn;
        return null;
    }

    /** After the flow settled: the CNPs owed arrived and the last ACK covers everything delivered. */
    StepFailure finish(final boolean lastHadAckReq, final long now) {
        final List<Finding> overdue = cnps.overdue(now);
        if (!overdue.isEmpty()) {
            final Finding first = overdue.get(0);
            return failure(first.rule(), overdue.size() + " CNP(s) owed to CE-marked packets did not come within "
                + "cnp_delay_max_ns " + cnpDelay, -1, new FieldDiff(first.field(), first.expected(), first.actual()));
        }
        final ResponderModel model = connection.model();
        if (!lastHadAckReq) {
            return null;
        }
        if (lastAckBase == Integer.MIN_VALUE) {
            return failure("MR-ACK-005", "no ACK answered the flow's last packet, which carried AckReq", -1,
                new FieldDiff("ack", "a current ACK", "none"));
        }
        if (lastAckBase < model.expectedPsn()) {
            return failure("MR-ORD-002", "after the whole flow the last ACK reports ePSN " + lastAckBase
                + ": packets inside the window were not recorded (a conforming responder is at ePSN "
                + model.expectedPsn() + ")", -1, new FieldDiff("sacketh.base", Integer.toString(model.expectedPsn()),
                    Integer.toString(lastAckBase)));
        }
        if (lastAckMsn != model.msn()) {
            return failure("MR-ACK-003", "after the whole flow the last ACK reports MSN " + lastAckMsn + ", "
                + model.msn() + " messages completed", -1, new FieldDiff("aeth.msn", Integer.toString(model.msn()),
                    Integer.toString(lastAckMsn)));
        }
        return null;
    }

    private static StepFailure failure(final String rule, final String message, final int evidence,
                                       final FieldDiff diff) {
        return StepFailure.breaking(rule, message, evidence, List.of(diff));
    }
}

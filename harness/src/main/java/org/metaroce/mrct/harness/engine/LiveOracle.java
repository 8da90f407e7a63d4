package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.FrameOracle;
import org.metaroce.mrct.oracle.LegacyAnswers;
import org.metaroce.mrct.oracle.QpFacts;
import org.metaroce.mrct.oracle.Vantage;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * How the live engine asks the oracle about a frame from the device: with everything the run configured (both MAC
 * addresses, the QP's attributes) and the QP's stream state. The engine fails the case on the first finding; every
 * field of that finding's rule goes into the failure.
 */
final class LiveOracle {
    private static final Basis EARLIER = Basis.inferred("the QP's earlier acknowledgements in the case");
    private static final Basis SENT = Basis.configured("the requests the harness sent to the QP");
    private LiveOracle() {
    }

    /**
     * Every finding on a frame the device sent, the per-frame rules first, then the stream rules of the QP it belongs
     * to (MR-LEG-002 and MR-LEG-003 on a TVer 0 acknowledgement among them).
     *
     * @param f          the decoded frame
     * @param index      the index the frame gets in the case's evidence
     * @param owner      the connection the frame belongs to (by its bth.dqpn), or null
     * @param deviceMac  the device port's own MAC address
     * @param harnessMac the harness's MAC address, every QP's dest_mac
     */
    static List<Finding> judge(final DecodedFrame f, final long index, final Connection owner, final long deviceMac,
                               final long harnessMac) {
        final QpFacts facts = owner == null ? QpFacts.UNKNOWN : owner.facts();
        final List<Finding> frame = FrameOracle.check(f, index, Vantage.live(deviceMac, harnessMac), facts);
        if (owner == null) {
            return frame;
        }
        final List<Finding> stream = owner.stream().onSent(f, index, facts);
        final boolean legacyAck = f.isRoce() && f.tver() == 0 && f.opcode() == Opcode.ACKNOWLEDGE
            && f.has(HeaderKind.AETH);
        final Finding unsent = legacyAck ? owner.legacyAnswers().onCoverage(f.aeth().syndromeValue(), f.bth().psn(),
            owner.psnBase(), owner.sent(), index, SENT) : null;
        final LegacyAnswers.RepeatedNak nak = legacyAck ? owner.legacyAnswers().onAcknowledge(
            f.aeth().syndromeValue(), f.bth().psn(), index, EARLIER) : null;
        if (stream.isEmpty() && nak == null && unsent == null) {
            return frame;
        }
        final List<Finding> all = new ArrayList<>(frame);
        all.addAll(stream);
        if (unsent != null) {
            all.add(unsent);
        }
        if (nak != null) {
            all.add(nak.finding());
        }
        return all;
    }

    /** The fields of the findings of {@code rule}, as the failure shows them. */
    static List<FieldDiff> diffsOf(final String rule, final List<Finding> findings) {
        final List<FieldDiff> diffs = new ArrayList<>();
        for (final Finding finding : findings) {
            if (finding.rule().equals(rule)) {
                diffs.add(new FieldDiff(finding.field(), finding.expected(), finding.actual()));
            }
        }
        return diffs;
    }
}

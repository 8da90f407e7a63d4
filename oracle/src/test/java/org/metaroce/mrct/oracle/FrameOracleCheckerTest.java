package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.oracle.Frames.DEVICE;
import static org.metaroce.mrct.oracle.Frames.PEER;
import static org.metaroce.mrct.oracle.Frames.decode;
import static org.metaroce.mrct.oracle.Frames.of;
import static org.metaroce.mrct.oracle.Frames.send;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.Arguments;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * One {@link FrameOracle.Checker} asked about frame after frame says what the static {@link FrameOracle#check} says
 * of each: the same findings, and as bits the same rules examined. Every broken and sound frame of
 * {@link FrameOracleTest}, TVer 0 ones and one outside the scope, in one sequence, from two vantages, so state left
 * by one frame (a finding, a rule examined, the TVer or the sender of the one before) would show on the next.
 */
class FrameOracleCheckerTest {
    private static final QpFacts QP = new QpFacts(1, 0xFFFF, Basis.configured("the QP's pkey attribute"), false,
        null, null);
    private static final QpFacts LEGACY = new QpFacts(0, 0xFFFF, Basis.inferred("frame 1"), null, null, null);

    @Test
    void aReusedCheckerAgreesWithTheStaticCheckFrameAfterFrame() {
        final List<FrameBuilder> frames = new ArrayList<>();
        final List<QpFacts> facts = new ArrayList<>();
        for (final Arguments a : FrameOracleTest.broken().toList()) {
            frames.add((FrameBuilder) a.get()[2]);
            facts.add((QpFacts) a.get()[3]);
        }
        for (final Arguments a : FrameOracleTest.sound().toList()) {
            frames.add((FrameBuilder) a.get()[1]);
            facts.add(QP);
        }
        for (final FrameBuilder legacy : List.of(send().tver(0), of(Opcode.ACKNOWLEDGE).tver(0).psn(99),
            of(Opcode.RDMA_READ_RESPONSE_FIRST).tver(0).payload(new byte[256]), of(Opcode.FETCH_ADD).tver(0),
            of(Opcode.UC_SEND_ONLY).tver(0).payload(new byte[8]).with("bth.m", 1), send().tver(0).with("bth.m", 1))) {
            frames.add(legacy);
            facts.add(LEGACY);
        }
        final FrameOracle.Checker checker = new FrameOracle.Checker();
        int findings = 0;
        int nothingExamined = 0;
        for (final Vantage vantage : List.of(Vantage.live(DEVICE, PEER), Vantage.capture(0, false, false))) {
            for (int i = 0; i < frames.size(); i++) {
                final DecodedFrame f = decode(frames.get(i));
                final Set<FrameRule> examined = EnumSet.noneOf(FrameRule.class);
                final List<Finding> expected = FrameOracle.check(f, i, false, vantage, facts.get(i), examined::add,
                    false);
                final List<Finding> actual = checker.check(f, i, false, vantage, facts.get(i), false);
                assertThat(actual).as("frame %d from %s", i, vantage).isEqualTo(expected);
                long bits = 0;
                for (final FrameRule rule : examined) {
                    bits |= rule.bit();
                }
                assertThat(checker.examined()).as("frame %d from %s: %s", i, vantage, examined).isEqualTo(bits);
                findings += expected.size();
                nothingExamined += bits == 0 ? 1 : 0;
            }
        }
        // the sequence does hold frames with findings and frames no rule examines (a UC frame), between others
        assertThat(findings).isPositive();
        assertThat(nothingExamined).isPositive();
    }
}

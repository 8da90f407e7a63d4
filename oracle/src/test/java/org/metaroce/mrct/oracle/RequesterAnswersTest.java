package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.oracle.Frames.decode;
import static org.metaroce.mrct.oracle.Frames.of;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * Table 11-4 on hand-built answers: each reason to drop one silently makes it dropped, and the answer beside it that
 * meets the table is taken. The requester sent PSNs 100-109: a WRITE at 100-101, a READ at 102 with span 102-105, SENDs
 * 106-109; 100 and 101 are delivered.
 */
class RequesterAnswersTest {
    private static final RequesterState TVER1 = state(false);
    private static final RequesterState TVER0 = state(true);

    private static RequesterState state(final boolean legacy) {
        return new RequesterState() {
            @Override
            public boolean legacy() {
                return legacy;
            }

            @Override
            public int nextPsn() {
                return 110;
            }

            @Override
            public boolean outstanding(final int psn) {
                return psn >= 102 && psn < 110;
            }

            @Override
            public boolean inReadSpan(final int psn) {
                return psn >= 102 && psn <= 105;
            }
        };
    }

    private static DecodedFrame ack(final int base, final int syndrome) {
        return decode(of(Opcode.ACKNOWLEDGE).psn(base - 1).with("sacketh.base", base).with("aeth.syndrome", syndrome));
    }

    private static DecodedFrame nak(final int psn, final int syndrome) {
        return decode(of(Opcode.ACKNOWLEDGE).psn(psn).with("sacketh.base", 102).with("aeth.syndrome", syndrome));
    }

    private static DecodedFrame legacy(final Opcode opcode, final int psn, final int syndrome) {
        final FrameBuilder b = of(opcode).tver(0).headers(HeaderKind.AETH).psn(psn).with("aeth.syndrome", syndrome);
        return decode(b);
    }

    private static DecodedFrame readResponse(final int psn) {
        return decode(of(Opcode.RDMA_READ_RESPONSE_MIDDLE).psn(psn).payload(new byte[8]));
    }

    @Test
    void anAckUpToTheNextPsnIsTaken() {
        assertThat(RequesterAnswers.acknowledge(ack(110, 0x1F), TVER1).taken()).isTrue();
        assertThat(RequesterAnswers.acknowledge(ack(102, 0x1F), TVER1)).isEqualTo(RequesterAnswers.Fate.TAKEN);
    }

    @Test
    void anAckBeyondTheNextPsnIsDropped() {
        final RequesterAnswers.Fate fate = RequesterAnswers.acknowledge(ack(111, 0x1F), TVER1);
        assertThat(fate.taken()).isFalse();
        assertThat(fate.reason()).contains("after the next PSN");
    }

    @Test
    void reservedSyndromesAreDropped() {
        for (final int syndrome : Set.of(0x40, 0x5F, 0x9F, 0x64, 0x7F)) {
            assertThat(RequesterAnswers.acknowledge(ack(102, syndrome), TVER1).taken()).as("0x%02X", syndrome)
                .isFalse();
        }
    }

    @Test
    void nak60IsDroppedOnTver1ButTakenOnTver0() {
        assertThat(RequesterAnswers.acknowledge(nak(103, 0x60), TVER1).reason()).contains("NAK 0x60 on a TVer 1");
        assertThat(RequesterAnswers.acknowledge(legacy(Opcode.ACKNOWLEDGE, 103, 0x60), TVER0).taken()).isTrue();
    }

    @Test
    void anAckWhosePsnIsNotBeforeItsBaseIsDropped() {
        final DecodedFrame skewed = decode(of(Opcode.ACKNOWLEDGE).psn(104).with("sacketh.base", 102));
        assertThat(RequesterAnswers.acknowledge(skewed, TVER1).reason()).contains("is not sacketh.base");
    }

    @Test
    void naksAndRnrNaksMustNameAnOutstandingPsn() {
        assertThat(RequesterAnswers.acknowledge(nak(103, 0x61), TVER1).taken()).isTrue();
        assertThat(RequesterAnswers.acknowledge(nak(103, 0x21), TVER1).taken()).isTrue();
        assertThat(RequesterAnswers.acknowledge(nak(101, 0x61), TVER1).reason()).contains("not outstanding");
        assertThat(RequesterAnswers.acknowledge(nak(112, 0x21), TVER1).reason()).contains("RNR NAK for PSN 112");
        assertThat(RequesterAnswers.acknowledge(legacy(Opcode.ACKNOWLEDGE, 100, 0x60), TVER0).taken()).isFalse();
    }

    @Test
    void aTver0AckPointsPastItsPsn() {
        assertThat(RequesterAnswers.acknowledge(legacy(Opcode.ACKNOWLEDGE, 109, 0x1F), TVER0).taken()).isTrue();
        assertThat(RequesterAnswers.acknowledge(legacy(Opcode.ACKNOWLEDGE, 110, 0x1F), TVER0).taken()).isFalse();
    }

    @Test
    void aReadResponseMustLieInAReadSpan() {
        assertThat(RequesterAnswers.readResponse(readResponse(102), TVER1).taken()).isTrue();
        assertThat(RequesterAnswers.readResponse(readResponse(105), TVER1).taken()).isTrue();
        assertThat(RequesterAnswers.readResponse(readResponse(100), TVER1).reason()).contains("span of no READ");
        assertThat(RequesterAnswers.readResponse(readResponse(106), TVER1).taken()).isFalse();
        assertThat(RequesterAnswers.of(readResponse(106), TVER1).taken()).isFalse();
    }

    @Test
    void anAtomicAcknowledgeMustNameAnOutstandingPsn() {
        final FrameBuilder atomic = of(Opcode.ATOMIC_ACKNOWLEDGE);
        assertThat(RequesterAnswers.of(decode(atomic.psn(107)), TVER1).taken()).isTrue();
        assertThat(RequesterAnswers.of(decode(of(Opcode.ATOMIC_ACKNOWLEDGE).psn(100)), TVER1).taken()).isFalse();
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The acknowledgements of a TVer 0 responder (section 16) on hand-built sequences: a second NAK 0x60 for the same ePSN
 * with nothing accepted in between breaks MR-LEG-003, a new NAK after an in-order acceptance (or for another PSN, or
 * after a reset) does not; an acknowledgement covering a PSN never sent is MR-LEG-002's finding.
 */
class LegacyAnswersTest {
    private static final Basis B = Basis.configured("the test's sequence");
    private static final int ACK = 0x00;
    private static final int NAK_SEQ = 0x60;

    @Test
    void aSecondNak60ForTheSameEpsnWithNothingAcceptedBreaksMrLeg003() {
        final LegacyAnswers a = new LegacyAnswers();
        assertThat(a.onAcknowledge(ACK, 4, 10, B)).isNull();          // up to 4: ePSN 5
        assertThat(a.onAcknowledge(NAK_SEQ, 5, 11, B)).isNull();      // 7 arrived: the first NAK for the hole at 5
        assertThat(a.onAcknowledge(ACK, 4, 12, B)).as("a duplicate's ACK moves nothing").isNull();
        final LegacyAnswers.RepeatedNak again = a.onAcknowledge(NAK_SEQ, 5, 13, B);
        assertThat(again).isNotNull();
        assertThat(again.firstFrame()).isEqualTo(11);
        assertThat(again.finding().rule()).isEqualTo("MR-LEG-003");
        assertThat(again.finding().field()).isEqualTo("aeth.syndrome");
        assertThat(again.finding().expected()).isEqualTo("no second NAK 0x60 for ePSN 5");
        assertThat(again.finding().actual()).isEqualTo("0x60");
        assertThat(again.finding().frame()).isEqualTo(13);
    }

    @Test
    void aNak60AfterAnInOrderAcceptanceOrAResetIsQuiet() {
        final LegacyAnswers a = new LegacyAnswers();
        assertThat(a.onAcknowledge(NAK_SEQ, 5, 11, B)).isNull();
        assertThat(a.onAcknowledge(ACK, 5, 12, B)).as("5 accepted: ePSN 6").isNull();
        assertThat(a.onAcknowledge(NAK_SEQ, 6, 13, B)).as("the next hole").isNull();
        // the same PSN again once the point moved on and came back is no repeat of this rule (a reset)
        a.restart();
        assertThat(a.onAcknowledge(NAK_SEQ, 6, 14, B)).as("a new incarnation").isNull();
    }

    @Test
    void aCallerFollowingItsOwnCumulativePointGetsTheSameJudgement() {
        final LegacyAnswers a = new LegacyAnswers();
        assertThat(a.onNak60(5, 5, 11, B)).isNull();
        assertThat(a.onNak60(5, 5, 13, B)).isNotNull();
        final LegacyAnswers b = new LegacyAnswers();
        assertThat(b.onNak60(5, 5, 11, B)).isNull();
        assertThat(b.onNak60(5, 9, 13, B)).as("the point moved (9 after 5 is a move back, another rule's)").isNull();
    }

    @Test
    void anAcknowledgementCoveringAPsnNeverSentIsMrLeg002() {
        final Finding f = LegacyAnswers.coversUnsent("7", 20, B);
        assertThat(f.rule()).isEqualTo("MR-LEG-002");
        assertThat(f.field()).isEqualTo("bth.psn");
        assertThat(f.expected()).isEqualTo("only PSNs sent");
        assertThat(f.actual()).isEqualTo("covers 7");
        assertThat(f.frame()).isEqualTo(20);
    }
}

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

    /** Requests 0..6 sent, 7 only with a bad ICRC, nothing after. */
    private static final SentPsns.View SENT_0_TO_6 = psn -> psn <= 6 ? SentPsns.Sent.SENT_OR_UNKNOWN
        : psn == 7 ? SentPsns.Sent.BAD_ICRC_ONLY : SentPsns.Sent.NEVER_SENT;

    @Test
    void anAckOrNak60CoveringOnlyPsnsSentIsQuiet() {
        final LegacyAnswers a = new LegacyAnswers();
        assertThat(a.onCoverage(ACK, 3, 0, SENT_0_TO_6, 10, B)).as("up to 3").isNull();
        assertThat(a.onCoverage(NAK_SEQ, 5, 0, SENT_0_TO_6, 11, B)).as("ePSN 5: up to 4").isNull();
        assertThat(a.onCoverage(ACK, 6, 0, SENT_0_TO_6, 12, B)).as("up to 6").isNull();
        assertThat(a.onCoverage(0x20, 40, 0, SENT_0_TO_6, 13, B)).as("an RNR NAK covers nothing").isNull();
        assertThat(a.onCoverage(0x61, 40, 0, SENT_0_TO_6, 14, B)).as("a fatal NAK covers nothing").isNull();
        assertThat(a.onCoverage(ACK, 7, 0, SENT_0_TO_6, 15, B))
            .as("7 seen only with a bad ICRC: MR-WIRE-015's, not this rule's").isNull();
    }

    @Test
    void anAckBeyondThePsnsSentIsMrLeg002AtTheFirstOne() {
        final LegacyAnswers a = new LegacyAnswers();
        assertThat(a.onCoverage(ACK, 4, 0, SENT_0_TO_6, 10, B)).isNull();
        final Finding f = a.onCoverage(ACK, 9, 0, SENT_0_TO_6, 11, B);
        assertThat(f).isNotNull();
        assertThat(f.rule()).isEqualTo("MR-LEG-002");
        assertThat(f.field()).isEqualTo("bth.psn");
        assertThat(f.actual()).isEqualTo("covers 8");
        assertThat(f.frame()).isEqualTo(11);
        assertThat(a.onCoverage(ACK, 9, 0, SENT_0_TO_6, 12, B)).as("each PSN judged once").isNull();
        final LegacyAnswers b = new LegacyAnswers();
        assertThat(b.onCoverage(NAK_SEQ, 9, 0, SENT_0_TO_6, 13, B)).as("a NAK 0x60 for ePSN 9 covers 8")
            .isNotNull();
        b.restart();
        assertThat(b.onCoverage(ACK, 2, 0, SENT_0_TO_6, 14, B)).as("after a reset, from the new first PSN").isNull();
        assertThat(b.onCoverage(ACK, 10, 9, SENT_0_TO_6, 15, B)).as("first PSN 9 after a reset: 9 and 10")
            .isNotNull();
    }

    @Test
    void anAckReachingOnlyBeyondEveryRequestSentIsLeftToMrLeg005() {
        final SentPsns.View upTo6 = new SentPsns.View() {
            @Override
            public SentPsns.Sent of(final int psn) {
                return psn <= 6 && psn != 3 ? SentPsns.Sent.SENT_OR_UNKNOWN : SentPsns.Sent.NEVER_SENT;
            }

            @Override
            public boolean noneFrom(final int psn) {
                return psn > 6;
            }
        };
        final LegacyAnswers a = new LegacyAnswers();
        assertThat(a.onCoverage(ACK, 2, 0, upTo6, 10, B)).isNull();
        assertThat(a.onCoverage(ACK, 4, 0, upTo6, 11, B)).as("3 is a hole with 4 taken after it").isNotNull();
        final LegacyAnswers c = new LegacyAnswers();
        assertThat(c.onCoverage(ACK, 6, 4, upTo6, 12, B)).as("4..6 sent").isNull();
        assertThat(c.onCoverage(ACK, 8, 4, upTo6, 13, B)).as("7 and 8 beyond every request: a wrong bth.psn")
            .isNull();
    }
}

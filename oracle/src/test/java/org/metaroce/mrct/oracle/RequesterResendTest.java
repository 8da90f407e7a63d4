package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MR-RTX-001: a retransmission of a PSN known delivered, after the reaction time, and the ones that are allowed. */
class RequesterResendTest {
    private static final Basis ANSWER = Basis.inferred("frame 3, an ACK");

    @Test
    void aDeliveredPsnSentAgainAfterTheReactionTimeIsFound() {
        assertThat(RequesterResend.check("7", 1_000, 3_001, 2_000, 9, ANSWER))
            .isEqualTo(new Finding("MR-RTX-001", "bth.psn", "a PSN not delivered", "7 (delivered 2001 ns before)", 9,
                ANSWER));
    }

    @Test
    void withinTheReactionTimeItMayHaveBeenOnItsWay() {
        assertThat(RequesterResend.check("7", 1_000, 3_000, 2_000, 9, ANSWER)).isNull();
    }

    @Test
    void aPsnNotDeliveredMayBeSentAgain() {
        assertThat(RequesterResend.check("7", RequesterResend.NOT_DELIVERED, Long.MAX_VALUE, 0, 9, ANSWER)).isNull();
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Section 13.3 on a hand-played stream: PSNs 0-5 sent at 0-500 ns, reorder_threshold 3, reorder_time_ns 10 us, the
 * observer's tolerance 0; each test delivers some and asks what is lost and what was owed before a new PSN.
 */
class RequesterLossTest {
    private static final Basis LIVE = Basis.configured("test");

    private static RequesterLoss sent() {
        final RequesterLoss loss = new RequesterLoss(3, 10_000);
        for (int q = 0; q < 6; q++) {
            loss.sent(q, q * 100L);
        }
        return loss;
    }

    @Test
    void threeLaterDeliveriesMakeALossEventThatIsOwedBeforeANewPsn() {
        final RequesterLoss loss = sent();
        loss.deliver(1, 0, 2_000);
        loss.deliver(2, 0, 2_100);
        loss.deliver(3, 0, 2_200);
        assertThat(loss.thresholdEventTime(0, 6)).isEqualTo(2_200);
        assertThat(loss.inferredLost(0, 6, 2_200, 0)).isTrue();
        final RequesterLoss.Pending pending = loss.pending(0, 6, 2_300, 0);
        assertThat(pending).isEqualTo(new RequesterLoss.Pending(0, "MR-RTX-003"));
        assertThat(pending.finding(9, LIVE)).isEqualTo(new Finding("MR-RTX-003", "bth.psn",
            "retransmission of 0 first", "a first transmission", 9, LIVE));
    }

    @Test
    void reorderingWithinBothBoundsInfersNothing() {
        final RequesterLoss loss = sent();
        loss.deliver(1, 0, 2_000);
        loss.deliver(2, 0, 2_100);
        assertThat(loss.inferredLost(0, 6, 11_999, 0)).isFalse();
        assertThat(loss.pending(0, 6, 11_999, 0)).isNull();
    }

    @Test
    void reorderTimeAfterALaterDeliveryMakesALossEvent() {
        final RequesterLoss loss = sent();
        loss.deliver(1, 0, 2_000);
        assertThat(loss.inferredLost(0, 6, 12_000, 0)).isTrue();
        assertThat(loss.pending(0, 6, 12_001, 0)).isEqualTo(new RequesterLoss.Pending(0, "MR-RTX-004"));
    }

    @Test
    void afterARetransmissionOnlyDeliveriesOfLaterTransmissionsCount() {
        final RequesterLoss loss = sent();
        loss.deliver(1, 0, 2_000);
        loss.deliver(2, 0, 2_100);
        loss.deliver(3, 0, 2_200);
        loss.resent(0, 2_300);
        assertThat(loss.transmissions(0)).isEqualTo(2);
        assertThat(loss.inferredLost(0, 6, 50_000, 0)).as("MR-RTX-005: no fresh evidence").isFalse();
        assertThat(loss.pending(0, 6, 50_000, 0)).isNull();
        loss.deliver(4, 0, 3_000); // sent at 400 ns, before the retransmission: it does not count
        assertThat(loss.deliveredAfter(0, 6)).isZero();
    }

    @Test
    void aDeliveredPsnSentAgainKeepsItsDeliveryTime() {
        final RequesterLoss loss = sent();
        loss.deliver(5, 0, 2_000);
        loss.resent(5, 3_000);
        assertThat(loss.delivered(5)).isTrue();
        assertThat(loss.deliveredAt(5)).isEqualTo(2_000);
        assertThat(loss.transmissions(5)).isEqualTo(2);
        assertThat(loss.laterDeliveredAt(4)).isEqualTo(2_000);
    }

    /** PSNs 0 to {@code n} - 1 sent 10 ns apart, reorder_time_ns 1 ms, PSN 1 delivered at 100 ns. */
    private static RequesterLoss sentWithPsn1Delivered(final int threshold, final int n) {
        final RequesterLoss l = new RequesterLoss(threshold, 1_000_000);
        for (int p = 0; p < n; p++) {
            l.sent(p, p * 10L);
        }
        l.deliver(1, 0, 100);
        return l;
    }

    @Test
    void aSecondResendFromDeliveriesThatPrecededTheFirstReusesOldEvidence() {
        final RequesterLoss l = sentWithPsn1Delivered(2, 4);
        l.deliver(2, 0, 110);
        assertThat(l.inferredLost(0, 4, 110, 0)).isTrue();
        l.resent(0, 120);
        assertThat(l.inferredLost(0, 4, 130, 0)).as("only deliveries of packets sent after the resend count").isFalse();
        assertThat(l.lostByOldEvidence(0, 4, 130, 0)).as("the deliveries the first resend answered").isTrue();
        assertThat(l.lostByOldEvidence(3, 4, 130, 0)).as("never resent: no old evidence").isFalse();
    }

    @Test
    void tooFewLaterDeliveriesAreNoOldEvidence() {
        final RequesterLoss l = sentWithPsn1Delivered(3, 3);
        l.resent(0, 120);
        assertThat(l.lostByOldEvidence(0, 3, 130, 0)).isFalse();
        assertThat(l.lostByOldEvidence(0, 3, 100 + 1_000_000, 0)).as("the time condition from that delivery")
            .isTrue();
    }

    @Test
    void countsAndFindsTheUndeliveredPsnsOfASpan() {
        final RequesterLoss loss = new RequesterLoss(3, 10_000);
        for (int psn = 0; psn < 6; psn++) {
            loss.sent(psn, psn);
        }
        loss.deliver(0, 0, 10);
        loss.deliver(1, 0, 11);
        loss.deliver(3, 2, 12);
        assertThat(loss.undelivered(0, 6)).isEqualTo(3);
        assertThat(loss.undelivered(0, 2)).as("all delivered").isZero();
        assertThat(loss.firstUndelivered(0, 5)).isEqualTo(2);
        assertThat(loss.firstUndelivered(0, 1)).as("every PSN before the last delivered").isEqualTo(1);
        assertThat(loss.firstUndelivered(3, 5)).isEqualTo(4);
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Go-back-N of a TVer 0 requester (section 16: MR-LEG-008 after NAK 0x60, MR-LEG-009 on a timeout) on hand-built
 * sequences of NAKs and requests: each way to break a rule fires, and the recovery the rule asks for keeps quiet.
 */
class RequesterGoBackTest {
    private static final Basis B = Basis.configured("the test's sequence");
    private static final long RTO = 100_000;

    /** PSNs 0 to {@code next - 1} sent, those in {@code delivered} delivered. */
    private static final class Sent implements RequesterGoBack.Psns {
        final int next;
        final Set<Integer> delivered = new HashSet<>();

        Sent(final int next, final int... delivered) {
            this.next = next;
            for (final int d : delivered) {
                this.delivered.add(d);
            }
        }

        @Override
        public boolean owed(final int psn) {
            return psn >= 0 && psn < next && !delivered.contains(psn);
        }
    }

    private static RequesterGoBack.Violation resend(final RequesterGoBack g, final int psn, final long time,
                                                    final RequesterGoBack.Una una, final Sent sent) {
        return g.onRetransmission(psn, time, una, RTO, sent, 100 + psn, B);
    }

    // ---------------------------------------------------------------------------------------------- MR-LEG-008

    @Test
    void goingBackFromTheNaksPsnInOrderBeforeAnythingNewIsQuiet() {
        final RequesterGoBack g = new RequesterGoBack();
        final Sent sent = new Sent(5, 0, 1);
        g.onNak(2, 5, 1_000, 7);
        assertThat(g.recovering()).isTrue();
        final RequesterGoBack.Una una = new RequesterGoBack.Una(2, 2, 1_000);
        assertThat(resend(g, 2, 1_100, una, sent)).isNull();
        assertThat(resend(g, 3, 1_200, una, sent)).isNull();
        assertThat(resend(g, 4, 1_300, una, sent)).isNull();
        assertThat(g.recovering()).isFalse();
        assertThat(g.onFirstTransmission(5, 1_400, 0, sent, 105, B)).isNull();
    }

    @Test
    void aNewPsnBeforeTheGoBackBreaksMrLeg008() {
        final RequesterGoBack g = new RequesterGoBack();
        final Sent sent = new Sent(5, 0, 1);
        g.onNak(2, 5, 1_000, 7);
        final RequesterGoBack.Violation v = g.onFirstTransmission(5, 2_000, 0, sent, 105, B);
        assertThat(v).isNotNull();
        assertThat(v.kind()).isEqualTo(RequesterGoBack.Kind.NEW_BEFORE_RESENT);
        assertThat(v.finding().rule()).isEqualTo("MR-LEG-008");
        assertThat(v.finding().field()).isEqualTo("bth.psn");
        assertThat(v.finding().frame()).isEqualTo(105);
        assertThat(v.owed()).isEqualTo(2);
        assertThat(v.nakPsn()).isEqualTo(2);
        assertThat(v.nakFrame()).isEqualTo(7);
        assertThat(v.nakUpTo()).isEqualTo(5);
    }

    @Test
    void aNewPsnWithinTheSlackOfTheNakMayHaveLeftBeforeTheNakWasTaken() {
        final RequesterGoBack g = new RequesterGoBack();
        final Sent sent = new Sent(5, 0, 1);
        g.onNak(2, 5, 1_000, 7);
        assertThat(g.onFirstTransmission(5, 1_500, 500, sent, 105, B)).isNull();
        // the go-back is still owed
        assertThat(g.recovering()).isTrue();
        assertThat(g.onFirstTransmission(6, 1_501, 500, new Sent(6, 0, 1), 106, B)).isNotNull();
    }

    @Test
    void aNewPsnThatCrossedTheNakIsPartOfTheGoBack() {
        // PSN 5 left before the requester took the NAK (seen within the slack after it): the NAK asks for it again
        // too, and its resend continues the go-back instead of starting a timeout's round away from una (the false
        // MR-LEG-009 of a UDP run, "PSN 8 is sent again with no NAK 0x60 asking for it")
        final RequesterGoBack g = new RequesterGoBack();
        final Sent sent = new Sent(6, 0, 1);
        g.onNak(2, 5, 1_000, 7);
        assertThat(g.onFirstTransmission(5, 1_200, 500, sent, 105, B)).isNull();
        final RequesterGoBack.Una una = new RequesterGoBack.Una(2, 2, 1_000);
        for (int psn = 2; psn <= 5; psn++) {
            assertThat(resend(g, psn, 1_300 + psn, una, sent)).as("resend of " + psn).isNull();
        }
        assertThat(g.recovering()).isFalse();
        assertThat(g.onFirstTransmission(6, 2_000, 500, new Sent(7, 0, 1), 106, B)).isNull();
    }

    @Test
    void aNewPsnStampedBeforeTheNakIsPartOfTheGoBackAndOwedByIt() {
        // a request the caller learns of after the NAK although it was sent before (an earlier timestamp)
        final RequesterGoBack g = new RequesterGoBack();
        g.onNak(2, 5, 1_000, 7);
        assertThat(g.onFirstTransmission(5, 900, 0, new Sent(6, 0, 1), 105, B)).isNull();
        final RequesterGoBack.Una una = new RequesterGoBack.Una(2, 2, 1_000);
        for (int psn = 2; psn <= 4; psn++) {
            assertThat(resend(g, psn, 1_300 + psn, una, new Sent(6, 0, 1))).isNull();
        }
        // PSN 5 is owed again before anything new
        final RequesterGoBack.Violation v = g.onFirstTransmission(6, 2_000, 0, new Sent(6, 0, 1), 106, B);
        assertThat(v).isNotNull();
        assertThat(v.kind()).isEqualTo(RequesterGoBack.Kind.NEW_BEFORE_RESENT);
        assertThat(v.owed()).isEqualTo(5);
        assertThat(v.nakUpTo()).isEqualTo(6);
        assertThat(v.nakFrame()).isEqualTo(7);
    }

    @Test
    void skippingAPsnTheNakAskedForBreaksMrLeg008AndADeliveredOneIsNotOwed() {
        final RequesterGoBack g = new RequesterGoBack();
        g.onNak(2, 5, 1_000, 7);
        final RequesterGoBack.Violation v = resend(g, 3, 1_100, new RequesterGoBack.Una(2, 2, 1_000),
            new Sent(5, 0, 1));
        assertThat(v).isNotNull();
        assertThat(v.kind()).isEqualTo(RequesterGoBack.Kind.SKIPPED_AFTER_NAK);
        assertThat(v.finding().rule()).isEqualTo("MR-LEG-008");
        assertThat(v.finding().expected()).isEqualTo("2");
        assertThat(v.finding().actual()).isEqualTo("3");
        // PSN 2 delivered meanwhile (a read response, say): the go-back may start at 3
        final RequesterGoBack h = new RequesterGoBack();
        h.onNak(2, 5, 1_000, 7);
        assertThat(resend(h, 3, 1_100, new RequesterGoBack.Una(3, 3, 1_000), new Sent(5, 0, 1, 2))).isNull();
    }

    @Test
    void aRestartForgetsTheNak() {
        final RequesterGoBack g = new RequesterGoBack();
        g.onNak(2, 5, 1_000, 7);
        g.restart();
        assertThat(g.recovering()).isFalse();
        assertThat(g.onFirstTransmission(5, 2_000, 0, new Sent(5, 0, 1), 105, B)).isNull();
    }

    // ---------------------------------------------------------------------------------------------- MR-LEG-009

    @Test
    void aTimeoutResendingEveryInFlightPsnFromUnaInOrderIsQuiet() {
        final RequesterGoBack g = new RequesterGoBack();
        final Sent sent = new Sent(4, 0);
        final RequesterGoBack.Una una = new RequesterGoBack.Una(1, 1, 10_000);
        assertThat(resend(g, 1, 10_000 + RTO, una, sent)).isNull();
        assertThat(resend(g, 2, 10_100 + RTO, una, sent)).isNull();
        assertThat(resend(g, 3, 10_200 + RTO, una, sent)).isNull();
    }

    @Test
    void aTimeoutSkippingAnInFlightPsnBreaksMrLeg009() {
        final RequesterGoBack g = new RequesterGoBack();
        final Sent sent = new Sent(4, 0);
        final RequesterGoBack.Una una = new RequesterGoBack.Una(1, 1, 10_000);
        assertThat(resend(g, 1, 10_000 + RTO, una, sent)).isNull();
        final RequesterGoBack.Violation v = resend(g, 3, 10_100 + RTO, una, sent);
        assertThat(v).isNotNull();
        assertThat(v.kind()).isEqualTo(RequesterGoBack.Kind.SKIPPED_IN_ROUND);
        assertThat(v.finding().rule()).isEqualTo("MR-LEG-009");
        assertThat(v.owed()).isEqualTo(2);
        // a PSN delivered between (its ACK crossed the round) is not owed
        final RequesterGoBack h = new RequesterGoBack();
        final Sent two = new Sent(4, 0, 2);
        assertThat(resend(h, 1, 10_000 + RTO, una, two)).isNull();
        assertThat(resend(h, 3, 10_100 + RTO, una, two)).isNull();
    }

    @Test
    void aTimeoutNotStartingAtUnaBreaksMrLeg009UnlessUnaMovedOverItJustBefore() {
        final RequesterGoBack g = new RequesterGoBack();
        final RequesterGoBack.Violation v = resend(g, 2, 10_000 + RTO, new RequesterGoBack.Una(1, 1, 10_000),
            new Sent(4, 0));
        assertThat(v).isNotNull();
        assertThat(v.kind()).isEqualTo(RequesterGoBack.Kind.NOT_FROM_UNA);
        assertThat(v.finding().expected()).isEqualTo("una = 1");
        assertThat(v.finding().actual()).isEqualTo("2");
        // una moved from 1 to 3 within the observer's reaction time: PSNs 1 to 3 may each be the requester's una
        final RequesterGoBack h = new RequesterGoBack();
        assertThat(resend(h, 2, 10_000 + RTO, new RequesterGoBack.Una(3, 1, 10_000), new Sent(4, 0))).isNull();
    }

    @Test
    void theEndOfAnRnrWaitIsNoTimeout() {
        final RequesterGoBack g = new RequesterGoBack();
        g.onRnrNak(2);
        assertThat(resend(g, 2, 10_050, new RequesterGoBack.Una(1, 1, 10_000), new Sent(4, 0))).isNull();
        // once: the next round is a timeout's again
        final RequesterGoBack.Violation v = resend(g, 2, 10_000 + 3 * RTO, new RequesterGoBack.Una(1, 1, 10_000),
            new Sent(4, 0));
        assertThat(v).isNotNull();
        assertThat(v.kind()).isEqualTo(RequesterGoBack.Kind.NOT_FROM_UNA);
    }

    @Test
    void aTimeoutSoonerThanRtoLowNsBreaksMrLeg009AndSoDoesANextRoundTooSoon() {
        final RequesterGoBack g = new RequesterGoBack();
        final Sent sent = new Sent(2, 0);
        final RequesterGoBack.Una una = new RequesterGoBack.Una(1, 1, 10_000);
        final RequesterGoBack.Violation v = resend(g, 1, 10_000 + RTO - 1, una, sent);
        assertThat(v).isNotNull();
        assertThat(v.kind()).isEqualTo(RequesterGoBack.Kind.EARLY);
        assertThat(v.finding().rule()).isEqualTo("MR-LEG-009");
        assertThat(v.waitedNs()).isEqualTo(RTO - 1);
        assertThat(v.rtoNs()).isEqualTo(RTO);
        // the round restarted the timer: the next round is due RTO after it, not after the timer's first start
        final RequesterGoBack h = new RequesterGoBack();
        assertThat(resend(h, 1, 10_000 + RTO, una, sent)).isNull();
        assertThat(resend(h, 1, 10_000 + 2 * RTO - 1, una, sent)).isNotNull()
            .extracting(RequesterGoBack.Violation::kind).isEqualTo(RequesterGoBack.Kind.EARLY);
        assertThat(resend(h, 1, 10_000 + 3 * RTO, una, sent)).isNull();
        // a timer whose start is unknown cannot make a round early
        assertThat(resend(new RequesterGoBack(), 1, 10, new RequesterGoBack.Una(1, 1, Long.MIN_VALUE), sent)).isNull();
    }
}

package org.metaroce.mrct.reference.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The lag a real-time device's actions inherit from their cause (issue 10: an RNR resend whose NAK the device took
 * late and whose wait then ended late was reported as the larger of the two delays only, never their sum). Virtual
 * time never sets a lag.
 */
class SchedulerLagTest {
    @Test
    void anEventInheritsTheLagOfTheActionThatScheduledIt() {
        final Scheduler scheduler = new Scheduler();
        scheduler.context(900_000); // a NAK taken 0.9 ms after it was captured
        scheduler.at(10_000, () -> { }); // the RNR wait it begins
        scheduler.context(0);
        assertThat(scheduler.nextLag()).isEqualTo(900_000);
    }

    @Test
    void aFrameSentDropsTheLagOfWhatItsActionScheduled() {
        final Scheduler scheduler = new Scheduler();
        scheduler.context(700_000); // a retransmission timer that ran 0.7 ms late
        scheduler.at(32_000_000, () -> { }); // the next timer, started with the resend (before it is emitted)
        scheduler.transmitted(); // the resend: the other end times the next expiry from it
        scheduler.at(64_000_000, () -> { });
        assertThat(scheduler.nextLag()).isZero();
        scheduler.runNext(32_000_000);
        assertThat(scheduler.nextLag()).isZero();
        assertThat(scheduler.lag()).isZero();
    }

    @Test
    void virtualTimeHasNoLag() {
        final Scheduler scheduler = new Scheduler();
        scheduler.at(5, () -> scheduler.at(10, () -> { }));
        scheduler.runNext(5);
        assertThat(scheduler.nextLag()).isZero();
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Table 13-1 on a QP with rto_low 100 us, rto_high 300 us, n_low 2, retry_cnt 2; the observer's tolerance 0. */
class RequesterTimerTest {
    private static RequesterTimer timer() {
        return new RequesterTimer(100_000, 300_000, 2, 2);
    }

    @Test
    void theTimeoutDependsOnThePsnsInFlightAtTheStart() {
        final RequesterTimer t = timer();
        assertThat(t.running()).isFalse();
        t.start(1_000, 2);
        assertThat(t.duration()).isEqualTo(100_000);
        assertThat(t.lateRule()).isEqualTo("MR-RTX-007");
        t.start(1_000, 3);
        assertThat(t.duration()).isEqualTo(300_000);
        assertThat(t.lateRule()).isEqualTo("MR-RTX-009");
    }

    @Test
    void theResendMayLeaveWithinTheTimerWindowAndNoLater() {
        final RequesterTimer t = timer();
        t.start(0, 1);
        assertThat(t.expired(99_999, 0)).isFalse();
        assertThat(t.expired(100_000, 0)).isTrue();
        assertThat(t.latest(0)).as("T + T/10 + 2000 ns").isEqualTo(112_000);
        assertThat(t.latest(500)).isEqualTo(112_500);
    }

    @Test
    void aPsnThatCrossedTheRestartingAckLetsTheDeviceUseRtoHighAndNothingElseDoes() {
        final RequesterTimer t = timer();
        t.start(0, 2); // the judge counted n_low PSNs: rto_low_ns
        t.mayHaveCounted(2); // still n_low: nothing changes
        assertThat(t.latest(0)).as("rto_low_ns's window").isEqualTo(112_000);
        t.mayHaveCounted(3); // the device may have counted one more: rto_high_ns is lawful too
        assertThat(t.latest(0)).as("rto_high_ns's window").isEqualTo(332_000);
        assertThat(t.expired(100_000, 0)).as("a resend at rto_low_ns stays lawful").isTrue();
        assertThat(t.lateRule()).isEqualTo("MR-RTX-007");
        t.start(400_000, 1); // a restart forgets the doubt
        assertThat(t.latest(0)).isEqualTo(512_000);
        t.stop();
        t.mayHaveCounted(5);
        assertThat(t.running()).isFalse();
    }

    @Test
    void unaResentBeforeRtoHighButAfterRtoLowNamesMrRtx007AndBeforeItMrRtx002() {
        final RequesterTimer t = timer();
        t.start(0, 5);
        assertThat(t.earlyRule(150_000, 0)).isEqualTo("MR-RTX-007");
        assertThat(t.earlyRule(50_000, 0)).isEqualTo("MR-RTX-002");
        t.stop();
        assertThat(t.earlyRule(150_000, 0)).isEqualTo("MR-RTX-002");
    }

    @Test
    void retryCntRetriesExhaustTheCounterAndProgressResetsIt() {
        final RequesterTimer t = timer();
        t.retry();
        assertThat(t.exhausted()).isFalse();
        t.retry();
        assertThat(t.exhausted()).isTrue();
        t.progress();
        assertThat(t.retries()).isZero();
        assertThat(t.exhausted()).isFalse();
    }

    @Test
    void theProbeRunsOnRtoLowAndMayNotComeEarlier() {
        final RequesterTimer t = timer();
        t.startProbe(10_000);
        assertThat(t.duration()).isEqualTo(100_000);
        assertThat(t.probeEarly(109_999, 0)).isTrue();
        assertThat(t.probeEarly(110_000, 0)).isFalse();
        t.stop();
        assertThat(t.probeEarly(0, 0)).isFalse();
    }

    @Test
    void unaResentAtTheExpiryOfTheTimerProgressShouldHaveRestartedBlamesTheRestart() {
        final RequesterTimer t = timer();
        t.start(0, 2);
        t.progressed(60_000, 1); // progress at 60 us restarts the timer: expiry at 160 us
        assertThat(t.earlyRule(100_000, 0)).as("at the old timer's expiry: not restarted on progress")
            .isEqualTo("MR-RTX-008");
        assertThat(t.earlyRule(99_999, 0)).as("before either timer could expire: no cause").isEqualTo("MR-RTX-002");
        t.progressed(200_000, 1); // a second progress keeps the start of the timer never restarted
        assertThat(t.earlyRule(150_000, 0)).as("the timer from 0, never restarted, expired at 100 us")
            .isEqualTo("MR-RTX-008");
        t.start(300_000, 1); // a start (at an expiry's resend) forgets it
        assertThat(t.earlyRule(350_000, 0)).isEqualTo("MR-RTX-002");
    }

    @Test
    void aTimerRestartedOnlyFromIdleIsNeverTakenForOneNotRestarted() {
        final RequesterTimer t = timer();
        t.stop();
        t.progressed(10_000, 1); // progress with the timer stopped: a start like any other
        assertThat(t.earlyRule(50_000, 0)).isEqualTo("MR-RTX-002");
        t.startProbe(70_000);
        assertThat(t.earlyRule(100_000, 0)).isEqualTo("MR-RTX-002");
    }

    @Test
    void anotherPsnResentRightAfterUnaAtAnExpiryBlamesTheExpiryUntilAnAnswerOrANewPsn() {
        final RequesterTimer t = timer();
        t.start(0, 3);
        assertThat(t.otherResendRule()).isEqualTo("MR-RTX-002");
        t.resentAtExpiry();
        assertThat(t.otherResendRule()).as("an expiry resends una and only una").isEqualTo("MR-RTX-009");
        t.settled();
        assertThat(t.otherResendRule()).isEqualTo("MR-RTX-002");
    }
}

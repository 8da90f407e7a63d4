package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The notification point's rules (Table 14-1), each made to fire and kept quiet on hand-built event sequences. */
class NotificationPointTest {
    /** cnp_interval_ns 50 us, cnp_delay_max_ns 10 us, virtual time. */
    private static NotificationPoint scope() {
        return new NotificationPoint(50_000, 10_000, 0);
    }

    @Test
    void anIndicationInAnIdleScopeOwesOneCnpWithinTheDelay() {
        final NotificationPoint answered = scope();
        answered.onCongestionIndication(1_000, 1, false);
        assertThat(answered.onCnpSent(5_000, 2)).isEmpty();
        assertThat(answered.overdue(1_000_000)).isEmpty();

        final NotificationPoint silent = scope();
        silent.onCongestionIndication(1_000, 7, false);
        assertThat(silent.overdue(10_999)).isEmpty();
        assertThat(silent.overdue(11_000)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("MR-CC-003");
            assertThat(f.field()).isEqualTo("cnp");
            assertThat(f.frame()).isEqualTo(7);
            assertThat(f.actual()).isEqualTo("none");
        });
    }

    @Test
    void aReadResponseIndicationIsMrCc004() {
        final NotificationPoint s = scope();
        s.onCongestionIndication(0, 3, true);
        assertThat(s.overdue(20_000)).extracting(Finding::rule).containsExactly("MR-CC-004");
    }

    @Test
    void cnpsCloserThanTheIntervalBreakMrCc005() {
        final NotificationPoint s = scope();
        s.onCongestionIndication(0, 1, false);
        assertThat(s.onCnpSent(1_000, 2)).isEmpty();
        s.onCongestionIndication(60_000, 3, false);
        assertThat(s.onCnpSent(61_000, 4)).isEmpty();
        assertThat(s.onCnpSent(62_000, 5)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("MR-CC-005");
            assertThat(f.expected()).isEqualTo("at least 50000 ns");
            assertThat(f.actual()).isEqualTo("1000 ns");
        });
        assertThat(NotificationPoint.spacing(Long.MIN_VALUE, 5, 1, 50_000, 0, Basis.FRAME)).isNull();
        assertThat(NotificationPoint.spacing(0, 49_000, 1, 50_000, 1_000, Basis.FRAME)).isNull();
        assertThat(NotificationPoint.spacing(0, 48_999, 1, 50_000, 1_000, Basis.FRAME)).isNotNull();
    }

    @Test
    void anIndicationWhileHoldingOwesNothingAndMayCauseNone() {
        final NotificationPoint s = scope();
        s.onCongestionIndication(0, 1, false);
        assertThat(s.onCnpSent(1_000, 2)).isEmpty();
        s.onCongestionIndication(30_000, 3, false); // holding until 51 us
        assertThat(s.overdue(200_000)).isEmpty();
        assertThat(s.onCnpSent(60_000, 4)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("MR-CC-006");
            assertThat(f.frame()).isEqualTo(4);
        });
    }

    @Test
    void aCnpStillOwedKeepsTheScopeHolding() {
        // cnp_delay_max_ns longer than the interval: a second indication while the first CNP is owed owes nothing
        final NotificationPoint s = new NotificationPoint(1_000, 10_000, 0);
        s.onCongestionIndication(0, 1, false);
        s.onCongestionIndication(5_000, 2, false);
        assertThat(s.owed()).isEqualTo(1);
        assertThat(s.onCnpSent(8_000, 3)).isEmpty();
        assertThat(s.overdue(100_000)).isEmpty();
    }

    @Test
    void nearTheEndOfTheHoldingTimeACnpMayComeOrNotWithinTheTolerance() {
        final NotificationPoint s = new NotificationPoint(50_000, 10_000, 500);
        s.onCongestionIndication(0, 1, false);
        assertThat(s.onCnpSent(0, 2)).isEmpty();
        s.onCongestionIndication(50_200, 3, false); // within 500 ns of the end of the holding time: optional
        assertThat(s.overdue(1_000_000)).isEmpty();
        assertThat(s.onCnpSent(50_300, 4)).isEmpty();
        // without the tolerance the same CNP is owed, and its absence is caught
        final NotificationPoint exact = scope();
        exact.onCongestionIndication(0, 1, false);
        exact.onCnpSent(0, 2);
        exact.onCongestionIndication(50_200, 3, false);
        assertThat(exact.overdue(1_000_000)).extracting(Finding::rule).containsExactly("MR-CC-003");
    }

    @Test
    void onALiveLinkACnpReadLateMayAlreadyHaveFreedTheScope() {
        // a live observer (1 ms of tolerance) learns of the first CNP, sent at 10 us, only after it fed an indication
        // at 100 us: by then the device's scope was idle again and a second CNP may rightly follow
        final NotificationPoint live = new NotificationPoint(50_000, 10_000, 1_000_000);
        live.onCongestionIndication(0, 1, false);
        live.onCongestionIndication(100_000, 3, false);
        assertThat(live.onCnpSent(10_000, 2)).isEmpty();
        assertThat(live.onCnpSent(120_000, 4)).isEmpty();
        // a third CNP that nothing could have owed is still caught
        assertThat(live.onCnpSent(1_300_000, 5)).extracting(Finding::rule).containsExactly("MR-CC-006");

        // on virtual time every CNP sent by an indication's moment is known then, so while one is owed the scope holds
        final NotificationPoint exact = scope();
        exact.onCongestionIndication(0, 1, false);
        exact.onCongestionIndication(100_000, 3, false);
        assertThat(exact.onCnpSent(110_000, 2)).isEmpty();
        assertThat(exact.onCnpSent(170_000, 4)).extracting(Finding::rule).containsExactly("MR-CC-006");
    }

    @Test
    void anObserverAwayFromTheDeviceGivesItsCnpTheSlackBesides() {
        // a capture 3 us from the device: the CNP may leave up to cnp_delay_max_ns after the device saw the packet
        final NotificationPoint away = scope();
        away.onCongestionIndication(1_000, 7, false, 3_000);
        assertThat(away.overdue(13_999)).isEmpty();
        assertThat(away.overdue(14_000)).extracting(Finding::rule).containsExactly("MR-CC-003");
        final NotificationPoint answered = scope();
        answered.onCongestionIndication(1_000, 7, true, 3_000);
        assertThat(answered.onCnpSent(13_500, 8)).isEmpty();
        assertThat(answered.overdue(1_000_000)).isEmpty();
    }
}

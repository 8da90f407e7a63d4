package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * MR-RTX-012 to MR-RTX-015 on hand-placed RNR NAKs and requests: timer code 1 is a 10 us wait (Table D-2), whose
 * timer window ends 1000 + 2000 ns after it; no tolerance (virtual time).
 */
class RequesterRnrTest {
    private static final long US = 1_000;
    private static final long WAIT = 10 * US;
    private static final Basis LIVE = Basis.configured("the answers the harness sent");

    @Test
    void aRequestAtTheEndOfTheWaitIsQuietAndEndsIt() {
        final RequesterRnr rnr = new RequesterRnr(7);
        assertThat(rnr.onNak(0, 5, 1)).isEqualTo(RequesterRnr.Nak.STARTED);
        assertThat(rnr.overdue(WAIT + 3 * US, 0, 1, LIVE)).isNull();
        assertThat(rnr.request(WAIT + 2 * US, 0, 1, LIVE)).isNull();
        assertThat(rnr.held()).isFalse();
        assertThat(rnr.request(WAIT + 4 * US, 0, 2, LIVE)).isNull();
    }

    @Test
    void aRequestDuringTheWaitOrTooLateAfterItFiresMrRtx012() {
        final RequesterRnr during = new RequesterRnr(7);
        during.onNak(0, 5, 1);
        assertThat(during.request(5 * US, 0, 3, LIVE).rule()).isEqualTo("MR-RTX-012");
        final RequesterRnr late = new RequesterRnr(7);
        late.onNak(0, 5, 1);
        assertThat(late.overdue(WAIT + 3 * US + 1, 0, -1, LIVE).rule()).isEqualTo("MR-RTX-012");
        assertThat(late.request(WAIT + 5 * US, 0, 4, LIVE).rule()).isEqualTo("MR-RTX-012");
    }

    @Test
    void aNakDuringTheWaitLowersTheResumePsnButNeitherRestartsNorCounts() {
        final RequesterRnr rnr = new RequesterRnr(2);
        rnr.onNak(0, 5, 1);
        assertThat(rnr.onNak(5 * US, 3, 1)).isEqualTo(RequesterRnr.Nak.DURING);
        assertThat(rnr.resume()).isEqualTo(3);
        assertThat(rnr.request(WAIT, 0, 1, LIVE)).isNull();
        // the second RNR retry (rnr_retry 2) is allowed: the NAK during the wait did not count
        assertThat(rnr.onNak(20 * US, 3, 1)).isEqualTo(RequesterRnr.Nak.STARTED);
        assertThat(rnr.request(30 * US, 0, 2, LIVE)).isNull();
        assertThat(rnr.onNak(40 * US, 3, 1)).isEqualTo(RequesterRnr.Nak.EXHAUSTED);
    }

    @Test
    void aResumeWhereARestartedWaitWouldEndFiresMrRtx015() {
        final RequesterRnr rnr = new RequesterRnr(7);
        rnr.onNak(0, 5, 1);
        rnr.onNak(5 * US, 5, 1);
        assertThat(rnr.overdue(14 * US, 0, -1, LIVE).rule()).isEqualTo("MR-RTX-015");
        assertThat(rnr.request(15 * US, 0, 7, LIVE)).satisfies(f -> {
            assertThat(f.rule()).isEqualTo("MR-RTX-015");
            assertThat(f.actual()).isEqualTo("15000");
        });
    }

    @Test
    void aResumeBeforeTheEndWhereAShorterRestartedWaitEndsFiresMrRtx015() {
        final RequesterRnr rnr = new RequesterRnr(7);
        rnr.onNak(0, 5, 5); // 60 us
        rnr.onNak(20 * US, 1, 1); // 10 us: a device restarting the wait resumes at 30 us
        assertThat(rnr.request(25 * US, 0, 1, LIVE).rule()).isEqualTo("MR-RTX-012");
        assertThat(rnr.request(30 * US, 0, 2, LIVE).rule()).isEqualTo("MR-RTX-015");
    }

    @Test
    void silenceAfterAWaitThatACountingDeviceWouldHaveExhaustedFiresMrRtx015() {
        final RequesterRnr rnr = new RequesterRnr(2);
        rnr.onNak(0, 5, 1);
        rnr.onNak(2 * US, 5, 1); // during: restarted to 12 us, which is within the first wait's window
        assertThat(rnr.request(WAIT, 0, 1, LIVE)).isNull();
        rnr.onNak(20 * US, 5, 1); // retry 2 of 2: a device that counted the NAK during the wait gave up here
        assertThat(rnr.overdue(40 * US, 0, -1, LIVE).rule()).isEqualTo("MR-RTX-015");
        rnr.progress();
        rnr.onNak(50 * US, 5, 1);
        assertThat(rnr.overdue(70 * US, 0, -1, LIVE).rule()).isEqualTo("MR-RTX-012");
    }

    @Test
    void aRequestAfterTheRnrRetriesWereExhaustedFiresMrRtx014AndProgressResetsTheCount() {
        final RequesterRnr rnr = new RequesterRnr(1);
        rnr.onNak(0, 5, 1);
        rnr.request(WAIT, 0, 1, LIVE);
        rnr.progress();
        assertThat(rnr.onNak(20 * US, 6, 1)).isEqualTo(RequesterRnr.Nak.STARTED);
        rnr.request(30 * US, 0, 2, LIVE);
        assertThat(rnr.onNak(40 * US, 6, 1)).isEqualTo(RequesterRnr.Nak.EXHAUSTED);
        assertThat(rnr.exhausted()).isTrue();
        assertThat(rnr.overdue(80 * US, 0, -1, LIVE)).isNull();
        assertThat(rnr.request(50 * US, 0, 3, LIVE).rule()).isEqualTo("MR-RTX-014");
        // rnr_retry 7 and an unknown rnr_retry never exhaust
        for (final int unlimited : new int[] {7, RequesterRnr.UNKNOWN}) {
            final RequesterRnr forever = new RequesterRnr(unlimited);
            for (int i = 0; i < 20; i++) {
                assertThat(forever.onNak(i * 20 * US, 6, 1)).isEqualTo(RequesterRnr.Nak.STARTED);
                assertThat(forever.request(i * 20 * US + WAIT, 0, i, LIVE)).isNull();
            }
        }
    }

    @Test
    void resendsFromTheResumePsnGoInOneIncreasingOrderBeforeAnyNewPsn() {
        final RequesterRnr rnr = new RequesterRnr(7);
        rnr.onNak(0, 5, 1);
        rnr.onNak(US, 3, 1);
        rnr.request(WAIT, 0, 1, LIVE);
        final Set<Integer> owedBeforeAny = Set.of(3, 4, 5, 6);
        // PSN 5 first although 3 and 4 are owed: out of order (a device that kept the first NAK's resume PSN)
        assertThat(rnr.resend(2, 5, owedBeforeAny::contains, 1, LIVE)).satisfies(f -> {
            assertThat(f.rule()).isEqualTo("MR-RTX-013");
            assertThat(f.expected()).startsWith("retransmission of 3");
        });
        assertThat(rnr.resend(2, 3, owedBeforeAny::contains, 1, LIVE)).isNull();
        // a loss before the resume PSN may come first (it keeps its place)
        assertThat(rnr.resend(0, 1, owedBeforeAny::contains, 1, LIVE)).isNull();
        // a new PSN while 6 is owed; then nothing is owed and the order is behind
        assertThat(rnr.firstTransmission(2, 7, Set.of(6)::contains, 2, LIVE).rule()).isEqualTo("MR-RTX-013");
        assertThat(rnr.resumeDue()).isFalse();
        assertThat(rnr.firstTransmission(2, 8, Set.of(6)::contains, 3, LIVE)).isNull();
    }
}

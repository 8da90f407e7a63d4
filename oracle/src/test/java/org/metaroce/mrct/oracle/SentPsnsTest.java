package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one decision of which covered PSNs were never sent or seen only with a wrong ICRC, on hand-made records: a span
 * of sent PSNs is quiet, a gap or a PSN past the record is counted from its first, a bad-ICRC-only PSN is counted
 * apart, unknown PSNs are never findings, and the shortcut past the record counts the same as asking each PSN.
 */
class SentPsnsTest {
    /** 10..14 sent, 15 only with a bad ICRC, 16 never, 17..19 sent, nothing from 20 on; below 10 unknown. */
    private static final Map<Integer, SentPsns.Sent> KNOWN = Map.of(15, SentPsns.Sent.BAD_ICRC_ONLY,
        16, SentPsns.Sent.NEVER_SENT);

    private static SentPsns.Sent record(final int psn) {
        if (psn < 10) {
            return SentPsns.Sent.SENT_OR_UNKNOWN;
        }
        if (psn >= 20) {
            return SentPsns.Sent.NEVER_SENT;
        }
        return KNOWN.getOrDefault(psn, SentPsns.Sent.SENT_OR_UNKNOWN);
    }

    private static final SentPsns.View ASK_EACH = SentPsnsTest::record;

    private static final SentPsns.View SHORTCUT = new SentPsns.View() {
        @Override
        public SentPsns.Sent of(final int psn) {
            return record(psn);
        }

        @Override
        public boolean noneFrom(final int psn) {
            return psn >= 20;
        }
    };

    @Test
    void aSpanOfSentOrUnknownPsnsIsQuiet() {
        final SentPsns t = new SentPsns().span(ASK_EACH, 0, 15);
        assertThat(t.neverSent()).isZero();
        assertThat(t.badIcrc()).isZero();
        assertThat(new SentPsns().span(ASK_EACH, 17, 20).neverSent()).as("17..19").isZero();
        assertThat(new SentPsns().span(ASK_EACH, 30, 30).neverSent()).as("an empty span").isZero();
        assertThat(new SentPsns().span(ASK_EACH, 30, 25).neverSent()).as("a span going back").isZero();
    }

    @Test
    void aClearedTallyCountsAsANewOne() {
        final SentPsns t = new SentPsns().span(ASK_EACH, 12, 25);
        assertThat(t.neverSent()).as("before clearing").isEqualTo(6);
        t.clear().span(ASK_EACH, 14, 17);
        final SentPsns fresh = new SentPsns().span(ASK_EACH, 14, 17);
        assertThat(t.neverSent()).isEqualTo(fresh.neverSent()).isEqualTo(1);
        assertThat(t.firstNeverSent()).isEqualTo(fresh.firstNeverSent()).isEqualTo(16);
        assertThat(t.badIcrc()).isEqualTo(fresh.badIcrc()).isEqualTo(1);
        assertThat(t.firstBadIcrc()).isEqualTo(fresh.firstBadIcrc()).isEqualTo(15);
        t.clear().span(ASK_EACH, 0, 10);
        assertThat(t.neverSent()).as("a quiet span after a gap").isZero();
        assertThat(t.badIcrc()).isZero();
    }

    @Test
    void aGapAndAPsnSeenOnlyWithABadIcrcAreCountedApart() {
        final SentPsns t = new SentPsns().span(ASK_EACH, 12, 18);
        assertThat(t.neverSent()).isEqualTo(1);
        assertThat(t.firstNeverSent()).isEqualTo(16);
        assertThat(t.badIcrc()).isEqualTo(1);
        assertThat(t.firstBadIcrc()).isEqualTo(15);
    }

    @Test
    void pastTheRecordEveryPsnCountsAndTheShortcutAgrees() {
        final SentPsns each = new SentPsns().span(ASK_EACH, 17, 25);
        final SentPsns cut = new SentPsns().span(SHORTCUT, 17, 25);
        assertThat(each.neverSent()).isEqualTo(5);
        assertThat(each.firstNeverSent()).isEqualTo(20);
        assertThat(cut.neverSent()).isEqualTo(each.neverSent());
        assertThat(cut.firstNeverSent()).isEqualTo(each.firstNeverSent());
    }

    @Test
    void singlePsnsAddToTheSameTally() {
        final SentPsns t = new SentPsns().span(ASK_EACH, 10, 12);
        assertThat(t.one(ASK_EACH, 11)).isEqualTo(SentPsns.Sent.SENT_OR_UNKNOWN);
        assertThat(t.one(ASK_EACH, 21)).isEqualTo(SentPsns.Sent.NEVER_SENT);
        assertThat(t.one(ASK_EACH, 16)).isEqualTo(SentPsns.Sent.NEVER_SENT);
        assertThat(t.neverSent()).isEqualTo(2);
        assertThat(t.firstNeverSent()).as("the first counted, not the lowest").isEqualTo(21);
    }

    @Test
    void aSpanAcrossThePsnWrapIsCounted() {
        final SentPsns.View nothingSent = psn -> SentPsns.Sent.NEVER_SENT;
        final SentPsns t = new SentPsns().span(nothingSent, 0xFFFFFE, 2);
        assertThat(t.neverSent()).isEqualTo(4);
        assertThat(t.firstNeverSent()).isEqualTo(0xFFFFFE);
    }
}

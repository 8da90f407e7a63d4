package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MR-REQ-012 at the window's edge, for a packet and for a READ's span, across the PSN wrap. */
class RequesterWindowTest {
    private static final Basis WINDOW = Basis.configured("send_window 8");

    @Test
    void theLastPsnInsideTheWindowIsQuiet() {
        assertThat(RequesterWindow.check(100, 107, 107, false, 8, 1, WINDOW)).isNull();
        assertThat(RequesterWindow.check(0xFFFFFE, 5, 5, false, 8, 1, WINDOW)).as("across the wrap").isNull();
    }

    @Test
    void aPsnAtUnaPlusTheWindowIsFound() {
        assertThat(RequesterWindow.check(100, 108, 108, false, 8, 7, WINDOW))
            .isEqualTo(new Finding("MR-REQ-012", "bth.psn - una", "below 8", "8", 7, WINDOW));
        assertThat(RequesterWindow.check(0xFFFFFE, 6, 6, false, 8, 1, WINDOW)).as("across the wrap").isNotNull();
    }

    @Test
    void aReadIsJudgedByTheEndOfItsSpanUnlessItStartsAtUna() {
        assertThat(RequesterWindow.check(100, 104, 110, true, 8, 1, WINDOW)).isNotNull();
        assertThat(RequesterWindow.check(100, 100, 130, true, 8, 1, WINDOW)).isNull();
        assertThat(RequesterWindow.check(100, 100, 130, false, 8, 1, WINDOW)).as("not a READ").isNotNull();
    }

    @Test
    void unaAfterThePacketIsNothingToJudge() {
        assertThat(RequesterWindow.check(120, 110, 110, false, 8, 1, WINDOW)).isNull();
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MR-REQ-011: a run of first transmissions without AckReq is found when it reaches the interval, and only then. */
class RequesterAckReqTest {
    private static final Basis PROFILE = Basis.configured("ack_req_interval 4 from the profile");

    @Test
    void aRunReachingTheIntervalIsFoundOnce() {
        final RequesterAckReq model = new RequesterAckReq();
        Finding found = null;
        for (int i = 1; i <= 5; i++) {
            model.onFirstTransmission(false);
            final Finding f = model.reached(4, i, PROFILE);
            if (i == 4) {
                found = f;
            } else {
                assertThat(f).as("frame %d", i).isNull();
            }
        }
        assertThat(found).isEqualTo(new Finding("MR-REQ-011", "bth.ackreq",
            "1 at least once in 4 first transmissions", "0 in 4", 4, PROFILE));
    }

    @Test
    void anAckReqInsideTheIntervalKeepsItQuiet() {
        final RequesterAckReq model = new RequesterAckReq();
        for (int i = 1; i <= 40; i++) {
            assertThat(model.onFirstTransmission(i % 4 == 0)).isLessThan(4);
            assertThat(model.reached(4, i, PROFILE)).isNull();
        }
    }

    @Test
    void aBreakStartsANewRun() {
        final RequesterAckReq model = new RequesterAckReq();
        for (int i = 0; i < 3; i++) {
            model.onFirstTransmission(false);
        }
        model.breakRun();
        assertThat(model.run()).isZero();
        for (int i = 0; i < 3; i++) {
            model.onFirstTransmission(false);
            assertThat(model.reached(4, i, PROFILE)).isNull();
        }
        model.onFirstTransmission(false);
        assertThat(model.reached(4, 9, PROFILE)).isNotNull();
        assertThat(model.reached(6, 9, Basis.FRAME)).as("a second, lenient threshold is judged on its own").isNull();
    }
}

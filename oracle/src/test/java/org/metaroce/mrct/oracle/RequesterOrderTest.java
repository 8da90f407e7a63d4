package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MR-REQ-001 to MR-REQ-003 on hand-placed PSNs, the next PSN to send being 0xFFFFFF (the wrap is one PSN away). */
class RequesterOrderTest {
    private static final int NEXT = 0xFFFFFF;
    private static final Basis LIVE = Basis.configured("the work requests posted");

    @Test
    void aPsnIsPlacedAgainstTheNextAcrossTheWrap() {
        assertThat(RequesterOrder.place(NEXT, NEXT)).isEqualTo(RequesterOrder.Place.NEXT);
        assertThat(RequesterOrder.place(NEXT, 1)).isEqualTo(RequesterOrder.Place.AHEAD);
        assertThat(RequesterOrder.place(NEXT, 0xFFFFF0)).isEqualTo(RequesterOrder.Place.BEHIND);
    }

    @Test
    void theNextPsnIsQuiet() {
        assertThat(RequesterOrder.firstTransmission(NEXT, NEXT, true, 1, LIVE)).isNull();
        assertThat(RequesterOrder.firstTransmission(NEXT, NEXT, false, 1, LIVE)).isNull();
    }

    @Test
    void aSkipFiresMrReq003AndOnTheFirstRequestMrReq001() {
        assertThat(RequesterOrder.firstTransmission(NEXT, 0, false, 4, LIVE)).isEqualTo(new Finding("MR-REQ-003",
            "bth.psn", NEXT + " (the next PSN to send)", "0", 4, LIVE));
        assertThat(RequesterOrder.firstTransmission(NEXT, 0, true, 4, LIVE).rule()).isEqualTo("MR-REQ-001");
    }

    @Test
    void aPsnNoMessageCoversBreaksMrReq002() {
        assertThat(RequesterOrder.outsideMessages(9, "0..8", false, 4, LIVE)).isEqualTo(new Finding("MR-REQ-002",
            "bth.psn", "0..8", "9", 4, LIVE));
        assertThat(RequesterOrder.outsideMessages(-1, "0..8", true, 4, LIVE).rule()).isEqualTo("MR-REQ-001");
        assertThat(RequesterOrder.late(8, 6, 4, Basis.FRAME).rule()).isEqualTo("MR-REQ-003");
    }

    @Test
    void aHoleThatNeverFillsIsTheSameSkipAsTheLiveEngineJudgesAtOnce() {
        // spec v1.1 change 19: a skip is MR-REQ-003 whether the skipped PSNs come later or never
        final Finding hole = RequesterOrder.skipped(5, 7, 4, Basis.FRAME);
        assertThat(hole).isEqualTo(new Finding("MR-REQ-003", "bth.psn", "5 (the next PSN to send)", "7", 4,
            Basis.FRAME));
        assertThat(RequesterOrder.firstTransmission(5, 7, false, 4, Basis.FRAME)).isEqualTo(hole);
    }

    @Test
    void aMessageInsideAReadsSpanBreaksTheSpanRule() {
        final Basis basis = Basis.configured("test");
        final Finding f = RequesterOrder.insideReadSpan(11, 10, 13, false, false, 7, basis);
        assertThat(f.rule()).isEqualTo("MR-REQ-002");
        assertThat(f.field()).isEqualTo("bth.psn");
        assertThat(RequesterOrder.insideReadSpan(11, 10, 13, true, false, 7, basis)).as("another READ's MSN")
            .isNotNull();
        assertThat(RequesterOrder.insideReadSpan(11, 10, 13, true, true, 7, basis)).as("a re-request").isNull();
        assertThat(RequesterOrder.insideReadSpan(10, 10, 13, false, false, 7, basis)).as("the first PSN").isNull();
        assertThat(RequesterOrder.insideReadSpan(14, 10, 13, false, false, 7, basis)).as("after the span").isNull();
        assertThat(RequesterOrder.insideReadSpan(0, 0xFFFFFE, 1, false, false, 7, basis)).as("across the wrap")
            .isNotNull();
    }
}

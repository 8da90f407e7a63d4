package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** MR-REQ-013 at the max_rd_atomic edge and MR-REQ-014 with and without an earlier READ or atomic outstanding. */
class RequesterLimitsTest {
    private static final Basis LIVE = Basis.configured("the work requests posted");

    @Test
    void theWqeThatReachesMaxRdAtomicIsQuietTheOneBeyondFires() {
        assertThat(RequesterLimits.outstanding(3, 4, 1, LIVE)).isNull();
        assertThat(RequesterLimits.outstanding(4, 4, 2, LIVE)).isEqualTo(new Finding("MR-REQ-013",
            "outstanding READ/atomic WQEs", "at most max_rd_atomic = 4", "5", 2, LIVE));
        assertThat(RequesterLimits.outstanding(0, 1, 1, LIVE)).isNull();
    }

    @Test
    void aFencedWqeFiresOnlyWhileAnEarlierReadOrAtomicIsOutstanding() {
        assertThat(RequesterLimits.fence(null, 1, LIVE)).isNull();
        assertThat(RequesterLimits.fence("WQE 1 (rdma_read)", 3, LIVE)).isEqualTo(new Finding("MR-REQ-014", "fence",
            "every earlier READ and atomic complete", "WQE 1 (rdma_read) still outstanding", 3, LIVE));
    }
}

package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.Psn;

/**
 * Section 13.4's acknowledgement probe on a hand-built send queue: a WRITE at 0xFFFFFE-0x000001 (across the wrap),
 * a READ spanning 2-3, a SEND at 4, an atomic at 5; una and the next PSN as each test sets them.
 */
class RequesterProbeTest {
    private static final int WRITE = 0xFFFFFE;
    private static final Set<Integer> NOT_SEND_OR_WRITE = Set.of(2, 3, 5);

    private static RequesterProbe.SendQueue queue(final int una, final int next) {
        return new RequesterProbe.SendQueue() {
            @Override
            public int una() {
                return una;
            }

            @Override
            public int nextPsn() {
                return next;
            }

            @Override
            public boolean sendOrWrite(final int psn) {
                return Psn.distance(WRITE, psn) < Psn.distance(WRITE, next) && !NOT_SEND_OR_WRITE.contains(psn);
            }
        };
    }

    @Test
    void theAwaitedPsnIsTheHighestSendOrWritePsnAtOrAfterTheCumulativePoint() {
        assertThat(RequesterProbe.awaited(queue(6, 6), WRITE)).isEqualTo(4);
        assertThat(RequesterProbe.awaited(queue(4, 4), 0)).as("the READ's span is skipped").isEqualTo(1);
        assertThat(RequesterProbe.awaited(queue(4, 4), 0xFFFFFF)).as("across the wrap").isEqualTo(1);
    }

    @Test
    void nothingIsAwaitedOnceTheCumulativePointPassesEverySendAndWrite() {
        assertThat(RequesterProbe.awaited(queue(6, 6), 5)).isEqualTo(RequesterProbe.NONE);
        assertThat(RequesterProbe.awaited(queue(4, 4), 2)).as("only the READ's span after the point")
            .isEqualTo(RequesterProbe.NONE);
        assertThat(RequesterProbe.due(queue(6, 6), 5)).isFalse();
    }

    @Test
    void theAwaitedPsnSentAgainWithAckReqWithNothingInFlightIsTheProbe() {
        assertThat(RequesterProbe.due(queue(6, 6), 0)).isTrue();
        assertThat(RequesterProbe.is(queue(6, 6), 0, 4, true)).isTrue();
    }

    @Test
    void withoutAckReqItIsNoProbe() {
        assertThat(RequesterProbe.is(queue(6, 6), 0, 4, false)).isFalse();
    }

    @Test
    void aLowerPsnOrAPsnInFlightIsNoProbe() {
        assertThat(RequesterProbe.is(queue(6, 6), 0, 1, true)).as("not the highest").isFalse();
        assertThat(RequesterProbe.is(queue(5, 6), 0, 4, true)).as("the atomic at 5 is in flight").isFalse();
        assertThat(RequesterProbe.due(queue(5, 6), 0)).isFalse();
    }
}

package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;

/**
 * The control calls of a case are timed on its frames' base, the case's start after its reset (issue 10: the kept
 * report of a failed RTX-010 run showed its post_sends 0.5 ms after the frames they caused, because the calls were
 * timed from before the reset and the frames from after it).
 */
class ControlJournalTest {
    @Test
    void callsAreTimedFromTheCasesStartAfterItsReset() {
        final long[] clock = {1_000_000};
        final DataPlane data = (DataPlane) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {DataPlane.class}, (proxy, method, args) -> {
                if (method.getName().equals("now")) {
                    return clock[0];
                }
                throw new UnsupportedOperationException(method.getName());
            });
        final ControlPlane device = (ControlPlane) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {ControlPlane.class}, (proxy, method, args) -> {
                clock[0] += 900_000; // each call takes 0.9 ms
                return method.getName().equals("queryQp") ? org.metaroce.mrct.spi.QpState.RTS : null;
            });
        final ControlJournal journal = new ControlJournal(device, data, clock[0], () -> 0, op -> { }, op -> { });
        clock[0] += 200_000;
        journal.reset(); // began at 0.2 ms, returned at 1.1 ms
        final long caseStart = clock[0];
        journal.startAt(caseStart);
        clock[0] += 100_000;
        journal.queryQp(1);
        assertThat(journal.records().get(0).timestampNanos()).as("the reset, before the case's time zero")
            .isEqualTo(-900_000);
        assertThat(journal.records().get(1).timestampNanos()).as("the next call, on the frames' base")
            .isEqualTo(100_000);
    }
}

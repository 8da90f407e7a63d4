package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.reports.internal.ReportSet;
import org.metaroce.mrct.reports.internal.ReportWriter;
import org.metaroce.mrct.reports.internal.RunState;

/** The write schedule: appending writers after every case, rewriting writers on failures and at most every 500 ms. */
class ReportSetTest {
    /** Counts the writes it is asked for. */
    private static final class Counting implements ReportWriter {
        final boolean rewrites;
        final List<Integer> writes = new ArrayList<>();
        int cases;

        Counting(final boolean rewrites) {
            this.rewrites = rewrites;
        }

        @Override
        public Path file() {
            return Path.of("counting");
        }

        @Override
        public void started(final RunState state) {
            cases = 0;
        }

        @Override
        public void caseAdded(final CaseResult result, final RunState state) {
            cases++;
        }

        @Override
        public void write(final RunState state, final boolean last) {
            writes.add(last ? -cases : cases);
        }

        @Override
        public boolean rewrites() {
            return rewrites;
        }
    }

    @Test
    void passesWaitForTheIntervalFailuresAndTheEndDoNot() {
        final long[] now = {0};
        final Counting rewriting = new Counting(true);
        final Counting appending = new Counting(false);
        final ReportSet set = new ReportSet(new RunState(null), List.of(rewriting, appending), () -> now[0]);
        set.runStarted(Synthetic.info(5));
        set.caseFinished(Synthetic.pass());                    // 1: pass, just after the start: waits
        now[0] += ReportSet.REWRITE_INTERVAL_NANOS - 1;
        set.caseFinished(Synthetic.pass());                    // 2: still inside the interval
        now[0] += 1;
        set.caseFinished(Synthetic.pass());                    // 3: the interval has passed
        set.caseFinished(Synthetic.fail());                    // 4: a failure is written at once
        set.caseFinished(Synthetic.pass());                    // 5: waits again
        set.runFinished(Synthetic.info(5), Synthetic.summary(List.of(), null, true));
        assertThat(rewriting.writes).containsExactly(0, 3, 4, -5);
        assertThat(appending.writes).containsExactly(0, 1, 2, 3, 4, 5, -5);
    }

    @Test
    void pastGrowthCasesTheIntervalGrowsWithTheCasesDoneAndFailuresWaitForItToo() {
        final long[] now = {0};
        final Counting rewriting = new Counting(true);
        final ReportSet set = new ReportSet(new RunState(null), List.of(rewriting), () -> now[0]);
        final int growth = ReportSet.GROWTH_CASES;
        set.runStarted(Synthetic.info(3 * growth));
        for (int i = 0; i < 2 * growth; i++) {
            set.caseFinished(Synthetic.pass());                // no time passes: none rewrites
        }
        assertThat(rewriting.writes).containsExactly(0);
        now[0] += 2 * ReportSet.REWRITE_INTERVAL_NANOS - 1;
        set.caseFinished(Synthetic.fail());                    // 2 * growth + 1 cases: waits for twice the interval
        now[0] += 1;
        set.caseFinished(Synthetic.pass());                    // twice the interval has passed
        now[0] += ReportSet.REWRITE_INTERVAL_NANOS;
        set.caseFinished(Synthetic.fail());                    // once the interval is not enough any more
        set.runFinished(Synthetic.info(3 * growth), Synthetic.summary(List.of(), null, true));
        assertThat(rewriting.writes).containsExactly(0, 2 * growth + 2, -(2 * growth + 3));
    }
}

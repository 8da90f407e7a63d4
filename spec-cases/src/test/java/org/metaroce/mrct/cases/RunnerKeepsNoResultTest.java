package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * A run keeps no case once its listeners have had it (each holds its evidence, tens of kilobytes): the summary is
 * counted case by case, so a run of a million generated cases needs the memory of their IDs, not of their frames.
 */
class RunnerKeepsNoResultTest {
    @Test
    void resultsOfFinishedCasesCanBeCollectedWhileTheRunGoesOn() throws Exception {
        final Suite suite = new Suite();
        final List<Runner.Planned> plan = Runner.plan(suite.cases).subList(0, 8);
        final List<WeakReference<CaseResult>> finished = new ArrayList<>();
        final int[] collectedBeforeLast = {-1};
        final RunListener watcher = new RunListener() {
            @Override
            public void caseStarted(final String id, final int index, final int total) {
                if (index == total - 1) {
                    // every result but the one just before (a frame's local may still hold it) must be unreachable
                    collectedBeforeLast[0] = collected(finished.subList(0, finished.size() - 1));
                }
            }

            @Override
            public void caseFinished(final CaseResult result) {
                finished.add(new WeakReference<>(result));
            }
        };
        final Runner runner = suite.runner(Set.of(), List.of(watcher));
        final RunSummary summary = runner.run(null, plan, r -> false, null);
        assertThat(summary.counts().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(plan.size());
        assertThat(summary.counts().get(Verdict.PASS)).as("the summary counted each case").isPositive();
        assertThat(collectedBeforeLast[0]).as("results collected of the %d finished before the last but one",
            plan.size() - 2).isEqualTo(plan.size() - 2);
    }

    /** How many of {@code refs} are cleared, after asking for collections until they are (50 at most). */
    private static int collected(final List<WeakReference<CaseResult>> refs) {
        int cleared = 0;
        for (int attempt = 0; attempt < 50; attempt++) {
            System.gc();
            cleared = (int) refs.stream().filter(r -> r.get() == null).count();
            if (cleared == refs.size()) {
                break;
            }
        }
        return cleared;
    }
}

package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * A run's overall result from its cases' verdicts: a failure makes it NON_CONFORMANT whatever else happened; a case in
 * ERROR (the harness or the adapter failed) or a run cut short makes it ERROR; cases that could only be INCONCLUSIVE,
 * with nothing failed and nothing in error, make it INCONCLUSIVE, not ERROR (a busy host is no harness failure, and a
 * NIC engineer reading "ERROR" looks for a broken tool); otherwise CONFORMANT.
 */
class OverallVerdictTest {
    private static final Specification SPEC = Specification.bundled();
    private static final DeviceProfile PROFILE = new DeviceProfile("p", "v", "m", "f", Set.of(), Map.of(), "");

    private static CaseResult result(final String id, final Verdict verdict) {
        return new CaseResult(id, id, "t", "ACK", List.of("MR-ACK-001"), Level.MUST, Role.RESPONDER, "f.yaml",
            Map.of(), verdict, verdict == Verdict.PASS ? null : "why", null, 0, 0, 1, List.of(), List.of(), Map.of(),
            List.of());
    }

    private static RunSummary summary(final boolean complete, final Verdict... verdicts) {
        final Summaries.Tally tally = new Summaries.Tally(null, false);
        for (int i = 0; i < verdicts.length; i++) {
            tally.add(result("C-" + i, verdicts[i]));
        }
        return tally.summary(SPEC, PROFILE, complete, Instant.EPOCH);
    }

    @Test
    void onlyInconclusiveCasesBesidePassesMakeTheRunInconclusive() {
        final RunSummary run = summary(true, Verdict.PASS, Verdict.INCONCLUSIVE, Verdict.INCONCLUSIVE,
            Verdict.NOT_APPLICABLE);
        assertThat(run.overall()).isEqualTo(Overall.INCONCLUSIVE);
        assertThat(run.conformant()).isFalse();
        assertThat(run.reason()).isEqualTo("no case failed, but 2 cases could not be judged (INCONCLUSIVE), so "
            + "conformance can be neither claimed nor denied");
    }

    @Test
    void anErrorOutweighsInconclusiveAndAFailureOutweighsBoth() {
        final RunSummary error = summary(true, Verdict.PASS, Verdict.INCONCLUSIVE, Verdict.ERROR);
        assertThat(error.overall()).isEqualTo(Overall.ERROR);
        assertThat(error.reason()).isEqualTo("1 case ended in ERROR and 1 INCONCLUSIVE, so conformance cannot be "
            + "claimed");
        assertThat(summary(true, Verdict.ERROR).reason()).isEqualTo("1 case ended in ERROR, so conformance cannot "
            + "be claimed");
        assertThat(summary(true, Verdict.INCONCLUSIVE, Verdict.ERROR, Verdict.FAIL).overall())
            .isEqualTo(Overall.NON_CONFORMANT);
    }

    @Test
    void aRunCutShortIsAnErrorAndACleanOneConformant() {
        final RunSummary cut = summary(false, Verdict.PASS, Verdict.INCONCLUSIVE);
        assertThat(cut.overall()).isEqualTo(Overall.ERROR);
        assertThat(cut.reason()).isEqualTo("the run did not complete");
        final RunSummary clean = summary(true, Verdict.PASS, Verdict.NOT_APPLICABLE, Verdict.WARN);
        assertThat(clean.overall()).isEqualTo(Overall.CONFORMANT);
        assertThat(clean.conformant()).isTrue();
    }
}

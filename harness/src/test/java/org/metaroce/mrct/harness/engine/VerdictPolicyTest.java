package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.EvidenceUnavailableException;
import org.metaroce.mrct.spi.RejectedException;

/** What ends a case, as a verdict, a reason and a failure. */
class VerdictPolicyTest {
    private static final Specification SPEC = Specification.bundled();

    /** A case about {@code rule} whose second step (line 10) is an advance. */
    private static CaseDef caseAbout(final String rule) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = new CaseLoader(SPEC).parse("wire/x.yaml", "WIRE", "id: WIRE-005-x\ntitle: t\nrules: ["
            + rule + "]\nsetup:\n  connections:\n    - {name: q}\n  regions:\n    - {name: m, length: 64, access: "
            + "[remote_write]}\nsteps:\n  - advance: 1000\n  - advance: 2000\n", problems);
        assertThat(problems).isEmpty();
        return def;
    }

    private static StepFailure mismatch() {
        return new StepFailure("frame #3 (ACKNOWLEDGE): bth.psn: expected 5, actual 6", 3,
            List.of(new FieldDiff("bth.psn", "5", "6")), "expected ACKNOWLEDGE", "frame 3");
    }

    @Test
    void aFailedExpectationBlamesTheCasesFirstRuleAndSaysWhere() {
        final CaseDef def = caseAbout("MR-WIRE-005");
        final Step step = def.steps().get(1);
        final VerdictPolicy.Outcome outcome = new VerdictPolicy(def, SPEC, false).outcome(mismatch(), 1, step);
        assertThat(outcome.verdict()).isEqualTo(Verdict.FAIL);
        final Failure failure = outcome.failure();
        assertThat(failure.rule()).isEqualTo("MR-WIRE-005");
        assertThat(failure.step()).isEqualTo(1);
        assertThat(failure.stepLine()).isEqualTo(step.line());
        assertThat(failure.frame()).isEqualTo(3);
        assertThat(failure.diffs()).containsExactly(new FieldDiff("bth.psn", "5", "6"));
        assertThat(outcome.reason()).isEqualTo(failure.message()).isEqualTo("MR-WIRE-005: step 2 ("
            + step.describe() + ", line " + step.line() + "): frame #3 (ACKNOWLEDGE): bth.psn: expected 5, actual 6");
        assertThat(VerdictPolicy.failure(mismatch(), def, 1, step, SPEC)).isEqualTo(failure);
    }

    @Test
    void aShouldCaseWarnsUnlessTheRunIsStrict() {
        final CaseDef def = caseAbout("MR-ACK-008");
        assertThat(new VerdictPolicy(def, SPEC, false).outcome(mismatch(), 0, def.steps().get(0)).verdict())
            .isEqualTo(Verdict.WARN);
        assertThat(new VerdictPolicy(def, SPEC, true).outcome(mismatch(), 0, def.steps().get(0)).verdict())
            .isEqualTo(Verdict.FAIL);
        assertThat(new VerdictPolicy(def, SPEC, false).reportedLevel(null)).isEqualTo(Level.SHOULD);
    }

    @Test
    void aBrokenMustRuleInsideAShouldCaseFailsAndIsBlamed() {
        final CaseDef def = caseAbout("MR-ACK-008");
        final StepFailure broken = mismatch();
        broken.rule = "MR-WIRE-005";
        final VerdictPolicy policy = new VerdictPolicy(def, SPEC, false);
        final VerdictPolicy.Outcome outcome = policy.outcome(broken, -1, null);
        assertThat(outcome.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(outcome.failure().rule()).isEqualTo("MR-WIRE-005");
        assertThat(outcome.reason()).startsWith("MR-WIRE-005: after the last step: ");
        assertThat(outcome.failure().stepLine()).isZero();
        assertThat(policy.reportedLevel(outcome.failure())).isEqualTo(Level.MUST);
    }

    @Test
    void anInconclusiveFailureIsInconclusive() {
        final CaseDef def = caseAbout("MR-WIRE-005");
        final StepFailure f = new StepFailure("the capture lost frames", -1, List.of(), null, null, true);
        assertThat(new VerdictPolicy(def, SPEC, true).outcome(f, 0, def.steps().get(0)).verdict())
            .isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void theAdaptersAndTheHarnesssTroubleAreNotTheDevicesFault() {
        final CaseDef def = caseAbout("MR-WIRE-005");
        final VerdictPolicy policy = new VerdictPolicy(def, SPEC, false);
        final Step step = def.steps().get(0);
        assertThat(policy.outcome(new EvidenceUnavailableException("no capture"), 0, step))
            .isEqualTo(new VerdictPolicy.Outcome(Verdict.INCONCLUSIVE, "no capture", null));
        assertThat(policy.outcome(new AdapterException("socket closed"), 0, step))
            .isEqualTo(new VerdictPolicy.Outcome(Verdict.ERROR, "adapter: socket closed", null));
        assertThat(policy.outcome(new UnsupportedOperationException("no IPv4 options"), -1, null).reason())
            .isEqualTo("the adapter cannot do what the case's setup needs: no IPv4 options");
        assertThat(policy.outcome(new UnsupportedOperationException("no IPv4 options"), 0, step))
            .isEqualTo(new VerdictPolicy.Outcome(Verdict.NOT_APPLICABLE, "the adapter cannot do what step 1 (line "
                + step.line() + ") needs: no IPv4 options", null));
        assertThat(policy.outcome(new RejectedException("no PD"), 0, step)).isEqualTo(new VerdictPolicy.Outcome(
            Verdict.ERROR, "the device rejected a control-plane call the case needs: no PD", null));
        assertThat(policy.outcome(new IllegalStateException("boom"), 0, step)).isEqualTo(new VerdictPolicy.Outcome(
            Verdict.ERROR, "harness: step 1 (line " + step.line() + "): IllegalStateException: boom", null));
    }
}

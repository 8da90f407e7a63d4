package org.metaroce.mrct.harness.result;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A rule matrix row built with a limit lists that many cases, those not passing first, and counts the others. */
class RuleVerdictLimitTest {
    private static final Failure ELSEWHERE = new Failure("MR-OTHER-001", -1, "x", 0, -1, java.util.List.of(), null,
        null, "x");

    @Test
    void pastTheLimitAFailingCaseTakesThePlaceOfTheLastPassingOneAndTheRestAreCounted() {
        final RuleVerdict.Builder builder = new RuleVerdict.Builder(3);
        builder.add("R", "P1", Verdict.PASS, null).add("R", "P2", Verdict.PASS, null).add("R", "P3", Verdict.PASS, null);
        builder.add("R", "P4", Verdict.PASS, null).add("R", "F1", Verdict.FAIL, null);
        builder.add("R", "C1", Verdict.FAIL, ELSEWHERE).add("R", "F2", Verdict.FAIL, null);
        builder.add("R", "F3", Verdict.FAIL, null);
        final RuleVerdict row = builder.build("R", null, null, true);
        assertThat(row.cases()).containsExactly("F1", "C1", "F2");
        assertThat(row.casesNotListed()).isEqualTo(5);
        assertThat(row.caseCount()).isEqualTo(8);
        assertThat(row.citedBy()).containsExactly("C1");
        assertThat(row.verdict()).isEqualTo(Verdict.FAIL);
    }

    @Test
    void citedByPastTheLimitIsCountedAndStillMakesTheRowInconclusive() {
        final RuleVerdict.Builder builder = new RuleVerdict.Builder(1);
        builder.add("R", "C1", Verdict.FAIL, ELSEWHERE).add("R", "C2", Verdict.FAIL, ELSEWHERE);
        final RuleVerdict row = builder.build("R", null, null, true);
        assertThat(row.citedBy()).containsExactly("C1");
        assertThat(row.citedByNotListed()).isEqualTo(1);
        assertThat(row.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void withinTheLimitEveryCaseIsListedInOrderAsWithoutOne() {
        final RuleVerdict.Builder limited = new RuleVerdict.Builder(5);
        final RuleVerdict.Builder unlimited = new RuleVerdict.Builder();
        for (final RuleVerdict.Builder b : new RuleVerdict.Builder[] {limited, unlimited}) {
            b.add("R", "P1", Verdict.PASS, null).add("R", "F1", Verdict.FAIL, null).add("R", "P1", Verdict.PASS, null)
                .add("R", "C1", Verdict.FAIL, ELSEWHERE);
        }
        final RuleVerdict row = limited.build("R", null, null, true);
        assertThat(row).isEqualTo(unlimited.build("R", null, null, true));
        assertThat(row.cases()).containsExactly("P1", "F1", "C1");
        assertThat(row.casesNotListed()).isZero();
        assertThat(row.citedByNotListed()).isZero();
    }
}

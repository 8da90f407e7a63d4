package org.metaroce.mrct.harness.result;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/** Failures grouped by root cause, and the verdict a failing case gives the rules it cites. */
class RootCauseTest {
    private record Item(String id, Verdict verdict, Failure failure) {
    }

    private static Failure failure(final String rule, final String field, final String cause) {
        return new Failure(rule, 1, "expect", 3, 2, List.of(), null, null, rule + ": m", field, cause, "basis");
    }

    @Test
    void failuresWithTheSameRuleFieldAndCauseAreOneGroupLargestFirst() {
        final List<Item> items = List.of(
            new Item("A", Verdict.FAIL, failure("MR-ACK-002", "sacketh.base", "stale")),
            new Item("B", Verdict.FAIL, failure("MR-ORD-002", "", "discarded")),
            new Item("C", Verdict.PASS, null),
            new Item("D", Verdict.FAIL, failure("MR-ORD-002", "", "discarded")),
            new Item("E", Verdict.WARN, failure("MR-ACK-008", "", "late")),
            new Item("F", Verdict.INCONCLUSIVE, failure("MR-ORD-002", "", "discarded")));
        final List<RootCause> groups = RootCause.of(items, Item::id, Item::verdict, Item::failure);
        assertThat(groups).extracting(RootCause::rule).containsExactly("MR-ORD-002", "MR-ACK-002", "MR-ACK-008");
        assertThat(groups.get(0).cases()).as("INCONCLUSIVE is not a failure").containsExactly("B", "D");
        assertThat(groups.get(0).line(1)).isEqualTo("2 cases: MR-ORD-002: discarded (B, ...)");
        assertThat(groups.get(1).line(3)).isEqualTo("1 case: MR-ACK-002 sacketh.base: stale (A)");
    }

    @Test
    void aCaseFailingOnAnotherRuleOnlyCitesTheRulesItNames() {
        final Failure elsewhere = failure("MR-ORD-002", "", "discarded");
        assertThat(RuleVerdict.given("MR-WIRE-014", Verdict.FAIL, elsewhere)).isNull();
        assertThat(RuleVerdict.given("MR-ORD-002", Verdict.FAIL, elsewhere)).isEqualTo(Verdict.FAIL);
        assertThat(RuleVerdict.given("MR-WIRE-014", Verdict.PASS, null)).isEqualTo(Verdict.PASS);
        final RuleVerdict onlyCited = new RuleVerdict.Builder().add("MR-WIRE-014", "X", Verdict.FAIL, elsewhere)
            .build("MR-WIRE-014", Level.MUST, Role.ANY, true);
        assertThat(onlyCited.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(onlyCited.citedBy()).containsExactly("X");
        final RuleVerdict mixed = new RuleVerdict.Builder().add("MR-WIRE-014", "X", Verdict.FAIL, elsewhere)
            .add("MR-WIRE-014", "Y", Verdict.PASS, null).build("MR-WIRE-014", Level.MUST, Role.ANY, true);
        assertThat(mixed.verdict()).isEqualTo(Verdict.PASS);
        assertThat(mixed.cases()).containsExactly("X", "Y");
    }
}

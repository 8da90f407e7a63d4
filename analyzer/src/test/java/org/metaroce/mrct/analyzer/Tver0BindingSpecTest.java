package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.MarkdownTable;
import org.metaroce.mrct.oracle.FrameRule;

/**
 * The TVer 0 binding of each rule is written twice, in the specification (Table F-2) and in the oracle's rule metadata
 * ({@link FrameRule#tver0()}), which the judges apply: the two must say the same for every MR-WIRE and MR-HDR rule the
 * oracle judges, and the table must list every MR-WIRE and MR-HDR rule of the specification once.
 */
class Tver0BindingSpecTest {
    @Test
    void tableF2AndTheOraclesMetadataAgree() {
        final Map<String, String> table = tableF2();
        for (final FrameRule rule : FrameRule.values()) {
            if (!rule.rule().startsWith("MR-WIRE-") && !rule.rule().startsWith("MR-HDR-")) {
                continue;
            }
            final String binding = table.get(rule.rule());
            assertThat(binding).as(rule.rule() + " in Table F-2").isNotNull();
            switch (rule.tver0()) {
                case BINDS:
                    assertThat(binding).as(rule.rule()).isEqualTo("binds");
                    break;
                case EXCEPT:
                    assertThat(binding).as(rule.rule()).startsWith("binds, except ");
                    for (final String field : rule.tver0Exempt()) {
                        assertThat(binding).as(rule.rule()).contains(field);
                    }
                    break;
                case ROCEV2_VALUES:
                    assertThat(binding).as(rule.rule()).isEqualTo("binds, with RoCEv2's values");
                    break;
                default:
                    assertThat(binding).as(rule.rule()).isEqualTo("does not bind");
            }
        }
    }

    @Test
    void tableF2ListsEveryWireAndHeaderRuleOnce() {
        final Map<String, String> table = tableF2();
        final List<String> rules = Analyses.SPEC.rules().keySet().stream()
            .filter(id -> id.startsWith("MR-WIRE-") || id.startsWith("MR-HDR-")).toList();
        assertThat(table.keySet()).containsExactlyInAnyOrderElementsOf(rules);
    }

    /** Rule ID to its binding, from Table F-2 (rows name one rule, two, or a range "A to B"). */
    private static Map<String, String> tableF2() {
        final List<MarkdownTable> tables = MarkdownTable.parseAll(Analyses.SPEC.text().lines().toList());
        final MarkdownTable f2 = tables.stream().filter(t -> t.hasColumns("rule", "tver 0 frames",
            "reason and source")).findFirst().orElseThrow();
        final Map<String, String> bindings = new HashMap<>();
        for (final List<String> row : f2.rows()) {
            final String binding = row.get(1).replace(" (receive)", "");
            for (final String part : row.get(0).split(", ")) {
                final String[] range = part.split(" to ");
                final String area = range[0].substring(0, range[0].lastIndexOf('-') + 1);
                final int from = Integer.parseInt(range[0].substring(area.length()));
                final int to = range.length == 1 ? from : Integer.parseInt(range[1].substring(area.length()));
                for (int n = from; n <= to; n++) {
                    final String id = String.format("%s%03d", area, n);
                    assertThat(bindings.put(id, binding)).as(id + " listed twice").isNull();
                }
            }
        }
        return bindings;
    }
}

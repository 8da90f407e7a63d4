package org.metaroce.mrct.harness.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * A counter a device keeps (Appendix C).
 *
 * @param name the counter ({@code drop_bad_icrc})
 * @param meaning what it counts
 */
public record CounterDefinition(String name, String meaning) {
    static List<CounterDefinition> fromTables(final List<MarkdownTable> tables) {
        final List<CounterDefinition> counters = new ArrayList<>();
        for (final MarkdownTable table : tables) {
            if (table.hasColumns("counter", "counts")) {
                for (final List<String> row : table.rows()) {
                    if (row.size() >= 2 && !row.get(0).isBlank()) {
                        counters.add(new CounterDefinition(row.get(0), row.get(1)));
                    }
                }
            }
        }
        return counters;
    }
}

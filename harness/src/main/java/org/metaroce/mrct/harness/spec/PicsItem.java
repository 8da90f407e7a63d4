package org.metaroce.mrct.harness.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * A capability a device may claim (Appendix A).
 *
 * @param name the item ({@code atomics})
 * @param meaning what claiming it means
 */
public record PicsItem(String name, String meaning) {
    static List<PicsItem> fromTables(final List<MarkdownTable> tables) {
        final List<PicsItem> items = new ArrayList<>();
        for (final MarkdownTable table : tables) {
            if (table.hasColumns("item", "meaning")) {
                for (final List<String> row : table.rows()) {
                    if (row.size() >= 2 && !row.get(0).isBlank()) {
                        items.add(new PicsItem(row.get(0), row.get(1)));
                    }
                }
            }
        }
        return items;
    }
}

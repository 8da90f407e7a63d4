package org.metaroce.mrct.harness.yaml;

import java.util.List;

/**
 * A sequence.
 *
 * @param file source file
 * @param line 1-based line where it starts
 * @param items its items
 */
public record YList(String file, int line, List<YNode> items) implements YNode {
    public YList {
        items = List.copyOf(items);
    }

    @Override
    public String kind() {
        return "a list";
    }
}

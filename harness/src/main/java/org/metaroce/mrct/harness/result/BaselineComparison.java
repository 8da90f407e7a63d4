package org.metaroce.mrct.harness.result;

import java.util.List;

/**
 * A run against a baseline of known failures.
 *
 * @param baseline the baseline file
 * @param newlyFailing cases failing (FAIL or ERROR, or WARN with strict) that the baseline does not list
 * @param newlyPassing cases the baseline lists that now pass
 * @param stale baseline entries matching no case of the run
 * @param known cases failing as the baseline says
 */
public record BaselineComparison(String baseline, List<String> newlyFailing, List<String> newlyPassing,
                                 List<String> stale, List<String> known) {
    public BaselineComparison {
        newlyFailing = List.copyOf(newlyFailing);
        newlyPassing = List.copyOf(newlyPassing);
        stale = List.copyOf(stale);
        known = List.copyOf(known);
    }
}

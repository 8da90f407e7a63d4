package org.metaroce.mrct.harness.result;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a run was: enough to reproduce it.
 *
 * @param suiteVersion mrct version
 * @param specVersion specification version ({@code 1.0})
 * @param adapter adapter name
 * @param vendor device vendor
 * @param model device model
 * @param firmware device firmware
 * @param profile DUT profile name (file)
 * @param profileHash SHA-256 of the profile file's bytes, hex
 * @param pics PICS items the profile claims
 * @param parameters declared parameters in effect
 * @param seed the seed of every random choice of the run
 * @param strict whether SHOULD failures gate
 * @param fault the reference fault profile, or null
 * @param selection the case selection as given (IDs, prefixes, exclusions)
 * @param caseCount number of cases (table rows counted) the run will execute
 * @param start when the run started
 */
public record RunInfo(String suiteVersion, String specVersion, String adapter, String vendor, String model,
                      String firmware, String profile, String profileHash, List<String> pics,
                      Map<String, Object> parameters, long seed, boolean strict, String fault, List<String> selection,
                      int caseCount, Instant start) {
    public RunInfo {
        pics = List.copyOf(pics);
        parameters = Map.copyOf(parameters);
        selection = List.copyOf(selection);
    }
}

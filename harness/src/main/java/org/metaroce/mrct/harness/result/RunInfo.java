package org.metaroce.mrct.harness.result;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.Endpoints;

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
 * @param capabilities the adapter's capabilities by their labels ({@code virtual-time}, ...), sorted; empty when not
 *     known
 * @param endpoints the addresses of the device and of the harness on the link, or null when not known
 * @param timing the timing options of the run, or null when not known
 */
public record RunInfo(String suiteVersion, String specVersion, String adapter, String vendor, String model,
                      String firmware, String profile, String profileHash, List<String> pics,
                      Map<String, Object> parameters, long seed, boolean strict, String fault, List<String> selection,
                      int caseCount, Instant start, List<String> capabilities, Endpoints endpoints,
                      Timing timing) {
    /**
     * How long expectations waited and how much timing tolerance windows had: a replay of the run needs the same.
     *
     * @param expectTimeoutNs how long an expectation waits when its case does not say
     * @param toleranceNs absolute timing tolerance of every window
     * @param tolerancePercent relative timing tolerance in percent of the window
     */
    public record Timing(long expectTimeoutNs, long toleranceNs, int tolerancePercent) {
    }

    public RunInfo {
        pics = List.copyOf(pics);
        parameters = Map.copyOf(parameters);
        selection = List.copyOf(selection);
        capabilities = capabilities == null ? List.of() : List.copyOf(capabilities);
    }

    /** A run whose adapter's capabilities and link addresses are not known (capture analysis, tests). */
    public RunInfo(final String suiteVersion, final String specVersion, final String adapter, final String vendor,
                   final String model, final String firmware, final String profile, final String profileHash,
                   final List<String> pics, final Map<String, Object> parameters, final long seed, final boolean strict,
                   final String fault, final List<String> selection, final int caseCount, final Instant start) {
        this(suiteVersion, specVersion, adapter, vendor, model, firmware, profile, profileHash, pics, parameters, seed,
            strict, fault, selection, caseCount, start, List.of(), null, null);
    }

    /** A run whose timing options are not known. */
    public RunInfo(final String suiteVersion, final String specVersion, final String adapter, final String vendor,
                   final String model, final String firmware, final String profile, final String profileHash,
                   final List<String> pics, final Map<String, Object> parameters, final long seed, final boolean strict,
                   final String fault, final List<String> selection, final int caseCount, final Instant start,
                   final List<String> capabilities, final Endpoints endpoints) {
        this(suiteVersion, specVersion, adapter, vendor, model, firmware, profile, profileHash, pics, parameters, seed,
            strict, fault, selection, caseCount, start, capabilities, endpoints, null);
    }

    /** The labels of {@code capabilities}, sorted. */
    public static List<String> labels(final Set<Capability> capabilities) {
        final List<String> out = new ArrayList<>();
        for (final Capability capability : capabilities) {
            out.add(capability.label());
        }
        Collections.sort(out);
        return out;
    }
}

package org.metaroce.mrct.harness.profile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.spec.Parameter;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * A DUT profile: who the device is, the PICS items it claims and the parameters it declares. It selects the
 * applicable cases (a case needing an unclaimed PICS item is NOT_APPLICABLE) and feeds parameters to them. Parameters
 * the profile does not declare take the specification's defaults ({@link #effectiveParameters}).
 *
 * @param name the profile's name (its file name)
 * @param vendor device vendor
 * @param model device model
 * @param firmware firmware version
 * @param pics claimed PICS items
 * @param parameters declared parameters (Long, Double or String values)
 * @param sha256 SHA-256 of the profile file's bytes (hex), recorded in reports
 */
public record DeviceProfile(String name, String vendor, String model, String firmware, Set<String> pics,
                            Map<String, Object> parameters, String sha256) {
    public DeviceProfile {
        pics = Collections.unmodifiableSet(new java.util.LinkedHashSet<>(pics));
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** Every parameter of the specification: declared values over defaults. */
    public Map<String, Object> effectiveParameters(final Specification spec) {
        final Map<String, Object> out = new LinkedHashMap<>();
        for (final Parameter parameter : spec.parameters()) {
            out.put(parameter.name(), parameter.defaultValue());
        }
        out.putAll(parameters);
        return out;
    }

    /** The numeric parameters, as names for case expressions. */
    public Map<String, Long> numericParameters(final Specification spec) {
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final Map.Entry<String, Object> entry : effectiveParameters(spec).entrySet()) {
            if (entry.getValue() instanceof Long value) {
                out.put(entry.getKey(), value);
            }
        }
        return out;
    }

    /** A profile claiming the given items with default parameters (for tests and the public API). */
    public static DeviceProfile of(final String name, final List<String> pics) {
        return new DeviceProfile(name, "unknown", "unknown", "unknown", new java.util.LinkedHashSet<>(pics), Map.of(),
            "");
    }
}

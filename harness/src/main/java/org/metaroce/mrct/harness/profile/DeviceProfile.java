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
 * @param vendor device vendor, or null when the profile does not declare it
 * @param model device model, or null when the profile does not declare it
 * @param firmware firmware version, or null when the profile does not declare it
 * @param pics claimed PICS items
 * @param parameters declared parameters (Long, Double or String values)
 * @param sha256 SHA-256 of the profile file's bytes (hex), recorded in reports
 */
public record DeviceProfile(String name, String vendor, String model, String firmware, Set<String> pics,
                            Map<String, Object> parameters, String sha256) {
    /** How reports show an identity field the profile leaves out. */
    public static final String NOT_DECLARED = "not declared";

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

    /** A profile claiming the given items with default parameters and no identity (for tests and the public API). */
    public static DeviceProfile of(final String name, final List<String> pics) {
        return new DeviceProfile(name, null, null, null, new java.util.LinkedHashSet<>(pics), Map.of(), "");
    }

    /** True when the profile declares any part of the device's identity (then it is reported as declared). */
    public boolean identityDeclared() {
        return vendor != null || model != null || firmware != null;
    }

    /** An identity field as reports show it: as declared, or {@value #NOT_DECLARED}. */
    public static String shown(final String field) {
        return field == null ? NOT_DECLARED : field;
    }
}

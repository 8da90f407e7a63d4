package org.metaroce.mrct.analyzer.internal;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Parameter;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The declared parameters (Table B-1) the checks need, and how far a check may trust them.
 *
 * <p>With a profile ({@code --profile}) the declared values are taken as the values of every QP in the capture, and a
 * check that they break is a violation. Without one, the defaults of Appendix B are used and named as such; a finding
 * that holds with the default but not at the most lenient end of the parameter's range (for example a CNP interval of
 * 0, which the range allows) only makes the check inconclusive, since the device may declare that value.
 */
public final class Parameters {
    private final Specification spec;
    private final DeviceProfile profile;
    private final Map<String, Object> values = new HashMap<>();
    /** Range ends looked up once: concurrent, since the captures of one analysis may be analysed at once. */
    private final Map<String, Long> tops = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Long> bottoms = new java.util.concurrent.ConcurrentHashMap<>();

    /** @param profile the device profile, or null for the defaults of Appendix B */
    public Parameters(final Specification spec, final DeviceProfile profile) {
        this.spec = spec;
        this.profile = profile;
        for (final Parameter parameter : spec.parameters()) {
            values.put(parameter.name(), parameter.defaultValue());
        }
        if (profile != null) {
            values.putAll(profile.effectiveParameters(spec));
        }
    }

    /** True when the values are a profile's declarations, false for the defaults of Appendix B. */
    public boolean declared() {
        return profile != null;
    }

    /** The profile, or null. */
    public DeviceProfile profile() {
        return profile;
    }

    /** Where the values come from, for reports: {@code profile x.yaml} or {@code the defaults of Appendix B}. */
    public String source() {
        return profile != null ? "profile " + profile.name() : "the defaults of Appendix B";
    }

    /** Every value in effect. */
    public Map<String, Object> all() {
        return Map.copyOf(values);
    }

    /** A numeric parameter (declared or default). */
    public long value(final String name) {
        final Object value = values.get(name);
        if (value instanceof Number number) {
            return number.longValue();
        }
        throw new IllegalArgumentException("parameter " + name + " is not a number: " + value);
    }

    /** A numeric parameter as a double (ratios such as dcqcn_g). */
    public double ratio(final String name) {
        final Object value = values.get(name);
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        throw new IllegalArgumentException("parameter " + name + " is not a number: " + value);
    }

    /** A word parameter ({@code cnp_scope}). */
    public String word(final String name) {
        return String.valueOf(values.get(name)).toLowerCase(Locale.ROOT);
    }

    /** True when the profile claims a PICS item; false without a profile. */
    public boolean claims(final String pics) {
        return profile != null && profile.pics().contains(pics);
    }

    /** The value a check uses when the largest value is the lenient one: the declared value, or the range's top. */
    public long lenientMax(final String name) {
        return profile != null ? value(name) : tops.computeIfAbsent(name, n -> bound(n, true));
    }

    /** The value a check uses when the smallest value is the lenient one: the declared value, or the range's bottom. */
    public long lenientMin(final String name) {
        return profile != null ? value(name) : bottoms.computeIfAbsent(name, n -> bound(n, false));
    }

    /** The top or bottom of a parameter's range (Table B-1), bounds that name other parameters resolved. */
    long bound(final String name, final boolean top) {
        final Parameter parameter = spec.parameter(name);
        if (parameter == null) {
            throw new IllegalArgumentException("no parameter " + name);
        }
        String range = parameter.rangeText().trim();
        final int atMost = range.indexOf(" and at most ");
        if (atMost >= 0) {
            if (top) {
                return resolve(range.substring(atMost + " and at most ".length()).trim(), true);
            }
            range = range.substring(0, atMost);
        }
        final int to = range.indexOf(" to ");
        if (to >= 0) {
            return resolve(top ? range.substring(to + 4).trim() : range.substring(0, to).trim(), top);
        }
        if (range.startsWith("one of ")) {
            long best = top ? Long.MIN_VALUE : Long.MAX_VALUE;
            for (final String item : range.substring(7).split(",")) {
                final long v = resolve(item.trim(), top);
                best = top ? Math.max(best, v) : Math.min(best, v);
            }
            return best;
        }
        return value(name);
    }

    private long resolve(final String token, final boolean top) {
        final Object parsed = Parameter.parseValue(token);
        if (parsed instanceof Number number) {
            return number.longValue();
        }
        return bound(token, top);
    }
}

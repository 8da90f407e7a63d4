package org.metaroce.mrct.spi;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

/**
 * An immutable set of QP attribute values; attributes not set keep the device's value (or default). Values are
 * checked against each attribute's type when set.
 */
public final class QpAttributes {
    private static final QpAttributes EMPTY = new QpAttributes(new EnumMap<>(QpAttribute.class));

    private final Map<QpAttribute, Object> values;

    private QpAttributes(final EnumMap<QpAttribute, Object> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    /** No attribute set. */
    public static QpAttributes empty() {
        return EMPTY;
    }

    /** A copy with {@code attribute} set to {@code value} (Integer, Long, Double, Boolean, String or Set of Access). */
    public QpAttributes with(final QpAttribute attribute, final Object value) {
        final EnumMap<QpAttribute, Object> next = values.isEmpty() ? new EnumMap<>(QpAttribute.class)
            : new EnumMap<>(values);
        next.put(attribute, normalise(attribute, value));
        return new QpAttributes(next);
    }

    /** A copy with every value of {@code other} set over this one's. */
    public QpAttributes with(final QpAttributes other) {
        final EnumMap<QpAttribute, Object> next = values.isEmpty() ? new EnumMap<>(QpAttribute.class)
            : new EnumMap<>(values);
        next.putAll(other.values);
        return new QpAttributes(next);
    }

    private static Object normalise(final QpAttribute attribute, final Object value) {
        switch (attribute.type()) {
            case INT:
                if (value instanceof Number number && number.longValue() == number.intValue()) {
                    return number.intValue();
                }
                break;
            case LONG:
                if (value instanceof Number number) {
                    return number.longValue();
                }
                break;
            case DOUBLE:
                if (value instanceof Number number) {
                    return number.doubleValue();
                }
                break;
            case BOOL:
                if (value instanceof Boolean) {
                    return value;
                }
                break;
            case STRING:
                if (value instanceof String) {
                    return value;
                }
                break;
            default:
                if (value instanceof Set<?> set && set.stream().allMatch(Access.class::isInstance)) {
                    return Set.copyOf(set);
                }
                break;
        }
        throw new IllegalArgumentException(attribute.label() + " takes a " + attribute.type() + ", not " + value);
    }

    public boolean has(final QpAttribute attribute) {
        return values.containsKey(attribute);
    }

    /** Every attribute set, in declaration order. */
    public Map<QpAttribute, Object> asMap() {
        return values;
    }

    public int getInt(final QpAttribute attribute, final int fallback) {
        final Object value = values.get(attribute);
        return value == null ? fallback : ((Number) value).intValue();
    }

    public long getLong(final QpAttribute attribute, final long fallback) {
        final Object value = values.get(attribute);
        return value == null ? fallback : ((Number) value).longValue();
    }

    public double getDouble(final QpAttribute attribute, final double fallback) {
        final Object value = values.get(attribute);
        return value == null ? fallback : ((Number) value).doubleValue();
    }

    public boolean getBoolean(final QpAttribute attribute, final boolean fallback) {
        final Object value = values.get(attribute);
        return value == null ? fallback : (Boolean) value;
    }

    public String getString(final QpAttribute attribute, final String fallback) {
        final Object value = values.get(attribute);
        return value == null ? fallback : (String) value;
    }

    @SuppressWarnings("unchecked")
    public Set<Access> getAccess(final Set<Access> fallback) {
        final Object value = values.get(QpAttribute.ACCESS);
        return value == null ? fallback : (Set<Access>) value;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof QpAttributes that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}

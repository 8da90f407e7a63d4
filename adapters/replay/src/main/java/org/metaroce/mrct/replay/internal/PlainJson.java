package org.metaroce.mrct.replay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import org.metaroce.mrct.harness.result.MemoryDigest;

/**
 * Compares the plain values of a control-plane call (maps, lists, numbers, strings, booleans, as
 * {@code org.metaroce.mrct.harness.result.ControlCalls} builds them) with their JSON form in a recording. Numbers
 * compare by value whatever their Java or JSON type (an {@code Integer} equals a JSON {@code 7}, a {@code Double}
 * equals the JSON number written from it); maps compare by their members, whatever their order; memory (hex) compares
 * with a recorded digest ({@link MemoryDigest}) by its digest.
 */
final class PlainJson {
    private PlainJson() {
    }

    /** Null when {@code value} is what {@code recorded} holds, else the first difference: {@code path: ...}. */
    static String difference(final String path, final JsonNode recorded, final Object value) {
        final JsonNode json = recorded == null || recorded.isMissingNode() ? null : recorded;
        if (value == null || value instanceof Double d && !Double.isFinite(d)) {
            return json == null || json.isNull() ? null : differs(path, json, value);
        }
        if (json == null || json.isNull()) {
            return differs(path, json, value);
        }
        if (value instanceof String hex && MemoryDigest.isDigest(json)) {
            // memory recorded as its digest (evidence.pcapng): the harness's bytes must have that digest
            final byte[] bytes;
            try {
                bytes = HexFormat.of().parseHex(hex);
            } catch (IllegalArgumentException e) {
                return differs(path, json, value);
            }
            return MemoryDigest.matches(json, bytes) ? null : path + ": recorded " + json + ", the harness gave "
                + MemoryDigest.of(bytes);
        }
        if (value instanceof Map<?, ?> map) {
            if (!json.isObject()) {
                return differs(path, json, value);
            }
            for (final Map.Entry<?, ?> entry : map.entrySet()) {
                final String key = String.valueOf(entry.getKey());
                final String inner = difference(path + "." + key, json.get(key), entry.getValue());
                if (inner != null) {
                    return inner;
                }
            }
            final Iterator<String> names = json.fieldNames();
            while (names.hasNext()) {
                final String name = names.next();
                if (!map.containsKey(name)) {
                    return path + "." + name + ": recorded " + json.get(name) + ", not in the call";
                }
            }
            return null;
        }
        if (value instanceof Collection<?> list) {
            if (!json.isArray() || json.size() != list.size()) {
                return differs(path, json, value);
            }
            int i = 0;
            for (final Object item : list) {
                final String inner = difference(path + "[" + i + "]", json.get(i), item);
                if (inner != null) {
                    return inner;
                }
                i++;
            }
            return null;
        }
        if (value instanceof Number number) {
            return json.isNumber() && sameNumber(number, json) ? null : differs(path, json, value);
        }
        if (value instanceof Boolean b) {
            return json.isBoolean() && json.booleanValue() == b ? null : differs(path, json, value);
        }
        return json.isTextual() && json.textValue().equals(value.toString()) ? null : differs(path, json, value);
    }

    private static boolean sameNumber(final Number number, final JsonNode json) {
        if (number instanceof Double || number instanceof Float || json.isFloatingPointNumber()) {
            return json.doubleValue() == number.doubleValue();
        }
        final BigInteger value = number instanceof BigInteger big ? big : number instanceof BigDecimal big
            ? big.toBigInteger() : BigInteger.valueOf(number.longValue());
        return json.bigIntegerValue().equals(value);
    }

    private static String differs(final String path, final JsonNode recorded, final Object value) {
        return path + ": recorded " + (recorded == null ? "nothing" : recorded.toString()) + ", the harness gave "
            + (value instanceof String ? "\"" + value + "\"" : Objects.toString(value));
    }
}

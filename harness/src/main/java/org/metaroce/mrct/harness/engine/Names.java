package org.metaroce.mrct.harness.engine;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.metaroce.mrct.harness.cases.Expr;

/**
 * The names a case's expressions see: parameters, the numbers of its connections and regions, and the variables of the
 * {@code repeat} loops it is inside (the innermost first).
 */
final class Names {
    private final Map<String, Long> values = new HashMap<>();
    private final Map<String, Long> valuesView = Collections.unmodifiableMap(values);
    private final Deque<Map<String, Long>> loops = new ArrayDeque<>();
    private final Function<String, Long> resolver = this::lookup;

    /** The value of {@code name}, a loop variable first; null when it has none. */
    Long lookup(final String name) {
        for (final Map<String, Long> scope : loops) {
            final Long value = scope.get(name);
            if (value != null) {
                return value;
            }
        }
        return values.get(name);
    }

    /** {@link #lookup} as the function expressions evaluate against. */
    Function<String, Long> resolver() {
        return resolver;
    }

    long eval(final Expr expr) {
        return expr.eval(resolver);
    }

    /** The value bound to {@code name} outside any loop, or null. */
    Long bound(final String name) {
        return values.get(name);
    }

    /** The value bound to {@code name} outside any loop, or {@code fallback}. */
    long bound(final String name, final long fallback) {
        return values.getOrDefault(name, fallback);
    }

    /** The names bound outside loops (read-only, live). */
    Map<String, Long> bound() {
        return valuesView;
    }

    void bind(final String name, final long value) {
        values.put(name, value);
    }

    void bindAll(final Map<String, Long> more) {
        values.putAll(more);
    }

    /** Runs {@code body} with {@code variable} bound to {@code value} (a {@code repeat} step's iteration). */
    void inLoop(final String variable, final long value, final Runnable body) {
        loops.push(Map.of(variable, value));
        try {
            body.run();
        } finally {
            loops.pop();
        }
    }
}

package org.metaroce.mrct.harness.yaml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Typed access to a {@link YNode} tree that records a {@link YamlProblem} (with {@code file:line}) for every mismatch
 * instead of throwing, so that a loader can report every problem of every file together. Accessors return null (or
 * an empty value) after recording a problem, and callers carry on. Every accessor takes a null node (a required key
 * that is missing, already reported by {@link #required}) and returns null or an empty value without a second problem,
 * so that a missing nested key never becomes a NullPointerException.
 */
public final class Binder {
    private final List<YamlProblem> problems = new ArrayList<>();

    /** Problems recorded so far. */
    public List<YamlProblem> problems() {
        return problems;
    }

    /** Records a problem at a node. */
    public void problem(final YNode at, final String message) {
        problems.add(new YamlProblem(at.file(), at.line(), message));
    }

    /** Records a problem at a line of a file. */
    public void problem(final String file, final int line, final String message) {
        problems.add(new YamlProblem(file, line, message));
    }

    /** The node as a map, or null after recording a problem (null without one for a null node). */
    public YMap map(final YNode node, final String what) {
        if (node == null) {
            return null;
        }
        if (node instanceof YMap map) {
            return map;
        }
        problem(node, what + " must be a map, not " + node.kind());
        return null;
    }

    /** The node as a list; a single non-list value is read as a one-item list, a null node as an empty list. */
    public List<YNode> list(final YNode node) {
        if (node == null) {
            return List.of();
        }
        if (node instanceof YList list) {
            return list.items();
        }
        return List.of(node);
    }

    /** Records a problem for every key of {@code map} not in {@code allowed}. */
    public void onlyKeys(final YMap map, final String what, final String... allowed) {
        final Set<String> known = new LinkedHashSet<>(Arrays.asList(allowed));
        for (final String key : map.keys()) {
            if (!known.contains(key)) {
                problems.add(new YamlProblem(map.file(), map.keyLine(key), "unknown key '" + key + "' in " + what
                    + suggestion(key, known) + "; allowed: " + String.join(", ", known)));
            }
        }
    }

    private static String suggestion(final String key, final Set<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : known) {
            final int distance = distance(key, candidate);
            if (distance < bestDistance) {
                bestDistance = distance;
                best = candidate;
            }
        }
        return best != null && bestDistance <= 2 ? " (did you mean '" + best + "'?)" : "";
    }

    private static int distance(final String a, final String b) {
        final int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            row[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int previous = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                final int saved = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1),
                    previous + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                previous = saved;
            }
        }
        return row[b.length()];
    }

    /** A required key's node, or null after recording a problem. */
    public YNode required(final YMap map, final String key, final String what) {
        final YNode node = map.get(key);
        if (node == null) {
            problem(map, what + " needs '" + key + "'");
        }
        return node;
    }

    /** A string scalar (numbers and booleans are taken as their text), or null after recording a problem. */
    public String string(final YNode node, final String what) {
        if (node == null) {
            return null;
        }
        if (node instanceof YScalar scalar && scalar.value() != null && !(scalar.value() instanceof Boolean)) {
            return scalar.value() instanceof String s ? s : scalar.text();
        }
        if (node instanceof YScalar scalar && scalar.value() instanceof Boolean) {
            return scalar.text();
        }
        problem(node, what + " must be a string, not " + node.kind());
        return null;
    }

    /** An optional string key. */
    public String optionalString(final YMap map, final String key, final String what) {
        final YNode node = map.get(key);
        return node == null ? null : string(node, what + "." + key);
    }

    /** A boolean scalar, or {@code fallback} after recording a problem. */
    public boolean bool(final YNode node, final String what, final boolean fallback) {
        if (node == null) {
            return fallback;
        }
        if (node instanceof YScalar scalar && scalar.value() instanceof Boolean b) {
            return b;
        }
        problem(node, what + " must be true or false, not " + node.kind());
        return fallback;
    }

    /** An optional boolean key. */
    public Boolean optionalBool(final YMap map, final String key, final String what) {
        final YNode node = map.get(key);
        return node == null ? null : bool(node, what + "." + key, false);
    }

    /** A list of strings (a single string counts as a one-item list). */
    public List<String> strings(final YNode node, final String what) {
        final List<String> out = new ArrayList<>();
        if (node == null) {
            return out;
        }
        for (final YNode item : list(node)) {
            final String text = string(item, what);
            if (text != null) {
                out.add(text);
            }
        }
        return out;
    }

    /** Parses a scalar with {@code parser}; a thrown IllegalArgumentException becomes a problem and null. */
    public <T> T parse(final YNode node, final String what, final Function<String, T> parser) {
        final String text = string(node, what);
        if (text == null) {
            return null;
        }
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            problem(node, what + ": " + e.getMessage());
            return null;
        }
    }
}

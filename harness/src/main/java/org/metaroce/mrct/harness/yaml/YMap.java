package org.metaroce.mrct.harness.yaml;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A mapping with string keys, in the order written.
 */
public final class YMap implements YNode {
    private final String file;
    private final int line;
    private final Map<String, YNode> entries;
    private final Map<String, Integer> keyLines;

    public YMap(final String file, final int line, final Map<String, YNode> entries,
                final Map<String, Integer> keyLines) {
        this.file = file;
        this.line = line;
        this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        this.keyLines = Collections.unmodifiableMap(new LinkedHashMap<>(keyLines));
    }

    @Override
    public String file() {
        return file;
    }

    @Override
    public int line() {
        return line;
    }

    @Override
    public String kind() {
        return "a map";
    }

    /** Entries in the order written. */
    public Map<String, YNode> entries() {
        return entries;
    }

    public Set<String> keys() {
        return entries.keySet();
    }

    /** The value of a key, or null. */
    public YNode get(final String key) {
        return entries.get(key);
    }

    public boolean has(final String key) {
        return entries.containsKey(key);
    }

    /** The line of a key, or the map's line when absent. */
    public int keyLine(final String key) {
        return keyLines.getOrDefault(key, line);
    }
}

package org.metaroce.mrct.harness.yaml;

/**
 * A scalar: a string, a number, a boolean or null, as YAML typed it.
 *
 * @param file source file
 * @param line 1-based line
 * @param value String, Long, Double, BigInteger, Boolean, or null
 * @param text the text as written
 */
public record YScalar(String file, int line, Object value, String text) implements YNode {
    @Override
    public String kind() {
        if (value == null) {
            return "null";
        }
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        return "a number";
    }
}

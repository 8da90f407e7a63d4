package org.metaroce.mrct.harness.spec;

/**
 * Something wrong in the specification file.
 *
 * @param line 1-based line
 * @param message what is wrong
 */
public record SpecProblem(int line, String message) {
    @Override
    public String toString() {
        return "line " + line + ": " + message;
    }
}

package org.metaroce.mrct.harness.yaml;

/**
 * One problem in an input file.
 *
 * @param file the file
 * @param line 1-based line (0 when the whole file is concerned)
 * @param message what is wrong and, where it helps, what is allowed
 */
public record YamlProblem(String file, int line, String message) {
    @Override
    public String toString() {
        return file + ":" + line + ": " + message;
    }
}

package org.metaroce.mrct.reports;

/**
 * One thing wrong in a baseline file.
 *
 * @param file the file as given
 * @param line 1-based line, 0 when the problem concerns the whole file
 * @param message what is wrong
 */
public record BaselineProblem(String file, int line, String message) {
    @Override
    public String toString() {
        return file + ":" + line + ": " + message;
    }
}

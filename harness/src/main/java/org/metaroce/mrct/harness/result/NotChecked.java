package org.metaroce.mrct.harness.result;

/**
 * An expectation of a case that did not run because the {@code when} step around it did not hold under the profile
 * (a PICS item the device does not claim, a condition on its parameters): what was not checked, and why.
 *
 * @param line the expectation's line in the case file
 * @param step the expectation as written, one line
 * @param reason why it did not run: the {@code when} step, its line, and the PICS item or the condition that failed
 */
public record NotChecked(int line, String step, String reason) {
    /** One line: {@code line 83 (expect rate of q ...): when at line 79: ...}. */
    public String describe() {
        return "line " + line + " (" + step + "): " + reason;
    }
}

package org.metaroce.mrct.harness.result;

/**
 * A known failure: the case, the verdict it is known to get, and why.
 *
 * @param caseId the case ID (with parameter row if any)
 * @param verdict the verdict expected
 * @param reason why it is accepted for now
 */
public record BaselineEntry(String caseId, Verdict verdict, String reason) {
}

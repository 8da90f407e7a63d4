package org.metaroce.mrct.harness.result;

import java.util.List;

/**
 * One row of the rule matrix: a rule, the cases covering it and the worst verdict among them.
 *
 * @param rule the rule ID
 * @param level MUST, SHOULD or MAY
 * @param role responder, requester or any
 * @param applicable false when the device does not claim the rule's PICS item
 * @param cases IDs of the cases that cover it in this run
 * @param verdict the worst verdict of those cases; NOT_APPLICABLE when none ran
 */
public record RuleVerdict(String rule, String level, String role, boolean applicable, List<String> cases,
                          Verdict verdict) {
    public RuleVerdict {
        cases = List.copyOf(cases);
    }
}

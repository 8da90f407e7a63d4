package org.metaroce.mrct.harness.result;

import java.util.List;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/**
 * One row of the rule matrix: a rule, the cases covering it and the worst verdict among them.
 *
 * @param rule the rule ID
 * @param level the rule's level (null when the rule is not in the specification)
 * @param role the role the rule binds (null when the rule is not in the specification)
 * @param applicable false when the device does not claim the rule's PICS item
 * @param cases IDs of the cases that cover it in this run
 * @param verdict the worst verdict of those cases; NOT_APPLICABLE when none ran
 */
public record RuleVerdict(String rule, Level level, Role role, boolean applicable, List<String> cases,
                          Verdict verdict) {
    public RuleVerdict {
        cases = List.copyOf(cases);
    }
}

package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.spec.Rule;

/**
 * Traceability: every MUST and SHOULD rule of the specification has at least one case, whatever its role (responder,
 * requester or any), a requester rule by a requester case; and no case cites a rule the specification lacks (the
 * loader refuses those too).
 */
class CoverageTest {
    /** The areas the responder issue covers (the requester areas REQ and RTX are covered by requester cases). */
    static final Set<String> RESPONDER_AREAS = Set.of("WIRE", "HDR", "QP", "ORD", "ACK", "PLC", "CMP", "RD", "ATM",
        "SEC", "ROB", "CC", "MP", "LEG", "CONF");

    @Test
    void everyResponderSideRuleHasACase() throws Exception {
        final Suite suite = new Suite();
        final Set<String> cited = new HashSet<>();
        for (final CaseDef c : suite.cases) {
            cited.addAll(c.rules());
        }
        final List<String> uncovered = suite.spec.rules().values().stream()
            .filter(r -> r.level() != Level.MAY && RESPONDER_AREAS.contains(r.area()) && r.role() != Role.REQUESTER)
            .map(Rule::id).filter(id -> !cited.contains(id)).collect(Collectors.toList());
        assertThat(uncovered).as("responder-side MUST/SHOULD rules without a case").isEmpty();
    }

    @Test
    void everyRequesterRuleHasARequesterCase() throws Exception {
        final Suite suite = new Suite();
        final Set<String> cited = new HashSet<>();
        for (final CaseDef c : suite.cases) {
            if (c.role() == Role.REQUESTER) {
                cited.addAll(c.rules());
            }
        }
        final List<String> uncovered = suite.spec.rules().values().stream()
            .filter(r -> r.level() != Level.MAY && r.role() == Role.REQUESTER)
            .map(Rule::id).filter(id -> !cited.contains(id)).collect(Collectors.toList());
        assertThat(uncovered).as("requester MUST/SHOULD rules without a requester case").isEmpty();
    }

    @Test
    void everyCitedRuleExists() throws Exception {
        final Suite suite = new Suite();
        for (final CaseDef c : suite.cases) {
            for (final String rule : c.rules()) {
                assertThat(suite.spec.rule(rule)).as("%s cites %s", c.id(), rule).isNotNull();
            }
        }
    }
}

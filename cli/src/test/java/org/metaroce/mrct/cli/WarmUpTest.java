package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.spec.Specification;

/** The warm-up before a real-time run leaves out scale cases only (QP-011's 65,536 QPs compile nothing new). */
class WarmUpTest {
    @Test
    void onlyTheScaleCasesAreLeftOut() throws Exception {
        final List<Runner.Planned> plan = Runner.plan(new CaseLoader(Specification.bundled()).loadBundled());
        final List<String> left = plan.stream().filter(p -> !WarmUp.warms(p)).map(Runner.Planned::id).toList();
        assertThat(left).containsExactly("QP-011-max-qp-in-rts");
        assertThat(plan.stream().filter(p -> p.def().connections().stream().anyMatch(c -> c.count() != null)))
            .as("cases with a constant set of a few QPs stay in").filteredOn(WarmUp::warms).isNotEmpty();
    }
}

package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reference.Fault;

/**
 * A failure shows the expected and the actual frame in the same PSN space: the expected frame is written in the case's
 * relative PSNs, so the actual frame's PSNs are relative too, with the absolute value beside them, and agree with the
 * field diff.
 */
class FramePsnSpaceTest {
    private static final Pattern BASE = Pattern.compile("(?m)^  sacketh\\.base = (\\d+) \\[absolute (\\d+)]$");
    private static final Pattern PSN = Pattern.compile("(?m)^  bth\\.psn = (\\d+) \\[absolute (\\d+)]$");

    @Test
    void theActualFrameOfAMismatchIsInTheExpectedFramesPsnSpace() throws Exception {
        final Suite suite = new Suite();
        final Runner runner = suite.runner(Set.of(Fault.STALE_SACK_BASE));
        CaseResult found = null;
        FieldDiff diff = null;
        for (final Runner.Planned planned : Runner.plan(suite.cases)) {
            final CaseResult result = runner.runOne(planned);
            if (result.verdict() != Verdict.FAIL || result.failure().actualFrame() == null) {
                continue;
            }
            diff = result.failure().diffs().stream().filter(d -> d.field().equals("sacketh.base")).findFirst()
                .orElse(null);
            if (diff != null) {
                found = result;
                break;
            }
        }
        assertThat(found).as("a case failing on sacketh.base under stale-sack-base").isNotNull();
        final String actual = found.failure().actualFrame();
        assertThat(actual).as(actual).contains(", PSNs relative");
        final Matcher base = BASE.matcher(actual);
        assertThat(base.find()).as(actual).isTrue();
        final Matcher psn = PSN.matcher(actual);
        assertThat(psn.find()).as(actual).isTrue();
        // the relative value is the one the diff reports, the absolute one differs by the connection's base
        assertThat(diff.actual()).as(diff.toString()).startsWith(base.group(1) + " (");
        final long relative = Long.parseLong(base.group(1));
        final long absolute = Long.parseLong(base.group(2));
        final long offset = (absolute - relative) & 0xFFFFFF;
        assertThat((Long.parseLong(psn.group(2)) - Long.parseLong(psn.group(1))) & 0xFFFFFF)
            .as("one PSN space for the frame's PSNs").isEqualTo(offset);
        // the expected frame names the PSNs in the same relative space
        assertThat(found.failure().expectedFrame()).contains("sacketh.base = ");
    }
}

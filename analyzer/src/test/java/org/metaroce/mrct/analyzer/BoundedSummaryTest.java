package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.engine.Summaries;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * The summary of an analysis of many connections is counted, not kept: each rule matrix row lists at most
 * {@link CaptureAnalyzer#CASES_LISTED} cases (the failing ones first) and counts the rest, the outcome lists at most
 * {@link Outcome#VIOLATIONS_LISTED} failing checks and counts the rest, and the verdicts and counts are those of the
 * matrix built from every case the listener received (the unbounded {@link Summaries#ruleMatrix}).
 */
class BoundedSummaryTest {
    @TempDir
    Path dir;

    /** {@code connections} one-frame connections, the ICRC of every {@code badEvery}-th frame corrupted. */
    private Path capture(final int connections, final int badEvery) throws IOException {
        final Path clean = dir.resolve("clean.pcap");
        TrafficGenerator.writeConnections(clean, connections, 7);
        final List<Captures.Record> records = Captures.read(clean);
        for (int i = badEvery - 1; i < records.size(); i += badEvery) {
            final byte[] bad = records.get(i).bytes().clone();
            bad[bad.length - 1] ^= 0x5A;
            records.set(i, records.get(i).withBytes(bad));
        }
        return Captures.write(dir.resolve("bad-every-" + badEvery + ".pcap"), records);
    }

    private static Map<String, RuleVerdict> everyCase(final Analyses.Result result) {
        final DeviceProfile profile = DeviceProfile.of("none (the defaults of Appendix B)",
            List.copyOf(Analyses.SPEC.picsNames()));
        return Summaries.ruleMatrix(Analyses.SPEC, profile, result.cases()).stream()
            .collect(Collectors.toMap(RuleVerdict::rule, Function.identity()));
    }

    @Test
    void aRowOfManyConnectionsListsAHundredCasesFailingOnesFirstAndCountsTheRest() throws IOException {
        final Analyses.Result result = Analyses.run(capture(300, 7));
        final Map<String, RuleVerdict> full = everyCase(result);
        final Set<String> failing = result.with(Verdict.FAIL).stream().filter(c -> c.rules().contains("MR-WIRE-014"))
            .map(CaseResult::id).collect(Collectors.toSet());
        assertThat(failing).as("every 7th of 300 connections has a bad ICRC").hasSize(42);

        final RuleVerdict icrc = result.summary().rules().stream().filter(r -> r.rule().equals("MR-WIRE-014"))
            .findFirst().orElseThrow();
        assertThat(full.get("MR-WIRE-014").cases()).hasSize(300);
        assertThat(icrc.cases()).hasSize(CaptureAnalyzer.CASES_LISTED).containsAll(failing)
            .isSubsetOf(full.get("MR-WIRE-014").cases());
        assertThat(icrc.casesNotListed()).isEqualTo(200);
        assertThat(icrc.verdict()).isEqualTo(Verdict.FAIL);
        for (final RuleVerdict row : result.summary().rules()) {
            final RuleVerdict all = full.get(row.rule());
            assertThat(row.verdict()).as(row.rule()).isEqualTo(all.verdict());
            assertThat(row.caseCount()).as(row.rule()).isEqualTo(all.cases().size());
            assertThat(row.citedBy().size() + row.citedByNotListed()).as(row.rule()).isEqualTo(all.citedBy().size());
            assertThat(row.cases()).as(row.rule()).isSubsetOf(all.cases());
        }
        assertThat(result.outcome().violationCount()).isEqualTo(result.with(Verdict.FAIL).size());
        assertThat(result.outcome().violationsNotListed()).isZero();
    }

    @Test
    void fewerConnectionsThanTheLimitAreListedEveryOneInOrder() throws IOException {
        final Analyses.Result result = Analyses.run(capture(40, 7));
        final Map<String, RuleVerdict> full = everyCase(result);
        assertThat(result.summary().rules()).isNotEmpty().allSatisfy(row -> {
            assertThat(row).isEqualTo(full.get(row.rule()));
            assertThat(row.casesNotListed()).isZero();
        });
        assertThat(result.with(Verdict.FAIL)).isNotEmpty();
        assertThat(result.outcome().violations()).hasSize(result.with(Verdict.FAIL).size());
    }

    @Test
    void moreFailingChecksThanTheOutcomeListsAreCounted() throws IOException {
        final Analyses.Result result = Analyses.run(capture(Outcome.VIOLATIONS_LISTED + 50, 1));
        final List<CaseResult> failed = result.with(Verdict.FAIL);
        assertThat(failed).hasSizeGreaterThan(Outcome.VIOLATIONS_LISTED);
        assertThat(result.outcome().violations()).hasSize(Outcome.VIOLATIONS_LISTED);
        assertThat(result.outcome().violationsNotListed()).isEqualTo(failed.size() - Outcome.VIOLATIONS_LISTED);
        assertThat(result.outcome().violations().get(0)).isEqualTo(failed.get(0).id() + ": " + failed.get(0).reason());
        assertThat(result.outcome().checks().get(Verdict.FAIL)).isEqualTo(failed.size());
    }
}

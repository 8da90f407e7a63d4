package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.generate.FlowGenerator;
import org.metaroce.mrct.harness.generate.GeneratedFlow;
import org.metaroce.mrct.harness.generate.RequesterFlow;
import org.metaroce.mrct.harness.generate.RequesterFlowGenerator;
import org.metaroce.mrct.harness.generate.RequesterShrinker;
import org.metaroce.mrct.harness.generate.Shrinker;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.reference.ReferencePeer;
import org.metaroce.mrct.testing.Seeds;

/**
 * Generated flows (seeded permutations, late packets, duplicates and CE marks over multi-message workloads) against
 * the reference, checked against the responder invariants; generated requester workloads (losses, lost
 * retransmissions, duplicates, reordering, lost acknowledgements) checked against the requester invariants; and the
 * shrink-and-write-out path that turns a failing flow into an ordinary case file reproducing the failure.
 */
class GeneratedFlowsTest {
    private static CaseDef load(final Suite suite, final String id, final String yaml) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = new CaseLoader(suite.spec).parse(id + ".yaml", "GEN", yaml, problems);
        assertThat(problems).as("problems in generated case:\n%s", yaml).isEmpty();
        return def;
    }

    private static CaseResult run(final Suite suite, final Set<Fault> faults, final CaseDef def) {
        return suite.runner(faults).runOne(new Runner.Planned(def, Map.of(), def.id()));
    }

    @Test
    void theReferenceMeetsEveryInvariantOnGeneratedFlows() throws Exception {
        final Suite suite = new Suite();
        final long seed = Seeds.random("GeneratedFlowsTest.reference", 7L).nextLong();
        for (int i = 0; i < 300; i++) {
            final GeneratedFlow flow = FlowGenerator.generate(seed, i);
            final String id = "GEN-" + i;
            final CaseResult result = run(suite, Set.of(), load(suite, id, flow.toYaml(id, "generated")));
            assertThat(result.verdict()).as("flow %d: %s%n%s", i, result.reason(), flow.toYaml(id, ""))
                .isEqualTo(Verdict.PASS);
        }
    }

    @Test
    void aFailingFlowShrinksToACaseFileThatReproducesIt(@TempDir final Path dir) throws Exception {
        final Suite suite = new Suite();
        final Set<Fault> faults = Set.of(Fault.COMPLETIONS_OUT_OF_ORDER);
        GeneratedFlow failing = null;
        String rule = null;
        for (int i = 0; i < 500 && failing == null; i++) {
            final GeneratedFlow flow = FlowGenerator.generate(99L, i);
            final CaseResult result = run(suite, faults, load(suite, "GEN", flow.toYaml("GEN", "")));
            if (result.verdict() == Verdict.FAIL) {
                failing = flow;
                rule = result.failure().rule();
            }
        }
        assertThat(failing).as("some generated flow catches completions-out-of-order").isNotNull();
        final String failingRule = rule;
        final GeneratedFlow shrunk = Shrinker.shrink(failing, candidate -> {
            final CaseResult result = run(suite, faults, load(suite, "GEN", candidate.toYaml("GEN", "")));
            return result.verdict() == Verdict.FAIL && failingRule.equals(result.failure().rule());
        });
        assertThat(shrunk.messages().size()).isLessThanOrEqualTo(failing.messages().size());
        assertThat(shrunk.packets().size()).isLessThanOrEqualTo(failing.packets().size());
        assertThat(shrunk.packets().size()).isLessThan(10);

        final Path file = dir.resolve("gen/GEN-shrunk.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, shrunk.toYaml("GEN-shrunk", "shrunk from a failing generated flow"));
        final List<CaseDef> reloaded = new CaseLoader(suite.spec).load(List.of(dir));
        assertThat(reloaded).hasSize(1);
        final CaseResult replay = run(suite, faults, reloaded.get(0));
        assertThat(replay.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(replay.failure().rule()).isEqualTo(failingRule);
        assertThat(run(suite, Set.of(), reloaded.get(0)).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void theReferenceRequesterMeetsEveryInvariantOnGeneratedWorkloads() throws Exception {
        final Suite suite = new Suite();
        final long seed = Seeds.random("GeneratedFlowsTest.requester", 11L).nextLong();
        for (int i = 0; i < 150; i++) {
            final RequesterFlow flow = RequesterFlowGenerator.generate(seed, i);
            final String id = "GEN-R-" + i;
            final CaseResult result = run(suite, Set.of(), load(suite, id, flow.toYaml(id, "generated")));
            assertThat(result.verdict()).as("workload %d: %s%n%s", i, result.reason(), flow.toYaml(id, ""))
                .isEqualTo(Verdict.PASS);
        }
    }

    @Test
    void generatedWorkloadsPassUnderADeclaredRetryCountOfZero() throws Exception {
        // a device may declare retry_cnt 0 (Table B-1); a lossy workload checks recovery, not retry exhaustion, so
        // its QP takes retry_cnt 7 as the hand-written recovery cases do (section 3.1: every device accepts 0 to 7)
        final Suite suite = new Suite();
        final Map<String, Object> parameters = new LinkedHashMap<>(suite.profile.parameters());
        parameters.put("retry_cnt", 0L);
        final DeviceProfile profile = new DeviceProfile("retry_cnt=0", "MetaRoCE project", "mrct reference NIC", "1.0",
            suite.profile.pics(), parameters, "");
        final Runner runner = new Runner(new RunContext(ReferenceAdapter.fromProfile(profile, suite.spec, Set.of()),
            suite.spec, profile, Suite.SEED, false, 2_000_000, 0, 0, ReferencePeer.FACTORY), List.of(),
            Clock.systemUTC());
        int lossy = 0;
        for (int i = 0; i < 20; i++) {
            final RequesterFlow flow = RequesterFlowGenerator.generate(1L, i);
            final String id = "GEN-R-" + i;
            final String yaml = flow.toYaml(id, "generated");
            assertThat(yaml).contains("params: {retry_cnt: 7}");
            lossy += flow.drops().isEmpty() ? 0 : 1;
            final CaseResult result = runner.runOne(new Runner.Planned(load(suite, id, yaml), Map.of(), id));
            assertThat(result.verdict()).as("workload %d: %s%n%s", i, result.reason(), yaml).isEqualTo(Verdict.PASS);
        }
        assertThat(lossy).as("lossy workloads among the 20").isGreaterThan(5);
    }

    @Test
    void aFailingRequesterWorkloadShrinksToACaseFileThatReproducesIt(@TempDir final Path dir) throws Exception {
        final Suite suite = new Suite();
        final Set<Fault> faults = Set.of(Fault.GO_BACK_N_RETRANSMIT);
        RequesterFlow failing = null;
        String rule = null;
        for (int i = 0; i < 200 && failing == null; i++) {
            final RequesterFlow flow = RequesterFlowGenerator.generate(5L, i);
            final CaseResult result = run(suite, faults, load(suite, "GEN-R", flow.toYaml("GEN-R", "")));
            if (result.verdict() == Verdict.FAIL) {
                failing = flow;
                rule = result.failure().rule();
            }
        }
        assertThat(failing).as("some generated workload catches go-back-n-retransmit").isNotNull();
        assertThat(rule).startsWith("MR-RTX-");
        final String failingRule = rule;
        final RequesterFlow shrunk = RequesterShrinker.shrink(failing, candidate -> {
            final CaseResult result = run(suite, faults, load(suite, "GEN-R", candidate.toYaml("GEN-R", "")));
            return result.verdict() == Verdict.FAIL && failingRule.equals(result.failure().rule());
        });
        assertThat(shrunk.messages().size()).isLessThanOrEqualTo(failing.messages().size());
        assertThat(shrunk.drops().size()).isLessThanOrEqualTo(failing.drops().size());
        assertThat(shrunk.drops()).isNotEmpty();

        final Path file = dir.resolve("gen/GEN-R-shrunk.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, shrunk.toYaml("GEN-R-shrunk", "shrunk from a failing generated workload"));
        final List<CaseDef> reloaded = new CaseLoader(suite.spec).load(List.of(dir));
        assertThat(reloaded).hasSize(1);
        final CaseResult replay = run(suite, faults, reloaded.get(0));
        assertThat(replay.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(replay.failure().rule()).isEqualTo(failingRule);
        assertThat(run(suite, Set.of(), reloaded.get(0)).verdict()).isEqualTo(Verdict.PASS);
    }
}

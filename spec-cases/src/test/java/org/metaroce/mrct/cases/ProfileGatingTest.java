package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.generate.FlowGenerator;
import org.metaroce.mrct.harness.generate.GeneratedFlow;
import org.metaroce.mrct.harness.generate.RequesterFlowGenerator;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.reference.ReferencePeer;

/**
 * How a case declares what it needs of the profile (spec-cases/README.md, "Cases for every legal profile"): {@code
 * when} steps run by PICS claim and condition, {@code pics.<item>} names, comparisons, {@code requires:}, and values
 * outside the profile's ranges, each run against the reference NIC under two profiles so that the gate is seen to
 * choose.
 */
class ProfileGatingTest {
    private static final Suite SUITE = suite();

    private static Suite suite() {
        try {
            return new Suite();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static final String HEAD = """
        id: GATE-001
        title: gating
        rules: [MR-ORD-002]
        setup:
          connections:
            - name: q
          regions:
            - {name: m, length: 65536, access: [local_write, remote_write, remote_read, remote_atomic], fill: {seq: 0}}
        """;

    /** An atomic step gated on the atomics item, with a READ in its place otherwise. */
    private static final String WHEN = HEAD + """
        steps:
          - when:
              pics: [atomics]
              steps:
                - write_memory: {mr: m, offset: 8, data: {constant: 0x11, length: 8}}
                - message: {op: fetch_add, mr: m, offset: 8, add: 5, ackreq: none}
                - expect: {opcode: ATOMIC_ACKNOWLEDGE, fields: {bth.psn: 0, atomicacketh.orig: 0x1111111111111111}}
              else:
                - message: {op: read, mr: m, offset: 8, length: 8, ackreq: none}
                - expect: {opcode: RDMA_READ_RESPONSE_ONLY, fields: {bth.psn: 0}, payload: {seq: 0, offset: 8}}
          - message: {op: write, mr: m, offset: 100, length: 8}
          - expect: {ack: {psn: 2, msn: 2}}
          - expect_counters: {drop_unsupported_opcode: 0, exact: true}
        """;

    @Test
    void whenRunsItsStepsOnlyForAClaimedItemAndElseOtherwise() {
        final CaseDef def = parse(WHEN);
        assertThat(run(def, profile(Set.of("atomics"), Map.of())).verdict()).isEqualTo(Verdict.PASS);
        assertThat(run(def, profile(Set.of(), Map.of())).verdict()).isEqualTo(Verdict.PASS);
        // the else branch made impossible: the profile claiming atomics never takes it, the other one does
        final String impossible = "        - expect: {opcode: CNP, within: 1us}\n";
        final CaseDef noElse = parse(WHEN.replace(WHEN.substring(WHEN.indexOf("        - message: {op: read"),
            WHEN.indexOf("  - message: {op: write")), impossible));
        assertThat(run(noElse, profile(Set.of("atomics"), Map.of())).verdict()).isEqualTo(Verdict.PASS);
        assertThat(run(noElse, profile(Set.of(), Map.of())).verdict()).isEqualTo(Verdict.FAIL);
    }

    @Test
    void anExpectationLeftOutByItsWhenIsReportedNotChecked() {
        final CaseDef def = parse(WHEN);
        final CaseResult claimed = run(def, profile(Set.of("atomics"), Map.of()));
        assertThat(claimed.notChecked()).isEmpty();
        assertThat(claimed.reason()).isEqualTo("every expectation held");
        // without the item the ATOMIC ACKNOWLEDGE expectation (line 15 of the case) does not run: the case still
        // judges the READ in its place and the write after it, and passes saying what it did not check
        final CaseResult without = run(def, profile(Set.of(), Map.of()));
        assertThat(without.verdict()).isEqualTo(Verdict.PASS);
        assertThat(without.notChecked()).singleElement().satisfies(n -> {
            assertThat(n.line()).isEqualTo(15);
            assertThat(n.step()).contains("ATOMIC_ACKNOWLEDGE");
            assertThat(n.reason()).isEqualTo("when at line 11: the profile does not claim atomics");
        });
        assertThat(without.reason()).startsWith("every expectation that applies held; not checked under the profile:")
            .contains("line 15");
    }

    @Test
    void aCaseWhoseEveryExpectationIsLeftOutIsNotApplicableNotAPass() {
        final CaseDef def = parse(HEAD + """
            steps:
              - when:
                  if: "pmtu >= 2048"
                  steps:
                    - message: {op: write, mr: m, offset: 100, length: 8}
                    - expect: {ack: {psn: 1, msn: 1}}
                    - repeat: {var: i, from: 0, to: 1, steps: [{expect_counters: {drop_unsupported_opcode: 0}}]}
            """);
        final CaseResult small = run(def, profile(null, Map.of("pmtu", 1024L)));
        assertThat(small.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(small.notChecked()).extracting(n -> n.line()).containsExactly(14, 15);
        assertThat(small.reason()).startsWith("no expectation of the case applies under the profile: 2 steps from "
            + "line 14 (when at line 11: the condition pmtu >= 2048 does not hold under the profile)");
        final CaseResult large = run(def, profile(null, Map.of("pmtu", 2048L)));
        assertThat(large.verdict()).isEqualTo(Verdict.PASS);
        assertThat(large.notChecked()).isEmpty();
    }

    @Test
    void aRepeatThatRunsNoTimeIsNoGate() {
        // a loop over the middle packets of a one-packet message leaves nothing out: the case passes as before
        final CaseDef def = parse(HEAD + """
            steps:
              - message: {op: write, mr: m, offset: 100, length: 8}
              - expect: {ack: {psn: 1, msn: 1}}
              - repeat: {var: i, from: 1, to: 0, steps: [{expect_counters: {drop_unsupported_opcode: 0}}]}
            """);
        final CaseResult result = run(def, profile(null, Map.of()));
        assertThat(result.verdict()).isEqualTo(Verdict.PASS);
        assertThat(result.notChecked()).isEmpty();
        assertThat(result.reason()).isEqualTo("every expectation held");
    }

    @Test
    void aClaimIsANameInExpressions() {
        final String text = HEAD + """
            steps:
              - send: {opcode: FETCH_ADD, psn: 0, msn: 0, mr: m, add: 1, ackreq: false}
              - expect_none: 100us
              - expect_counters: {drop_unsupported_opcode: "1 - pics.atomics", exact: true}
            """.replace("expect_none: 100us", "when: {pics: [atomics], steps: [{expect: {opcode: ATOMIC_ACKNOWLEDGE}}],"
            + " else: [{expect_none: 100us}]}");
        final CaseDef def = parse(text);
        assertThat(run(def, profile(Set.of("atomics"), Map.of())).verdict()).isEqualTo(Verdict.PASS);
        assertThat(run(def, profile(Set.of(), Map.of())).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void requiresMakesTheCaseNotApplicableWhereItsConditionFails() {
        final CaseDef def = parse(HEAD.replace("setup:", "requires: [\"pmtu >= 2048\"]\nsetup:") + """
            steps:
              - message: {op: write, mr: m, length: 2 * pmtu}
              - expect: {ack: {psn: 2, msn: 1}}
            """);
        final CaseResult small = run(def, profile(null, Map.of("pmtu", 1024L)));
        assertThat(small.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(small.reason()).contains("pmtu >= 2048");
        assertThat(run(def, profile(null, Map.of("pmtu", 2048L))).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void aValueTheProfileDoesNotAllowIsNotApplicableNotAnError() {
        final CaseDef def = parse(HEAD.replace("setup:", "matrix:\n  - {pmtu: 4096}\nsetup:") + """
            steps:
              - message: {op: write, mr: m, length: pmtu + 1}
              - expect: {ack: {psn: 2, msn: 1}}
            """);
        final Runner.Planned row = Runner.plan(List.of(def)).get(0);
        final CaseResult limited = runner(profile(null, Map.of("max_pmtu", 1024L))).runOne(row);
        assertThat(limited.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(limited.reason()).contains("pmtu").contains("max_pmtu");
        assertThat(runner(profile(null, Map.of())).runOne(row).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void moreQpsThanMaxQpIsNotApplicable() {
        final CaseDef def = parse(HEAD.replace("    - name: q\n", "    - name: q\n    - {name: r, pd: q}\n") + """
            steps:
              - message: {qp: r, op: write, mr: m, length: 8}
              - expect: {qp: r, ack: {psn: 1, msn: 1}}
            """);
        final CaseResult one = run(def, profile(null, Map.of("max_qp", 1L)));
        assertThat(one.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
        assertThat(one.reason()).contains("max_qp 1");
        assertThat(run(def, profile(null, Map.of("max_qp", 2L))).verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void expressionsCompare() {
        final Map<String, Long> names = Map.of("pmtu", 2048L, "cnp_scope", 1L);
        assertThat(Expr.parse("pmtu >= 2048").eval(names)).isEqualTo(1);
        assertThat(Expr.parse("pmtu > 2048").eval(names)).isEqualTo(0);
        assertThat(Expr.parse("pmtu < 4096").eval(names)).isEqualTo(1);
        assertThat(Expr.parse("pmtu <= 1024").eval(names)).isEqualTo(0);
        assertThat(Expr.parse("cnp_scope == 1").eval(names)).isEqualTo(1);
        assertThat(Expr.parse("cnp_scope != 1").eval(names)).isEqualTo(0);
        assertThat(Expr.parse("2 + (pmtu <= 4us)").eval(names)).isEqualTo(3);
        assertThat(Expr.parse("1 << 4 > 8").eval(names)).isEqualTo(1); // shifts bind tighter
        assertThat(Expr.parse("1 << 2").eval(names)).isEqualTo(4);
        assertThatThrownBy(() -> Expr.parse("1 < 2 < 3")).hasMessageContaining("do not chain");
    }

    @Test
    void generatedFlowsStayWithinMaxPmtuAndRecvWindowAndAreUnchangedForTheDefaults() {
        for (int i = 0; i < 300; i++) {
            final GeneratedFlow small = FlowGenerator.generate(Suite.SEED, i, 1024, 16);
            assertThat(small.pmtu()).isLessThanOrEqualTo(1024);
            assertThat(small.messages().stream().mapToInt(m -> m.packets(small.pmtu())).sum()).isLessThanOrEqualTo(16);
            assertThat(RequesterFlowGenerator.generate(Suite.SEED, i, 2048).pmtu()).isLessThanOrEqualTo(2048);
            assertThat(FlowGenerator.generate(Suite.SEED, i, 4096, 128))
                .isEqualTo(FlowGenerator.generate(Suite.SEED, i));
            assertThat(RequesterFlowGenerator.generate(Suite.SEED, i, 4096))
                .isEqualTo(RequesterFlowGenerator.generate(Suite.SEED, i));
        }
    }

    private static CaseDef parse(final String text) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = new CaseLoader(SUITE.spec).parse("gate/gate-001.yaml", "GATE", text, problems);
        assertThat(problems).isEmpty();
        return def;
    }

    /** The reference profile with the given PICS claims (null: its own) and parameters changed. */
    private static DeviceProfile profile(final Set<String> pics, final Map<String, Object> changes) {
        final Map<String, Object> parameters = new LinkedHashMap<>(SUITE.profile.parameters());
        parameters.putAll(changes);
        return new DeviceProfile("gate", null, null, null,
            pics == null ? SUITE.profile.pics() : new LinkedHashSet<>(pics), parameters, "");
    }

    private static Runner runner(final DeviceProfile profile) {
        return new Runner(new RunContext(ReferenceAdapter.fromProfile(profile, SUITE.spec, Set.of()), SUITE.spec,
            profile, Suite.SEED, false, 2_000_000, 0, 0, ReferencePeer.FACTORY), List.of(), Clock.systemUTC());
    }

    private static CaseResult run(final CaseDef def, final DeviceProfile profile) {
        return runner(profile).runOne(Runner.plan(List.of(def)).get(0));
    }
}

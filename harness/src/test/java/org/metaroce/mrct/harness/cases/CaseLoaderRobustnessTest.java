package org.metaroce.mrct.harness.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;

/**
 * The findings of a fuzzing pass over case files (issue 11 item 8): every one of these inputs must give typed problems
 * naming the file, a line and what is wrong, with the other files' problems still reported; never an exception.
 */
class CaseLoaderRobustnessTest {
    private static final String HEAD = "id: RD-002-x\ntitle: t\nrules: [MR-RD-002]\n";
    private static final String SETUP = "setup:\n  connections:\n    - name: q\n  regions:\n"
        + "    - {name: m, length: 4096, access: [remote_write, remote_read]}\n";

    private final CaseLoader loader = new CaseLoader(Specification.bundled());

    private List<YamlProblem> problems(final String text) {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("rd/x.yaml", "RD", text, problems);
        if (!problems.isEmpty()) {
            assertThat(def).isNull();
        }
        return problems;
    }

    private List<YamlProblem> stepProblems(final String steps) {
        return problems(HEAD + SETUP + "steps:\n" + steps);
    }

    private static void assertOneProblemAt(final List<YamlProblem> problems, final int line, final String text) {
        assertThat(problems).as("problems").isNotEmpty().allSatisfy(p -> assertThat(p.line()).isPositive());
        assertThat(problems).anySatisfy(p -> {
            assertThat(p.line()).isEqualTo(line);
            assertThat(p.message()).contains(text);
        });
    }

    static Stream<Arguments> missingNestedKeys() {
        final String q = "setup:\n  connections: [{name: q}]\nsteps:\n";
        return Stream.of(
            Arguments.of("connection without name", "setup:\n  connections: [{psn: 0}]\nsteps:\n"
                + "  - expect_none: 1us\n", 5, "needs 'name'"),
            Arguments.of("region without name", "setup:\n  connections: [{name: q}]\n  regions: [{length: 64}]\n"
                + "steps:\n  - expect_none: 1us\n", 6, "needs 'name'"),
            Arguments.of("repeat without var", q + "  - repeat: {from: 0, to: 1, steps: [{advance: 1us}]}\n", 7,
                "needs 'var'"),
            Arguments.of("nak without code", q + "  - expect: {nak: {psn: 0}}\n", 7, "needs 'code'"),
            Arguments.of("expect_unordered without frames", q + "  - expect_unordered: {within: 1us}\n", 7,
                "needs 'frames'"),
            Arguments.of("send nak without code", q + "  - send: {nak: {psn: 0}}\n", 7, "needs 'code'"),
            Arguments.of("send ack without psn", q + "  - send: {ack: {msn: 0}}\n", 7, "needs 'psn'"),
            Arguments.of("unknown fill kind", "setup:\n  connections: [{name: q}]\n  regions: [{name: m, length: 64, "
                + "fill: {foo: 1}}]\nsteps:\n  - expect_none: 1us\n", 6, "unknown key 'foo'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("missingNestedKeys")
    void aMissingOrUnknownNestedKeyIsAProblemWithItsLine(final String name, final String body, final int line,
                                                        final String text) {
        assertOneProblemAt(problems(HEAD + body), line, text);
    }

    @Test
    void anExpectStepsRuleMustBeOneTheCaseCites() {
        final String q = "setup:\n  connections: [{name: q}]\nsteps:\n";
        assertOneProblemAt(problems(HEAD + q + "  - expect: {qp: q, nak: {code: 0x61, psn: 0}, rule: MR-RD-008}\n"),
            7, "not among the rules the case cites");
        final List<YamlProblem> none = new ArrayList<>();
        final CaseDef def = loader.parse("rd/x.yaml", "RD", HEAD + q
            + "  - expect: {qp: q, nak: {code: 0x61, psn: 0}, rule: MR-RD-002}\n", none);
        assertThat(none).isEmpty();
        assertThat(((Step.Expect) def.steps().get(0)).rule()).isEqualTo("MR-RD-002");
    }

    @Test
    void expectNoneAndExpectMemoryNameARuleTheCaseCitesToo() {
        final String q = "setup:\n  connections: [{name: q}]\n  regions: [{name: m, length: 64}]\nsteps:\n";
        assertOneProblemAt(problems(HEAD + q + "  - expect_memory: {mr: m, untouched: true, rule: MR-RD-008}\n"), 8,
            "not among the rules the case cites");
        assertOneProblemAt(problems(HEAD + q + "  - expect_none: {for: 1us, qp: q, rule: MR-RD-008}\n"), 8,
            "not among the rules the case cites");
        final List<YamlProblem> none = new ArrayList<>();
        final CaseDef def = loader.parse("rd/x.yaml", "RD", HEAD + q
            + "  - expect_memory: {mr: m, untouched: true, rule: MR-RD-002}\n"
            + "  - expect_none: {for: 1us, qp: q, fields: {bth.psn: 3}, rule: MR-RD-002}\n"
            + "  - expect_none: {for: 1us, rule: MR-RD-002}\n", none);
        assertThat(none).isEmpty();
        assertThat(((Step.ExpectMemory) def.steps().get(0)).rule()).isEqualTo("MR-RD-002");
        final Step.ExpectNone filtered = (Step.ExpectNone) def.steps().get(1);
        assertThat(filtered.rule()).isEqualTo("MR-RD-002");
        assertThat(filtered.filter()).as("the rule is no field of the filter").isNotNull();
        assertThat(((Step.ExpectNone) def.steps().get(2)).filter()).as("a rule alone is no filter").isNull();
    }

    @Test
    void aMergeKeyIsRefusedWithItsLine() {
        final List<YamlProblem> problems = problems(HEAD + "setup:\n  connections:\n    - &c {name: q}\n"
            + "    - {<<: *c, name: r}\nsteps:\n  - expect_none: 1us\n");
        assertOneProblemAt(problems, 7, "merge key");
    }

    @Test
    void anUnknownYamlTagIsRefusedWithItsLine() {
        assertOneProblemAt(stepProblems("  - advance: !foo 1us\n"), 10, "tag '!foo'");
    }

    @Test
    void aYamlSyntaxErrorNamesALine() {
        final List<YamlProblem> problems = problems(HEAD + SETUP + "steps:\n  - advance: \"1us\n  - x: [\n");
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.line()).isPositive();
            assertThat(p.message()).contains("YAML syntax error");
        });
        // Jackson's nesting limit comes without a location: the line read last is named, not line 0
        final List<YamlProblem> deep = problems(HEAD + SETUP + "steps:\n  - advance: " + "[".repeat(1100) + "\n");
        assertThat(deep).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(10);
            assertThat(p.message()).contains("nesting depth");
        });
    }

    @Test
    void aCaseWithoutStepsIsAProblem() {
        assertOneProblemAt(problems(HEAD + SETUP + "steps: []\n"), 9, "at least one step");
        assertOneProblemAt(stepProblems("  - repeat: {var: i, from: 0, to: 1, steps: []}\n"), 10, "at least one step");
    }

    @Test
    void aLiteralBeyond64BitsIsRefusedNotWrapped() {
        assertOneProblemAt(stepProblems("  - advance: 18446744073709551616\n"), 10, "18446744073709551616");
        assertOneProblemAt(stepProblems("  - advance: \"18446744073709551616\"\n"), 10, "18446744073709551616");
        assertOneProblemAt(stepProblems("  - advance: \"0x1_0000_0000_0000_0000\"\n"), 10, "64 bits");
        assertOneProblemAt(stepProblems("  - send: {opcode: SEND_ONLY, psn: 18446744073709551621}\n"), 10,
            "18446744073709551621");
        assertOneProblemAt(stepProblems("  - send: {opcode: SEND_ONLY, imm: -9223372036854775809}\n"), 10,
            "-9223372036854775809");
    }

    @Test
    void unsigned64BitValuesAreKeptWhole() {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = loader.parse("rd/x.yaml", "RD", HEAD + SETUP + "steps:\n  - send: {opcode: "
            + "COMPARE_SWAP, swap: 18446744073709551615, compare: \"18446744073709551614\"}\n", problems);
        assertThat(problems).isEmpty();
        final PacketSpec packet = ((Step.Send) def.steps().get(0)).packet();
        assertThat(packet.swapAdd().eval(n -> null)).isEqualTo(-1L);
        assertThat(packet.compare().eval(n -> null)).isEqualTo(-2L);
    }

    @Test
    void fieldsAreCheckedAgainstTheirDomain() {
        assertOneProblemAt(problems(HEAD + "setup:\n  connections: [{name: q, psn: 0x1000000}]\nsteps:\n"
            + "  - expect_none: 1us\n"), 5, "psn");
        assertOneProblemAt(problems(HEAD + "setup:\n  connections: [{name: q, attrs: {recv_window: "
            + "18446744073709551744}}]\nsteps:\n  - expect_none: 1us\n"), 5, "18446744073709551744");
        assertOneProblemAt(problems(HEAD + "setup:\n  connections: [{name: q, vlan: 4096}]\nsteps:\n"
            + "  - expect_none: 1us\n"), 5, "vlan");
        assertOneProblemAt(stepProblems("  - send: {opcode: SEND_ONLY, fields: {bth.resv7: 0x80}}\n"), 10,
            "bth.resv7");
        assertOneProblemAt(stepProblems("  - send: {opcode: SEND_ONLY, fields: {bth.psn: 0x1000000}}\n"), 10,
            "bth.psn");
    }

    @Test
    void sizesAreBoundedAtLoadNamingTheLimit() {
        assertOneProblemAt(problems(HEAD + "setup:\n  connections: [{name: q, count: 10000000}]\nsteps:\n"
            + "  - expect_none: 1us\n"), 5, "65536");
        assertOneProblemAt(stepProblems("  - message: {qp: q, op: write, mr: m, length: 1 << 40}\n"), 10, "limit");
        assertOneProblemAt(problems(HEAD + "setup:\n  connections: [{name: q}]\n  regions: [{name: m, "
            + "length: 1 << 40}]\nsteps:\n  - expect_none: 1us\n"), 6, "limit");
        assertOneProblemAt(stepProblems("  - expect_none: 99999999999999999999s\n"), 10, "expect_none");
        assertOneProblemAt(stepProblems("  - advance: 100000s\n"), 10, "limit");
    }

    @Test
    void expressionsNestedTooDeeplyAreRefusedAndLongSumsParse() {
        final String deep = "(".repeat(2000) + "1" + ")".repeat(2000);
        assertThatThrownBy(() -> Expr.parse(deep)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("nested");
        assertOneProblemAt(stepProblems("  - advance: \"" + deep + "\"\n"), 10, "nested");
        final String sum = "1" + " + 1".repeat(19_999);
        assertThat(Expr.parse(sum).eval(n -> null)).isEqualTo(20_000);
        final String difference = "100000" + " - 1".repeat(19_999);
        assertThat(Expr.parse(difference).eval(n -> null)).isEqualTo(100_000 - 19_999);
        assertThat(stepProblems("  - advance: \"" + sum + "\"\n")).isEmpty();
    }

    @Test
    void everyFileIsReportedWhenOneHasAMissingKey(@TempDir final Path dir) throws IOException {
        Files.createDirectories(dir.resolve("rd"));
        Files.writeString(dir.resolve("rd/a.yaml"), HEAD + "setup:\n  connections: [{psn: 0}]\nsteps:\n"
            + "  - expect_none: 1us\n");
        Files.writeString(dir.resolve("rd/b.yaml"), HEAD.replace("RD-002-x", "RD-002-y") + SETUP
            + "steps:\n  - repeat: {from: 0, to: 1, steps: [{advance: 1us}]}\n");
        CaseLoadException e = null;
        try {
            loader.load(List.of(dir));
        } catch (CaseLoadException thrown) {
            e = thrown;
        }
        assertThat(e).isNotNull();
        assertThat(e.problems()).extracting(YamlProblem::file).contains("rd/a.yaml", "rd/b.yaml");
        assertThat(e.problems()).allSatisfy(p -> assertThat(p.line()).isPositive());
    }

    @Test
    void seededMutationsOfBundledCasesNeverThrow() throws IOException {
        final MutationFuzzer fuzzer = new MutationFuzzer(20_251_201L);
        final List<String> seeds = MutationFuzzer.bundledCaseTexts();
        assertThat(seeds).hasSizeGreaterThan(50);
        for (int i = 0; i < 600; i++) {
            final String mutated = fuzzer.mutate(seeds.get(fuzzer.nextInt(seeds.size())));
            final List<YamlProblem> problems = new ArrayList<>();
            try {
                loader.parse("rd/x.yaml", "RD", mutated, problems);
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                throw new AssertionError("mutation " + i + " threw " + e + " for:\n" + mutated, e);
            }
            assertThat(problems).as("mutation %d:\n%s", i, mutated)
                .allSatisfy(p -> assertThat(p.line()).isPositive());
        }
    }
}

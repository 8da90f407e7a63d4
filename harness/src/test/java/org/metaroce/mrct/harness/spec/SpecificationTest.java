package org.metaroce.mrct.harness.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.testing.Fixtures;

/** The specification is well formed: the build fails on malformed or duplicate rule IDs (and other problems). */
class SpecificationTest {
    @Test
    void theBundledSpecificationHasNoProblems() throws IOException {
        final Specification spec = Specification.load(Fixtures.root().resolve("spec/metaroce-v1.md"));
        assertThat(spec.problems()).as("problems in spec/metaroce-v1.md").isEmpty();
        assertThat(spec.version()).isEqualTo("1.1");
        assertThat(spec.rules()).hasSizeGreaterThan(150);
        final Map<String, Long> perArea = spec.rules().values().stream()
            .collect(Collectors.groupingBy(Rule::area, Collectors.counting()));
        assertThat(perArea.keySet()).containsExactlyInAnyOrderElementsOf(Specification.AREAS);
        assertThat(spec.picsNames()).contains("legacy-rocev2", "atomics", "multipath-spraying",
            "send-with-invalidate");
        assertThat(spec.parameter("recv_window").defaultValue()).isEqualTo(128L);
        assertThat(spec.parameter("cnp_scope").defaultValue()).isEqualTo("per-qp");
        assertThat(spec.counters()).extracting(CounterDefinition::name).contains("drop_bad_icrc", "ack_sent");
        assertThat(spec.rule("MR-ORD-002").level()).isEqualTo(Level.MUST);
        assertThat(spec.rule("MR-ORD-002").role()).isEqualTo(Role.RESPONDER);
        assertThat(spec.rule("MR-ATM-001").pics()).isEqualTo("atomics");
    }

    @Test
    void theFrontMatterCountsTheRulesThereAre() throws IOException {
        final Specification spec = Specification.load(Fixtures.root().resolve("spec/metaroce-v1.md"));
        final Matcher count = Pattern.compile("(?m)^\\| Normative rules \\| (\\d+) \\|$").matcher(spec.text());
        assertThat(count.find()).as("the front matter's \"Normative rules\" row").isTrue();
        assertThat(Integer.parseInt(count.group(1))).as("rules counted in the front matter")
            .isEqualTo(spec.rules().size());
    }

    @Test
    void tableA1ListsExactlyTheRulesEachPicsItemEnables() throws IOException {
        final Specification spec = Specification.load(Fixtures.root().resolve("spec/metaroce-v1.md"));
        final MarkdownTable table = MarkdownTable.parseAll(spec.text().lines().toList()).stream()
            .filter(t -> t.hasColumns("item", "meaning", "rules it enables")).findFirst().orElseThrow();
        assertThat(table.rows()).hasSameSizeAs(spec.picsNames());
        for (final java.util.List<String> row : table.rows()) {
            final Set<String> listed = new TreeSet<>();
            final Matcher id = RULE_ID.matcher(row.get(2));
            while (id.find()) {
                listed.add(id.group());
            }
            final Set<String> conditional = spec.rules().values().stream().filter(r -> row.get(0).equals(r.pics()))
                .map(Rule::id).collect(Collectors.toCollection(TreeSet::new));
            assertThat(listed).as("Table A-1 row %s against the rules marked 'if %s'", row.get(0), row.get(0))
                .isEqualTo(conditional);
        }
    }

    @Test
    void everyRuleIdTheTextNamesExists() throws IOException {
        final Specification spec = Specification.load(Fixtures.root().resolve("spec/metaroce-v1.md"));
        final Set<String> unknown = new TreeSet<>();
        final Matcher id = RULE_ID.matcher(spec.text());
        while (id.find()) {
            if (spec.rule(id.group()) == null) {
                unknown.add(id.group());
            }
        }
        assertThat(unknown).as("rule IDs named in spec/metaroce-v1.md that no rule has").isEmpty();
    }

    private static final Pattern RULE_ID = Pattern.compile("MR-[A-Z]+-\\d{3}");

    @Test
    void theClassPathCopyIsTheRepositoryCopy() throws IOException {
        final Specification file = Specification.load(Fixtures.root().resolve("spec/metaroce-v1.md"));
        assertThat(Specification.bundled().text()).isEqualTo(file.text());
    }

    @Test
    void malformedDuplicateAndMisnumberedRulesAreReported() {
        final String text = "# MetaRoCE v1.0\n\n"
            + "**MR-ORD-001** (MUST, responder) First.\n\n"
            + "**MR-ORD-001** (MUST, responder) Again.\n\n"
            + "**MR-ORD-003** (SHOULD, any) Gap.\n\n"
            + "**MR-ORD-04** (MUST, responder) Short number.\n\n"
            + "**MR-XYZ-001** (MUST, responder) Unknown area.\n\n"
            + "**MR-ACK-001** (MUSTN'T, responder) Bad level.\n\n"
            + "**MR-ACK-002** (MUST, client) Bad role.\n";
        final Specification spec = Specification.parse(text, "test");
        assertThat(spec.problems()).extracting(SpecProblem::message).anySatisfy(m -> assertThat(m)
            .contains("duplicate rule ID MR-ORD-001"));
        assertThat(spec.problems()).extracting(SpecProblem::message).anySatisfy(m -> assertThat(m)
            .contains("MR-ORD-003 should be number 002"));
        assertThat(spec.problems()).extracting(SpecProblem::line).contains(9, 13, 15);
        assertThat(spec.problems()).extracting(SpecProblem::message).anySatisfy(m -> assertThat(m)
            .contains("unknown area XYZ"));
    }

    @Test
    void ruleParagraphsRunToTheBlankLine() {
        final Specification spec = Specification.parse("MetaRoCE v1.0\n## 4. Ordering\n"
            + "**MR-ORD-001** (MUST, responder, if atomics) One\ntwo\n\nthree\n", "test");
        final Rule rule = spec.rule("MR-ORD-001");
        assertThat(rule.text()).isEqualTo("One two");
        assertThat(rule.section()).isEqualTo("4. Ordering");
        assertThat(rule.pics()).isEqualTo("atomics");
        assertThat(rule.line()).isEqualTo(3);
    }

    @Test
    void parameterRangesAreChecked() throws IOException {
        final Specification spec = Specification.load(Fixtures.root().resolve("spec/metaroce-v1.md"));
        final Map<String, Object> declared = Map.of("max_pmtu", 2048L, "send_window", 64L, "rto_high_ns", 320000L,
            "rto_low_ns", 100000L, "line_rate_mbps", 100000L);
        assertThat(spec.parameter("recv_window").check(16L, declared::get)).isNull();
        assertThat(spec.parameter("recv_window").check(15L, declared::get)).contains("outside");
        assertThat(spec.parameter("pmtu").check(1024L, declared::get)).isNull();
        assertThat(spec.parameter("pmtu").check(1000L, declared::get)).isNotNull();
        assertThat(spec.parameter("pmtu").check(4096L, declared::get)).contains("max_pmtu");
        assertThat(spec.parameter("ack_req_interval").check(64L, declared::get)).isNull();
        assertThat(spec.parameter("ack_req_interval").check(65L, declared::get)).isNotNull();
        assertThat(spec.parameter("dcqcn_g").check(0.5, declared::get)).isNull();
        assertThat(spec.parameter("dcqcn_g").check(0.0, declared::get)).isNotNull();
        assertThat(spec.parameter("cnp_scope").check("per-port", declared::get)).isNull();
        assertThat(spec.parameter("cnp_scope").check("per-flow", declared::get)).isNotNull();
        for (final Parameter parameter : spec.parameters()) {
            assertThat(parameter.check(parameter.defaultValue(), name -> spec.parameter(name).defaultValue()))
                .as("default of %s within %s", parameter.name(), parameter.rangeText()).isNull();
        }
    }
}

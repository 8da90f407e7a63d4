package org.metaroce.mrct.harness.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;

/** Matrix variables and shared protection domains in case files, and the problems the loader reports for them. */
class CaseReaderTest {
    private static final String HEAD = "id: RD-002-x\ntitle: t\nrules: [MR-RD-002]\n";
    private static final String SETUP = "setup:\n  connections:\n    - name: q\n  regions:\n    - {name: m, length: 64}\n";

    private final CaseLoader loader = new CaseLoader(Specification.bundled());

    private CaseDef parse(final String text, final List<YamlProblem> problems) {
        return loader.parse("rd/x.yaml", "RD", text, problems);
    }

    @Test
    void aMatrixRowMayIntroduceVariablesThatExpressionsUse() {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = parse(HEAD + "matrix:\n  - {pmtu: 256, length: \"pmtu + 1\"}\n" + SETUP
            + "steps:\n  - message: {qp: q, op: read, mr: m, length: length}\n", problems);
        assertThat(problems).isEmpty();
        assertThat(def.matrix()).hasSize(1);
        assertThat(def.matrix().get(0)).containsKeys("pmtu", "length");
    }

    @Test
    void aMatrixVariableNothingUsesIsReportedAsAMisspeltParameter() {
        final List<YamlProblem> problems = new ArrayList<>();
        parse(HEAD + "matrix:\n  - {pmtuu: 256}\n" + SETUP + "steps:\n  - expect_none: 1us\n", problems);
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.message()).contains("matrix variable 'pmtuu'");
            assertThat(p.line()).isEqualTo(5);
        });
    }

    @Test
    void paramsStillTakeParameterNamesOnly() {
        final List<YamlProblem> problems = new ArrayList<>();
        parse(HEAD + "params: {length: 4}\n" + SETUP + "steps:\n  - message: {qp: q, op: read, mr: m, length: length}\n",
            problems);
        assertThat(problems).extracting(YamlProblem::message).anySatisfy(m -> assertThat(m)
            .contains("unknown parameter 'length'"));
    }

    @Test
    void aConnectionMayShareTheProtectionDomainOfAnEarlierOne() {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = parse(HEAD + "setup:\n  connections:\n    - name: a\n    - {name: b, pd: a}\n"
            + "steps:\n  - expect_none: 1us\n", problems);
        assertThat(problems).isEmpty();
        assertThat(def.connections().get(0).pd()).isNull();
        assertThat(def.connections().get(1).pd()).isEqualTo("a");
    }

    @Test
    void aSharedProtectionDomainMustNameAnEarlierConnection() {
        final List<YamlProblem> problems = new ArrayList<>();
        parse(HEAD + "setup:\n  connections:\n    - {name: a, pd: b}\n    - {name: b, pd: b}\n"
            + "steps:\n  - expect_none: 1us\n", problems);
        assertThat(problems).hasSize(2).allSatisfy(p -> assertThat(p.message()).contains("declared before it"));
    }

    @Test
    void aRegionMayBelongToOneQpOfAConnectionWithACount() {
        final List<YamlProblem> problems = new ArrayList<>();
        final CaseDef def = parse(HEAD + "setup:\n  connections:\n    - {name: q, count: 3}\n  regions:\n"
            + "    - {name: a, connection: \"q[2]\", length: 64}\nsteps:\n  - expect_none: 1us\n", problems);
        assertThat(problems).isEmpty();
        assertThat(def.regions().get(0).connection()).isEqualTo("q[2]");
        parse(HEAD + "setup:\n  connections:\n    - {name: q, count: 3}\n  regions:\n"
            + "    - {name: b, connection: \"r[0]\", length: 64}\n    - {name: c, connection: \"q[i]\", length: 64}\n"
            + "steps:\n  - expect_none: 1us\n", problems);
        assertThat(problems).extracting(YamlProblem::message).containsExactly("unknown connection 'r[0]'",
            "unknown connection 'q[i]'");
    }
}

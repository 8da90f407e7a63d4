package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;

/**
 * Produced reports against the documented schema ({@code reports/schema/report-v1.schema.json}), and the schema
 * against the README: every member it declares is listed there.
 */
class ReportSchemaTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Path MODULE = Paths.get("").toAbsolutePath();

    @TempDir
    Path dir;

    private static SchemaChecker checker() throws Exception {
        final JsonNode schema = MAPPER.readTree(MODULE.resolve("schema/report-v1.schema.json").toFile());
        assertThat(schema.get("$schema").asText()).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        return new SchemaChecker(schema);
    }

    private JsonNode report() throws Exception {
        return MAPPER.readTree(dir.resolve("report.json").toFile());
    }

    @Test
    void everyStateOfAReportConforms() throws Exception {
        final SchemaChecker checker = checker();
        final List<CaseResult> cases = new ArrayList<>(Synthetic.allVerdicts());
        cases.add(Synthetic.hostile());
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.JSON), Synthetic.spec());
        listener.runStarted(Synthetic.info(cases.size()));
        assertThat(checker.check(report())).as("before any case").isEmpty();
        for (final CaseResult c : cases) {
            listener.caseFinished(c);
            assertThat(checker.check(report())).as("after " + c.id()).isEmpty();
        }
        listener.runFinished(Synthetic.info(cases.size()), Synthetic.summary(cases, Synthetic.baseline(), true));
        assertThat(checker.check(report())).as("finished with a baseline").isEmpty();
        listener.runFinished(Synthetic.info(cases.size()), Synthetic.summary(cases, null, false));
        assertThat(checker.check(report())).as("stopped early, no baseline").isEmpty();
    }

    @Test
    void theSeriesOfARequesterCaseConform() throws Exception {
        Synthetic.run(Reports.open(dir, EnumSet.of(ReportFormat.JSON), null), List.of(Synthetic.requesterCongestion()),
            null);
        final JsonNode report = report();
        assertThat(checker().check(report)).isEmpty();
        final List<String> names = new ArrayList<>();
        report.at("/cases/0/series").fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("other", "q.cnp", "q.model_rc_mbps", "q.rate_mbps", "switch.queue_bytes");
    }

    @Test
    void theCheckerCatchesADocumentThatDrifted() throws Exception {
        final SchemaChecker checker = checker();
        Synthetic.run(Reports.open(dir, EnumSet.of(ReportFormat.JSON), null), Synthetic.allVerdicts(),
            Synthetic.baseline());
        final JsonNode good = report();
        assertThat(checker.check(good)).isEmpty();

        ObjectNode bad = good.deepCopy();
        ((ObjectNode) bad.at("/cases/1")).remove("verdict");
        assertThat(checker.check(bad)).containsExactly("/cases/1: missing required member 'verdict'");

        bad = good.deepCopy();
        ((ObjectNode) bad.get("run")).put("seed", 42L);
        assertThat(checker.check(bad)).containsExactly("/run/seed: expected type \"string\", found NUMBER");

        bad = good.deepCopy();
        ((ObjectNode) bad.at("/cases/1/evidence/0")).put("extra", true);
        assertThat(checker.check(bad)).containsExactly("/cases/1/evidence/0: unexpected member 'extra'");

        bad = good.deepCopy();
        ((ObjectNode) bad.at("/cases/1")).put("verdict", "MAYBE");
        assertThat(checker.check(bad)).hasSize(1).first().asString().startsWith("/cases/1/verdict: \"MAYBE\" is not one of");

        bad = good.deepCopy();
        ((ObjectNode) bad.at("/cases/1/evidence/0")).put("bytes", "0A1");
        assertThat(checker.check(bad)).hasSize(1).first().asString().startsWith("/cases/1/evidence/0/bytes:");

        bad = good.deepCopy();
        ((ArrayNode) bad.at("/cases/7/series/cnp/0")).add("x");
        assertThat(checker.check(bad)).hasSize(1).first().asString().startsWith("/cases/7/series/cnp/0/2:");

        bad = good.deepCopy();
        bad.put("end", "yesterday");
        assertThat(checker.check(bad)).containsExactly("/end: 'yesterday' is not an ISO 8601 date-time");
    }

    @Test
    void theReadmeListsEveryMemberOfTheSchema() throws Exception {
        final String readme = Files.readString(MODULE.resolve("README.md"));
        final int start = readme.indexOf("## report.json");
        assertThat(start).as("README has a '## report.json' section").isNotNegative();
        final int end = readme.indexOf("\n## ", start + 1);
        final String section = end < 0 ? readme.substring(start) : readme.substring(start, end);
        final List<String> names = checker().declaredNames();
        assertThat(names).contains("format", "timestampNanos", "newlyFailing", "stepLine");
        for (final String name : names) {
            assertThat(section).as("README report.json section documents `%s`", name).contains("`" + name + "`");
        }
    }
}

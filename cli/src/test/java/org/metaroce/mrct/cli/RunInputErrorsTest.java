package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.Fixtures;

/**
 * Bad inputs to {@code mrct run}: case files and DUT profiles with problems stop the run with exit 2 and every problem
 * named by {@code file:line}, never a stack trace; a profile's identity is reported as declared.
 */
class RunInputErrorsTest {
    private static final String HEAD = "id: RD-002-x\ntitle: t\nrules: [MR-RD-002]\n";

    private static String referenceProfile() throws IOException {
        return Files.readString(Fixtures.root().resolve("fixtures/profiles/reference.yaml"));
    }

    @Test
    void everyBadCaseFileIsReportedWithItsLinesAndExit2(@TempDir final Path dir) throws IOException {
        final Path cases = dir.resolve("cases");
        Files.createDirectories(cases.resolve("rd"));
        Files.writeString(cases.resolve("rd/a.yaml"), HEAD + "setup:\n  connections: [{psn: 0}]\nsteps:\n"
            + "  - expect_none: 99999999999999999999s\n");
        Files.writeString(cases.resolve("rd/b.yaml"), HEAD.replace("-x", "-y") + "setup:\n  connections: "
            + "[{name: q, count: 10000000}]\nsteps:\n  - repeat: {from: 0, to: 1, steps: [{advance: 1us}]}\n");
        final Mrct.Run run = Mrct.run("run", "--cases", cases.toString(), "--report-dir", dir.resolve("r").toString(),
            "--quiet");
        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("rd/a.yaml:5: a connection needs 'name'", "rd/a.yaml:7: expect_none:",
            "rd/b.yaml:5: count: 10000000 is outside a QP count (1 to 65536, the harness's limit)",
            "rd/b.yaml:7: repeat needs 'var'")
            .doesNotContain("Exception", "internal error", "\tat ");
    }

    @Test
    void aProfileMissingParametersIsRefusedNamingThem(@TempDir final Path dir) throws IOException {
        final Path profile = dir.resolve("short.yaml");
        Files.writeString(profile, "identity: {vendor: X}\nparameters:\n  pmtu: 4096\n");
        final Mrct.Run run = Mrct.run("run", "--profile", profile.toString(), "--report-dir",
            dir.resolve("r").toString(), "--quiet");
        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("short.yaml:2: missing parameter 'recv_window'", "MR-CONF-001")
            .doesNotContain("Exception");
    }

    @Test
    void theIdentityIsReportedAsDeclared(@TempDir final Path dir) throws IOException {
        final Path profile = dir.resolve("x.yaml");
        Files.writeString(profile, referenceProfile().replaceAll("(?s)identity:.*?pics:", "identity: {vendor: X}\n"
            + "pics:"));
        final Path reports = dir.resolve("r");
        final Mrct.Run run = Mrct.run("run", "--profile", profile.toString(), "-s", "WIRE-002", "--generated", "0",
            "--report-dir", reports.toString(), "--quiet", "--format", "JSON");
        assertThat(run.status()).as(run.err()).isZero();
        final JsonNode info = new ObjectMapper().readTree(reports.resolve("report.json").toFile()).get("run");
        assertThat(info.get("vendor").asText()).isEqualTo("X");
        assertThat(info.get("model").asText()).isEqualTo("not declared");
        assertThat(info.get("firmware").asText()).isEqualTo("not declared");
    }
}

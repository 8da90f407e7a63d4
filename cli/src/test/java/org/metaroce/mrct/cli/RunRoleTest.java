package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code mrct run --role}: only the cases where the device plays that role, generated ones included. */
class RunRoleTest {
    private static Map<String, Verdicts.Outcome> run(final Path dir, final String role) throws IOException {
        final Mrct.Run run = Mrct.run("run", "--role", role, "-s", "ORD-002", "-s", "REQ-004", "-s", "GEN-",
            "--generated", "2", "--report-dir", dir.toString(), "--quiet", "--format", "JSON");
        assertThat(run.status()).as(run.err()).isZero();
        return Verdicts.read(dir);
    }

    @Test
    void responderRunsOnlyResponderCases(@TempDir final Path dir) throws IOException {
        final Map<String, Verdicts.Outcome> verdicts = run(dir, "responder");
        assertThat(verdicts.keySet()).isNotEmpty().allSatisfy(id -> assertThat(id).matches("ORD-002.*|GEN-\\d+"))
            .contains("GEN-0", "GEN-1");
    }

    @Test
    void requesterRunsOnlyRequesterCases(@TempDir final Path dir) throws IOException {
        final Map<String, Verdicts.Outcome> verdicts = run(dir, "requester");
        assertThat(verdicts.keySet()).isNotEmpty().allSatisfy(id -> assertThat(id).matches("REQ-004.*|GEN-R-\\d+"))
            .contains("GEN-R-0", "GEN-R-1");
    }

    @Test
    void anotherRoleIsAUsageError(@TempDir final Path dir) {
        final Mrct.Run run = Mrct.run("run", "--role", "switch", "--report-dir", dir.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--role must be responder or requester, not 'switch'");
    }
}

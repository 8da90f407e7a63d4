package org.metaroce.mrct.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.testing.Fixtures;

/**
 * A recording made against MetaRoCE v1.0 (the committed {@code fixtures/captures/evidence/requester-cases.pcapng},
 * whose section header says {@code spec=1.0}) is refused by the replay of this mrct, which bundles v1.1: its cases,
 * rules and verdicts are v1.0's (CNP P_Key, TVer 0 retry counting, duplicate READs and more changed, issue 9).
 */
class OlderSpecRecordingTest {
    @Test
    void aVersion10RecordingIsRefusedWithTheTypedErrorNamingBothVersions() {
        final Path v10 = Fixtures.fixtures().resolve("captures/evidence/requester-cases.pcapng");
        Assumptions.assumeTrue(Files.isRegularFile(v10), "the committed v1.0 evidence fixture is missing: " + v10);
        final String bundled = Specification.bundled().version();
        assertThat(bundled).isEqualTo("1.1");
        assertThatThrownBy(() -> ReplayAdapter.open(v10, bundled))
            .isInstanceOfSatisfying(SpecVersionMismatchException.class, e -> {
                assertThat(e.recorded()).isEqualTo("1.0");
                assertThat(e.expected()).isEqualTo("1.1");
                assertThat(e.file()).isEqualTo(v10);
                assertThat(e.getMessage()).contains(v10.toString(), "version 1.0", "version 1.1");
            });
    }
}

package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.analyzer.internal.Parameters;
import org.metaroce.mrct.testing.Fixtures;

/** Without a profile each check takes the end of a parameter's range that excuses the device most. */
class ParametersTest {
    private static final Specification SPEC = Specification.bundled();

    @Test
    void withoutAProfileTheDefaultsAreUsedAndTheRangesBoundTheChecks() {
        final Parameters parameters = new Parameters(SPEC, null);
        assertThat(parameters.declared()).isFalse();
        assertThat(parameters.source()).isEqualTo("the defaults of Appendix B");
        assertThat(parameters.value("send_window")).isEqualTo(128);
        assertThat(parameters.lenientMax("send_window")).isEqualTo(32768);
        // "1 to send_window": the top of a range that names a parameter is that parameter's top
        assertThat(parameters.lenientMax("ack_req_interval")).isEqualTo(32768);
        assertThat(parameters.lenientMin("rto_low_ns")).isEqualTo(10_000);
        assertThat(parameters.lenientMin("recv_window")).isEqualTo(16);
        assertThat(parameters.lenientMax("cnp_interval_ns")).isEqualTo(1_000_000);
        assertThat(parameters.lenientMax("cnp_delay_max_ns")).isEqualTo(100_000);
        assertThat(parameters.ratio("dcqcn_g")).isEqualTo(1.0 / 256);
    }

    @Test
    void aProfileIsTakenAtItsWord() throws Exception {
        final Path file = Fixtures.root().resolve("fixtures/profiles/reference.yaml");
        final Parameters parameters = new Parameters(SPEC, ProfileLoader.load(file, SPEC));
        assertThat(parameters.declared()).isTrue();
        assertThat(parameters.source()).isEqualTo("profile reference.yaml");
        assertThat(parameters.lenientMax("send_window")).isEqualTo(128);
        assertThat(parameters.lenientMin("rto_low_ns")).isEqualTo(100_000);
        assertThat(parameters.claims("multipath-spraying")).isTrue();
        assertThat(parameters.word("cnp_scope")).isEqualTo("per-qp");
    }
}

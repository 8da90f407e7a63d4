package org.metaroce.mrct.analyzer.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.oracle.TimingTolerance;

/** The run's timing tolerance read once from the evidence's section comment into the oracle's typed value. */
class EvidenceHeaderTest {
    private static final Path FILE = Path.of("run", "evidence.pcapng");

    @Test
    void theRecordedFieldsBecomeTheTolerance() throws Exception {
        assertThat(EvidenceHeader.tolerance(FILE, "mrct run=x seed=1 tolerance_ns=2000000 tolerance_pct=20"))
            .isEqualTo(new TimingTolerance(2_000_000, 20));
        assertThat(EvidenceHeader.tolerance(FILE, "mrct run=x seed=1 tolerance_pct=5"))
            .isEqualTo(new TimingTolerance(0, 5));
        assertThat(EvidenceHeader.tolerance(FILE, "mrct run=x seed=1")).isEqualTo(TimingTolerance.NONE);
        assertThat(EvidenceHeader.tolerance(FILE, null)).isEqualTo(TimingTolerance.NONE);
        assertThat(EvidenceHeader.tolerance(FILE, "written by dumpcap")).isEqualTo(TimingTolerance.NONE);
    }

    @Test
    void aBadFieldIsATypedErrorNamingTheFileAndTheField() {
        assertThatThrownBy(() -> EvidenceHeader.tolerance(FILE, "mrct seed=1 tolerance_ns=1ms tolerance_pct=20"))
            .isInstanceOfSatisfying(EvidenceHeader.BadFieldException.class, e -> {
                assertThat(e.file()).isEqualTo(FILE);
                assertThat(e.field()).isEqualTo("tolerance_ns");
                assertThat(e.getMessage()).contains("tolerance_ns=1ms");
            });
        assertThatThrownBy(() -> EvidenceHeader.tolerance(FILE, "mrct tolerance_ns=0 tolerance_pct=-3"))
            .isInstanceOfSatisfying(EvidenceHeader.BadFieldException.class,
                e -> assertThat(e.field()).isEqualTo("tolerance_pct"));
        assertThatThrownBy(() -> EvidenceHeader.tolerance(FILE, "mrct seed=1 novalue"))
            .isInstanceOfSatisfying(EvidenceHeader.BadFieldException.class,
                e -> assertThat(e.field()).isEqualTo("section comment"));
    }

    @Test
    void theSlackAroundAWindowIsTheLargerOfTheTwoTolerances() {
        final TimingTolerance t = new TimingTolerance(2_000_000, 20);
        assertThat(t.around(10_000)).isEqualTo(2_000_000);
        assertThat(t.around(50_000_000)).isEqualTo(10_000_000);
        assertThat(new TimingTolerance(0, 20).around(10_001)).isEqualTo(10_001 * 20 / 100);
        assertThat(new TimingTolerance(0, 100).around(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(TimingTolerance.NONE.around(1_000_000)).isZero();
        assertThatThrownBy(() -> new TimingTolerance(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}

package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.Fixtures;

/** The public soft-RoCE captures (plain RoCEv2 from Linux rxe hosts) analyse clean under the legacy rules. */
class SoftRoceCapturesTest {
    static Stream<Path> captures() {
        return Fixtures.softRoceCaptures().stream();
    }

    @ParameterizedTest
    @MethodSource("captures")
    void analysesCleanUnderTheLegacyRules(final Path capture) {
        for (final CaptureAnalyzer.Mode mode : List.of(CaptureAnalyzer.Mode.LEGACY, CaptureAnalyzer.Mode.AUTO)) {
            final Analyses.Result result = Analyses.run(capture, CaptureAnalyzer.Options.defaults().withMode(mode));
            assertThat(result.with(Verdict.FAIL)).as(mode + "\n" + result.describe()).isEmpty();
            assertThat(result.with(Verdict.INCONCLUSIVE)).as(mode + "\n" + result.describe()).isEmpty();
            assertThat(result.outcome().files().get(0).connections()).isPositive();
            assertThat(result.outcome().files().get(0).problem()).isNull();
            // the framing checks ran on every RoCE frame, and the go-back-N responder rules on its acknowledgements
            assertThat(result.of("MR-WIRE-014")).isNotEmpty().allMatch(c -> c.verdict() == Verdict.PASS);
            assertThat(result.of("MR-LEG-001")).isNotEmpty();
            assertThat(result.of("MR-REQ-003")).isNotEmpty();
            assertThat(result.summary().overall()).isEqualTo(Overall.CONFORMANT);
        }
    }

    @Test
    void sharedCapturesAnalyseCleanToo() {
        final List<Path> shared = Fixtures.sharedCaptures();
        assertThat(shared).isNotEmpty();
        for (final Path capture : shared) {
            final Analyses.Result result = Analyses.run(capture,
                CaptureAnalyzer.Options.defaults().withMode(CaptureAnalyzer.Mode.LEGACY));
            assertThat(result.with(Verdict.FAIL)).as(capture + "\n" + result.describe()).isEmpty();
        }
    }

    @Test
    void theWriteCaptureIsRebuiltAsOneConnectionWithBothDirections() {
        final Path capture = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");
        final Analyses.Result result = Analyses.run(capture);
        assertThat(result.outcome().files().get(0).connections()).isEqualTo(1);
        final var summary = result.cases().stream().filter(c -> c.id().equals("C1/summary")).findFirst().orElseThrow();
        assertThat(summary.title()).isEqualTo("10.1.16.62 qp 0x00001d <-> 10.1.16.61 qp 0x00001b");
        assertThat(summary.notes()).anyMatch(n -> n.contains("RoCEv2 (TVer 0)"));
        assertThat(summary.notes()).anyMatch(n -> n.startsWith("10.1.16.62 -> 10.1.16.61 qp 0x00001b") && n
            .contains(" 15 "));
        assertThat(summary.series()).containsKey("10.1.16.62 -> 10.1.16.61 data Mb/s");
        // the responder's ACKs were judged against the requests: cumulative point and MSN
        assertThat(result.of("MR-ACK-003")).singleElement().satisfies(c -> assertThat(c.reason())
            .startsWith("5 AETHs checked"));
        assertThat(result.of("MR-LEG-002")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
    }

    @Test
    void theReadCaptureMatchesEveryResponseToItsRead() {
        final Analyses.Result result = Analyses.run(Fixtures.fixtures()
            .resolve("captures/soft-roce/rdma_read_bw.pcap"));
        assertThat(result.of("MR-RD-003")).singleElement().satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(Verdict.PASS);
            assertThat(c.reason()).startsWith("15 READ RESPONSE packets checked");
        });
        assertThat(result.of("MR-RD-005")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
    }
}

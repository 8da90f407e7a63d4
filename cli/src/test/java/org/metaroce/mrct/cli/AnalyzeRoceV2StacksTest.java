package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.ExternalTool;
import org.metaroce.mrct.testing.Fixtures;

/**
 * {@code mrct analyze} on RoCEv2 traffic of real stacks, crafted with scapy at test time by the analyzer's
 * {@code rocev2_stacks.py} (each capture names the source of the behaviour it shows): exit 0 on every legal capture,
 * with the frames outside MetaRoCE's scope listed as not applicable, and exit 1 on the capture where one RC packet
 * breaks a rule among them. Skipped with the reason without python3-scapy.
 */
class AnalyzeRoceV2StacksTest {
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    static Path dir;

    @BeforeAll
    static void craft() throws IOException {
        ExternalTool.assumeWorks("the crafted RoCEv2 captures need python3-scapy", PYTHON, "-c",
            "import scapy.contrib.roce");
        final Path script = Fixtures.root().resolve("analyzer/src/test/resources/scapy/rocev2_stacks.py");
        final ExternalTool.Result result = ExternalTool.run(300, PYTHON, script.toString(),
            dir.resolve("captures").toString());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
    }

    private static Mrct.Run analyze(final String name) {
        return Mrct.run("analyze", "--format", "JSON", "--report-dir", dir.resolve("reports-" + name).toString(),
            dir.resolve("captures").resolve(name + ".pcap").toString());
    }

    @Test
    void everyLegalCaptureExits0() {
        for (final String name : List.of("rxe_rc", "hwnic_rc", "ecn_cnp", "ecn_no_cnp", "uc_traffic", "ud_traffic",
            "rdma_cm", "lookalikes")) {
            final Mrct.Run run = analyze(name);
            assertThat(run.status()).as(name + ":\n" + run.out() + run.err()).isZero();
            assertThat(run.out()).as(name).contains("CONFORMANT: no violation seen").doesNotContain("FAIL ");
        }
    }

    @Test
    void theFramesOutsideTheScopeAreListedAsNotApplicable() {
        final Mrct.Run run = analyze("rdma_cm");
        assertThat(run.out()).contains("  C1 10.9.0.1 qp 0x000061 <-> 10.9.0.2 qp 0x000062: 7 frames",
            "  out-of-scope/mad management datagrams on QP0 and QP1 (connection manager): 5 frames outside "
                + "MetaRoCE's scope, not judged", "[NOT_APPLICABLE]");
    }

    @Test
    void aRealRcViolationAmongThemExits1AndNamesItsRuleAndFrame() {
        final Mrct.Run run = analyze("mixed_with_rc_violation");
        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.out()).contains("FAIL C1/MR-WIRE-013: 1 violation, first at frame 7: RDMA_WRITE_LAST",
            "bth.resv7 1 (expected 0)", "out-of-scope/uc", "out-of-scope/ud", "out-of-scope/mad",
            "out-of-scope/not-bth", "NON_CONFORMANT");
    }
}

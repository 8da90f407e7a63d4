package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.ExternalTool;

/**
 * The evidence of a whole run with the {@code no-rate-cut} fault opens in Wireshark: capinfos counts and tshark reads
 * every packet (the default run's evidence is checked in ReplayCommandTest, which records it anyway).
 */
class FaultEvidenceInWiresharkTest {
    @TempDir
    Path dir;

    @Test
    void wiresharkReadsEveryPacketOfANoRateCutRun() throws Exception {
        ExternalTool.assumeWorks("the evidence is read with Wireshark's tools", "tshark", "--version");
        ExternalTool.assumeWorks("the evidence is read with Wireshark's tools", "capinfos", "-h");
        final Mrct.Run run = Mrct.run("run", "--quiet", "--fault", "no-rate-cut", "--report-dir", dir.toString(),
            "--format", "EVIDENCE");
        assertThat(run.status()).as(run.err()).isEqualTo(1);
        assertThat(WiresharkReads.assertEveryPacketRead(dir.resolve("evidence.pcapng"))).isGreaterThan(300_000);
    }
}

package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line of {@code mrct analyze}: silent for the first second, then rewritten in place, then erased. */
class AnalyzeProgressTest {
    @Test
    void showsNothingAtFirstThenOneLineRewrittenInPlaceThenErasesIt() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        final long[] now = {0};
        final AnalyzeProgress progress = new AnalyzeProgress(err, () -> now[0]);
        progress.update("big.pcap", 0, 2, 1_000_000, 4_000_000, 65_536);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEmpty();
        now[0] = 1_500_000_000L;
        progress.update("big.pcap", 0, 2, 2_000_000, 4_000_000, 131_072);
        assertThat(bytes.toString(StandardCharsets.UTF_8))
            .isEqualTo("\rmrct analyze: [1/2] big.pcap 50% (2.0 MB of 4.0 MB), 131,072 frames");
        now[0] += 100_000_000L; // too soon: not shown
        progress.update("big.pcap", 0, 2, 3_000_000, 4_000_000, 196_608);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).doesNotContain("75%");
        now[0] += 200_000_000L;
        progress.update("big.pcap", 0, 2, 3_000_000, 4_000_000, 196_608);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).endsWith("\rmrct analyze: [1/2] big.pcap 75% (3.0 MB of "
            + "4.0 MB), 196,608 frames");
        bytes.reset();
        progress.clear();
        final String erased = bytes.toString(StandardCharsets.UTF_8);
        assertThat(erased).startsWith("\r").endsWith("\r").matches("\r +\r");
    }
}
